package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gq/parser/sqlparser"

	"gq/errs"
)

// Statement is one statement of a script.
type Statement struct {
	Text string // the statement's text, without the terminating ';'
	// Line and Col are the 1-based position of the statement's first
	// character in the script.
	Line, Col int
	AST       sqlparser.Statement
}

var vparser *sqlparser.Parser

func init() {
	// StrictDDL: a CREATE TABLE with a column type MySQL lacks is a syntax
	// error at that type, not a table made from the columns before it.
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40", StrictDDL: true})
	if err != nil {
		panic(err) // a constant option set; fails only if vitess changes
	}
	vparser = p
}

// Split splits sql at top-level ';' and parses each non-empty statement.
// Quotes, backticks and comments (-- , #, /* */) are respected. The first
// syntax error stops the split and is returned with its script position.
func Split(sql string) ([]Statement, error) {
	var out []Statement
	for _, piece := range splitText(sql) {
		st, err := parsePiece(piece)
		if err != nil {
			return out, err
		}
		out = append(out, st)
	}
	return out, nil
}

// piece is a statement's text and the byte offset of its start in the script.
type piece struct {
	text  string
	start int
	full  string // the whole script, for positions
	// slashes is the script offset of a "//" outside quotes and comments
	// (-1: none). vitess's tokenizer takes it for a line comment, which
	// MySQL has not: "select 7 // 2, 5" parsed as "select 7" and dropped
	// the rest of the line without a word.
	slashes int
}

// splitText scans the script once, cutting at ';' outside quotes and
// comments. Pieces that hold only whitespace and comments are dropped.
func splitText(sql string) []piece {
	var out []piece
	hasCode := false
	codeStart, slashes := -1, -1
	flush := func(end int) {
		if hasCode {
			text := strings.TrimRightFunc(sql[codeStart:end], isSpace)
			out = append(out, piece{text: text, start: codeStart, full: sql, slashes: slashes})
		}
		hasCode, codeStart, slashes = false, -1, -1
	}
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			if !hasCode {
				hasCode, codeStart = true, i
			}
			i = skipQuoted(sql, i)
			continue
		case c == '#' || (c == '-' && strings.HasPrefix(sql[i:], "--") && (i+2 == len(sql) || isSpaceByte(sql[i+2]))):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				i = len(sql)
			} else {
				i += j + 1
			}
			continue
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				i = len(sql)
			} else {
				i += j + 4
			}
			continue
		case c == '/' && strings.HasPrefix(sql[i:], "//"):
			if !hasCode {
				hasCode, codeStart = true, i
			}
			if slashes < 0 {
				slashes = i
			}
			i += 2
			continue
		case c == ';':
			flush(i)
			i++
			continue
		case isSpaceByte(c):
		default:
			if !hasCode {
				hasCode, codeStart = true, i
			}
		}
		i++
	}
	flush(len(sql))
	return out
}

// skipQuoted returns the index just past the quoted text starting at i.
// A doubled quote or (outside backticks) a backslash escapes.
func skipQuoted(s string, i int) int {
	q := s[i]
	j := i + 1
	for j < len(s) {
		switch {
		case s[j] == '\\' && q != '`':
			j += 2
			continue
		case s[j] == q:
			if j+1 < len(s) && s[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return len(s)
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

func isSpaceByte(c byte) bool { return isSpace(rune(c)) }

// position returns the 1-based line and column of byte offset off in s.
func position(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	line = 1 + strings.Count(s[:off], "\n")
	col = off - (strings.LastIndexByte(s[:off], '\n') + 1) + 1
	return line, col
}

// vitess reports "syntax error at position N near 'tok'" where N-1 is the
// byte offset just past the offending token.
var posRE = regexp.MustCompile(`at position (\d+)(?: near '((?:[^']|'')*)')?`)

func parsePiece(p piece) (Statement, error) {
	line, col := position(p.full, p.start)
	st := Statement{Text: p.text, Line: line, Col: col}
	if p.slashes >= 0 {
		e := errs.New(errs.Syntax, "syntax error near '//': MySQL has no // operator or comment (integer division is DIV; a comment starts with -- , # or /*)")
		e.Near = "//"
		e.Line, e.Col = position(p.full, p.slashes)
		return st, e
	}
	ast, err := parseVitess(p.text)
	if err != nil {
		return st, syntaxError(p, err)
	}
	st.AST = ast
	return st, nil
}

// parseVitess is vitess's Parse, with a panic inside it (some malformed
// input reaches one: set followed by four backquotes slices an empty
// identifier) turned into the syntax error it stands for.
func parseVitess(text string) (ast sqlparser.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			ast, err = nil, fmt.Errorf("malformed statement: the MySQL parser failed on it (%v)", r)
		}
	}()
	return vparser.Parse(text)
}

func syntaxError(p piece, err error) error {
	msg := err.Error()
	e := errs.New(errs.Syntax, "%s", cleanMessage(msg))
	m := posRE.FindStringSubmatch(msg)
	if m == nil {
		e.Line, e.Col = position(p.full, p.start)
		return e
	}
	// vitess's position is one past the (exclusive) end of the token.
	end, _ := strconv.Atoi(m[1])
	end--
	near := strings.ReplaceAll(m[2], "''", "'")
	off := end - len(near)
	if near == "" || off < 0 || off > len(p.text) || !strings.EqualFold(p.text[off:min(end, len(p.text))], near) {
		off = min(max(end, 0), len(p.text))
	}
	e.Near = near
	e.Line, e.Col = position(p.full, p.start+off)
	if note := dialectNote(p.text[:off], near); note != "" {
		e.Msg += ": " + note
	}
	return e
}

// dialectNote names the DuckDB (or PostgreSQL) construct a syntax error
// at near, after the text before, most likely stands for, "" for none:
// the plain "syntax error near 'MACRO'" does not say that gq knows the
// construct and lacks it.
func dialectNote(before, near string) string {
	prev := strings.Fields(strings.ToLower(before))
	last := ""
	if len(prev) > 0 {
		last = prev[len(prev)-1]
	}
	switch n := strings.ToLower(near); {
	case n == "macro" && (last == "create" || last == "replace" || last == "temp" || last == "temporary"):
		return "CREATE MACRO (DuckDB's) is not supported"
	case n == "bitstring":
		return "the BITSTRING type (DuckDB's) is not supported"
	case n == "as" && len(prev) == 2 && prev[0] == "prepare":
		return "PREPARE name AS query (DuckDB's and PostgreSQL's) is not supported; MySQL's form is PREPARE name FROM 'query'"
	}
	return ""
}

// cleanMessage drops vitess's byte position, which means nothing to a user
// once the line and column are known.
func cleanMessage(msg string) string {
	return strings.TrimSpace(regexp.MustCompile(`at position \d+ ?`).ReplaceAllString(msg, ""))
}

// findToken returns the offset of the first occurrence of tok in text that
// is not part of a longer identifier ("id" not inside "paid"), else of the
// first occurrence at all, else -1.
func findToken(text, tok string) int {
	first := -1
	for from := 0; ; {
		i := strings.Index(text[from:], tok)
		if i < 0 {
			return first
		}
		i += from
		if first < 0 {
			first = i
		}
		end := i + len(tok)
		if (i == 0 || !isIdentByte(text[i-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return i
		}
		from = i + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Locate returns the 1-based line and column (in the script) of the first
// case-insensitive occurrence of near in the statement's text, or the
// statement's own position when near is empty or absent.
func Locate(stmt Statement, near string) (line, col int) {
	if near == "" {
		return stmt.Line, stmt.Col
	}
	i := findToken(strings.ToLower(stmt.Text), strings.ToLower(near))
	if i < 0 {
		return stmt.Line, stmt.Col
	}
	l, c := position(stmt.Text, i)
	if l == 1 {
		return stmt.Line, stmt.Col + c - 1
	}
	return stmt.Line + l - 1, c
}
