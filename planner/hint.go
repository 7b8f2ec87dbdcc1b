package planner

import (
	"sort"
	"strconv"
	"strings"
)

// Hints for unknown names: the binder's "not found" errors end with the
// closest names in scope ("did you mean …"), by edit distance, so a typo
// is fixed at a glance in every client (CLI, Flight SQL).

// didYouMean returns ` (did you mean "a" or "b"?)` naming up to three
// candidates closest to name, or "" when none is close enough: within a
// third of the name's length (at least 1, at most 3) edits, case ignored.
func didYouMean(name string, candidates []string) string {
	name = strings.ToLower(name)
	limit := min(max(len(name)/3, 1), 3)
	type cand struct {
		s string
		d int
	}
	var best []cand
	seen := map[string]bool{}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if seen[lc] {
			continue
		}
		seen[lc] = true
		d := editDistance(name, lc)
		// A prefix or suffix typo ("orderkey" for "l_orderkey") also counts.
		if strings.HasSuffix(lc, "_"+name) {
			d = min(d, 1)
		}
		if d <= limit {
			best = append(best, cand{c, d})
		}
	}
	if len(best) == 0 {
		return ""
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].d < best[j].d })
	best = best[:min(len(best), 3)]
	q := make([]string, len(best))
	for i, c := range best {
		q[i] = strconv.Quote(c.s)
	}
	if len(q) == 1 {
		return " (did you mean " + q[0] + "?)"
	}
	return " (did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?)"
}

// editDistance is the optimal-string-alignment distance between a and b
// (bytes): insertions, deletions, substitutions and swaps of neighbours
// ("nmae" is one edit from "name").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// names are the column names visible in s and its outer scopes (hidden
// USING duplicates excluded).
func (s *scope) names() []string {
	var out []string
	for sc := s; sc != nil; sc = sc.outer {
		for _, c := range sc.cols {
			if !c.hidden {
				out = append(out, c.name)
			}
		}
	}
	return out
}
