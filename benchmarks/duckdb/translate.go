package duckdb

import (
	"strings"
)

// Translate rewrites the few MySQL spellings that gq's queries use and
// DuckDB rejects. Kept deliberately small and explicit:
//
//   - `ident` (backticks) becomes "ident";
//   - date_add(x, interval ...) becomes (x + interval ...), and
//     date_sub(x, interval ...) becomes (x - interval ...).
//
// DuckDB already accepts interval 'N' unit, extract(year from x),
// substring(x from a for b), substring(x, a, b) and create view v (cols).
func Translate(sql string) string {
	sql = replaceBackticks(sql)
	sql = rewriteDateArith(sql, "date_add", "+")
	sql = rewriteDateArith(sql, "date_sub", "-")
	return sql
}

// replaceBackticks turns backtick-quoted identifiers into double-quoted
// ones, leaving string literals alone.
func replaceBackticks(sql string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote == 0 && c == '`':
			c = '"'
		case quote != 0 && c == quote:
			quote = 0
		}
		b.WriteByte(c)
	}
	return b.String()
}

// rewriteDateArith rewrites fn(x, y) into (x op y), for every call of fn
// outside string literals (case-insensitive, nested calls included).
func rewriteDateArith(sql, fn, op string) string {
	for {
		i := findCall(sql, fn)
		if i < 0 {
			return sql
		}
		open := i + len(fn)
		for open < len(sql) && sql[open] != '(' {
			open++
		}
		comma, end := -1, -1
		depth := 0
		var quote byte
		for j := open; j < len(sql) && end < 0; j++ {
			c := sql[j]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '(':
				depth++
			case c == ')':
				depth--
				if depth == 0 {
					end = j
				}
			case c == ',' && depth == 1 && comma < 0:
				comma = j
			}
		}
		if comma < 0 || end < 0 {
			return sql // malformed; let DuckDB report it
		}
		sql = sql[:i] + "(" + sql[open+1:comma] + " " + op + sql[comma+1:end] + ")" + sql[end+1:]
	}
}

// findCall returns the index of the first fn( outside string literals that
// is not part of a longer identifier, or -1.
func findCall(sql, fn string) int {
	lower := strings.ToLower(sql)
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' || c == '`' {
			quote = c
			continue
		}
		if !strings.HasPrefix(lower[i:], fn) || (i > 0 && isIdent(sql[i-1])) {
			continue
		}
		j := i + len(fn)
		for j < len(sql) && (sql[j] == ' ' || sql[j] == '\t' || sql[j] == '\n') {
			j++
		}
		if j < len(sql) && sql[j] == '(' {
			return i
		}
	}
	return -1
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// SplitStatements splits a script on semicolons outside quotes and
// comments, dropping empty statements.
func SplitStatements(sql string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-', c == '#':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == ';':
			out = appendStmt(out, sql[start:i])
			start = i + 1
		}
	}
	return appendStmt(out, sql[start:])
}

func appendStmt(out []string, s string) []string {
	if strings.TrimSpace(stripComments(s)) != "" {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// stripComments removes -- and # line comments (outside quotes are not
// tracked here: it only decides whether a piece is empty).
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "--") || strings.HasPrefix(t, "#") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// IsQuery reports whether a statement returns rows.
func IsQuery(stmt string) bool {
	t := strings.ToLower(strings.TrimLeft(stripComments(stmt), " \t\n("))
	for _, kw := range []string{"select", "with", "values", "table", "show", "describe", "explain", "pragma"} {
		if strings.HasPrefix(t, kw) {
			return true
		}
	}
	return false
}
