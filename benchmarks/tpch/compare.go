package tpch

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CompareCSV compares two query results in gq's canonical CSV format
// (header line, RFC 4180 quoting, NULL as an empty field) and returns nil
// when they agree, else an error naming the first difference.
//
// Headers must match case-insensitively and row counts exactly. Cells
// match when equal as text, or when both are numbers a and b with
// |a-b| <= max(1e-9*max(|a|,|b|), 1e-6, 0.5*10^-min(scaleA, scaleB)),
// scale being the digits after the point: an engine printing DOUBLE
// (2.5499999999999998) agrees with one printing DECIMAL (2.55), and
// "0.0500" with "0.05". An empty cell (NULL) matches only an empty cell.
//
// Rows are first compared as multisets. With ordered, they must then also
// agree position by position; rows whose ORDER BY keys tie may
// legitimately come in either order, so a caller comparing a query whose
// ORDER BY does not fix the order of all rows should pass ordered=false.
func CompareCSV(got, want []byte, ordered bool) error {
	g, err := readCSV(got)
	if err != nil {
		return fmt.Errorf("got: %w", err)
	}
	w, err := readCSV(want)
	if err != nil {
		return fmt.Errorf("want: %w", err)
	}
	if len(g) == 0 || len(w) == 0 {
		if len(g) != len(w) {
			return fmt.Errorf("got %d lines, want %d (a header is required)", len(g), len(w))
		}
		return nil
	}
	gh, wh := g[0], w[0]
	if len(gh) != len(wh) {
		return fmt.Errorf("got %d columns %v, want %d %v", len(gh), gh, len(wh), wh)
	}
	for i := range gh {
		if !strings.EqualFold(strings.TrimSpace(gh[i]), strings.TrimSpace(wh[i])) {
			return fmt.Errorf("column %d: got name %q, want %q", i+1, gh[i], wh[i])
		}
	}
	g, w = g[1:], w[1:]
	if len(g) != len(w) {
		return fmt.Errorf("got %d rows, want %d", len(g), len(w))
	}
	for i := range g {
		if len(g[i]) != len(wh) || len(w[i]) != len(wh) {
			return fmt.Errorf("row %d: got %d cells, want %d", i+1, len(g[i]), len(w[i]))
		}
	}
	if ordered {
		if r, c := firstDiff(g, w); r < 0 {
			return nil
		} else if err := compareMultiset(g, w, wh); err != nil {
			return err
		} else {
			return fmt.Errorf("rows agree as a multiset but not in order: row %d column %s: got %q, want %q",
				r+1, wh[c], g[r][c], w[r][c])
		}
	}
	return compareMultiset(g, w, wh)
}

func readCSV(b []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

// firstDiff returns the first row and column where g and w differ, or -1.
func firstDiff(g, w [][]string) (row, col int) {
	for i := range g {
		if c := rowDiff(g[i], w[i]); c >= 0 {
			return i, c
		}
	}
	return -1, -1
}

// rowDiff returns the first column where a and b differ, or -1.
func rowDiff(a, b []string) int {
	for c := range a {
		if !cellEqual(a[c], b[c]) {
			return c
		}
	}
	return -1
}

// compareMultiset matches every got row to a distinct equal want row.
// Rows are bucketed by their non-numeric cells (numbers match only within
// a tolerance, so they cannot be part of an exact key), then matched
// greedily within a bucket.
func compareMultiset(g, w [][]string, header []string) error {
	buckets := map[string][]int{}
	for i, row := range w {
		k := textKey(row)
		buckets[k] = append(buckets[k], i)
	}
	for i, row := range g {
		k := textKey(row)
		cands := buckets[k]
		found := -1
		for j, wi := range cands {
			if rowDiff(row, w[wi]) < 0 {
				found = j
				break
			}
		}
		if found < 0 {
			msg := fmt.Sprintf("got row %d %q has no match in want", i+1, row)
			if len(cands) > 0 {
				c := rowDiff(row, w[cands[0]])
				msg += fmt.Sprintf(" (nearest want row %d differs in column %s: %q)", cands[0]+1, header[c], w[cands[0]][c])
			}
			return fmt.Errorf("%s", msg)
		}
		buckets[k] = append(cands[:found], cands[found+1:]...)
	}
	return nil
}

func textKey(row []string) string {
	var b strings.Builder
	for _, c := range row {
		if _, _, ok := parseNum(c); !ok {
			b.WriteString(c)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// cellEqual reports whether two canonical CSV cells agree (see CompareCSV).
func cellEqual(a, b string) bool {
	if a == b {
		return true
	}
	x, sx, ok1 := parseNum(a)
	y, sy, ok2 := parseNum(b)
	if !ok1 || !ok2 {
		return false
	}
	tol := max(1e-9*max(math.Abs(x), math.Abs(y)), 1e-6, 0.5*math.Pow10(-min(sx, sy)))
	return math.Abs(x-y) <= tol
}

// parseNum parses a decimal or float cell, returning its value and scale
// (digits after the point, less any exponent). NaN/Inf are not numbers
// here, so they must match as text.
func parseNum(s string) (v float64, scale int, ok bool) {
	if s == "" || !(s[0] >= '0' && s[0] <= '9' || s[0] == '-' || s[0] == '+' || s[0] == '.') {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, 0, false
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		scale = len(mant) - i - 1
	}
	return v, scale - exp, true
}

// CompareCSVQuery is CompareCSV for the result of query sql, ordered by
// its last ORDER BY: where the rows agree as a multiset and each row's
// ORDER BY columns (result columns by name) equal the expected row's at
// the same position, the rows differ only in the order of ties, which SQL
// leaves to the engine. An ORDER BY item that is not a result column
// name leaves the comparison strict.
func CompareCSVQuery(got, want []byte, sql string) error {
	err := CompareCSV(got, want, true)
	if err == nil || !strings.HasPrefix(err.Error(), "rows agree as a multiset") {
		return err
	}
	g, gerr := readCSV(got)
	w, werr := readCSV(want)
	if gerr != nil || werr != nil || len(g) != len(w) || len(w) == 0 {
		return err
	}
	keys := orderKeys(sql, w[0])
	if keys == nil {
		return err
	}
	for i := 1; i < len(w); i++ {
		for _, k := range keys {
			if !cellEqual(g[i][k], w[i][k]) {
				return err
			}
		}
	}
	return nil
}

// orderKeys returns the result columns (by index in header) of sql's last
// ORDER BY, nil when there is none or an item is not a column name.
func orderKeys(sql string, header []string) []int {
	low := strings.ToLower(sql)
	at := strings.LastIndex(low, "order by")
	if at < 0 {
		return nil
	}
	clause := low[at+len("order by"):]
	if end := strings.Index(clause, "limit"); end >= 0 {
		clause = clause[:end]
	}
	clause = strings.TrimRight(strings.TrimSpace(clause), ";")
	var keys []int
	for _, item := range strings.Split(clause, ",") {
		f := strings.Fields(item)
		if len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "asc" && f[1] != "desc") || strings.ContainsAny(f[0], "()") {
			return nil
		}
		k := -1
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), f[0]) {
				k = i
			}
		}
		if k < 0 {
			return nil
		}
		keys = append(keys, k)
	}
	return keys
}
