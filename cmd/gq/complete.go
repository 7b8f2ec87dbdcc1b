package main

import (
	"sort"
	"strings"
	"unicode"
)

// sqlKeywords are the words Tab completes besides names.
var sqlKeywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET AS AND OR NOT
IN IS NULL LIKE BETWEEN CASE WHEN THEN ELSE END JOIN INNER LEFT RIGHT OUTER CROSS ON USING
UNION ALL DISTINCT EXISTS WITH ASC DESC CAST INTERVAL DATE EXTRACT SUBSTRING COUNT SUM AVG MIN MAX
OVER PARTITION CREATE TABLE VIEW DROP REPLACE IF EXPLAIN ANALYZE SHOW TABLES COLUMNS DESCRIBE
TRUE FALSE`)

// completer offers dot commands at the start of a line, and SQL keywords,
// table names and column names elsewhere (columns of every table: the
// statement may not name its tables yet).
type completer struct{ sh *shell }

// Do implements readline.AutoCompleter: the candidates' remaining text
// after the word being typed, and that word's length.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && (isWordRune(line[start-1]) || line[start-1] == '.') {
		start--
	}
	word := string(line[start:pos])
	if strings.HasPrefix(word, ".") && strings.TrimSpace(string(line[:start])) == "" {
		var out [][]rune
		for _, d := range dotCommands {
			if strings.HasPrefix(d.name, word) {
				out = append(out, []rune(d.name[len(word):]+" "))
			}
		}
		return out, len([]rune(word))
	}
	// After "t." complete t's columns only.
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		word = word[i+1:]
	}
	if word == "" {
		return nil, 0
	}
	seen := map[string]bool{}
	var cands []string
	add := func(s string) {
		if !seen[s] && len(s) > len(word) && strings.HasPrefix(strings.ToLower(s), strings.ToLower(word)) {
			seen[s] = true
			cands = append(cands, s)
		}
	}
	cat := c.sh.eng.Catalog()
	for _, n := range cat.Names() {
		add(n)
		if t, ok := cat.Table(n); ok {
			for _, f := range t.Schema().Fields() {
				add(f.Name)
			}
		}
	}
	upper := strings.ToUpper(word) == word && strings.ToLower(word) != word
	for _, k := range sqlKeywords {
		if !upper {
			k = strings.ToLower(k)
		}
		add(k)
	}
	sort.Strings(cands)
	out := make([][]rune, len(cands))
	for i, s := range cands {
		// Keep what was typed; complete with the candidate's rest.
		out[i] = []rune(s[len(word):])
	}
	return out, len([]rune(word))
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
