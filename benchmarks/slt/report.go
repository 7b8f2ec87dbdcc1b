package slt

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Files is the file set issue 30 names, relative to a corpus directory
// laid out as the repository (test/...): select1–5, the first five files
// of random/aggregates, random/expr and random/groupby, and index/between/10.
var Files = func() []string {
	fs := []string{}
	for i := 1; i <= 5; i++ {
		fs = append(fs, fmt.Sprintf("test/select%d.test", i))
	}
	for _, d := range []string{"aggregates", "expr", "groupby"} {
		for i := 0; i < 5; i++ {
			fs = append(fs, fmt.Sprintf("test/random/%s/slt_good_%d.test", d, i))
		}
	}
	for i := 0; i < 6; i++ {
		fs = append(fs, fmt.Sprintf("test/index/between/10/slt_good_%d.test", i))
	}
	return fs
}()

// Totals sums file results.
func Totals(results []*FileResult) *FileResult {
	t := &FileResult{Name: "total", Refusals: map[string]int{}, ErrorReasons: map[string]int{}}
	for _, r := range results {
		t.Queries += r.Queries
		t.Pass += r.Pass
		t.Wrong += r.Wrong
		t.Refused += r.Refused
		t.Errors += r.Errors
		t.Skipped += r.Skipped
		t.Statements += r.Statements
		t.StatementsFailed += r.StatementsFailed
		t.StatementsSkipped += r.StatementsSkipped
		t.KeysDropped += r.KeysDropped
		t.IndexesSkipped += r.IndexesSkipped
		t.Elapsed += r.Elapsed
		for k, v := range r.Refusals {
			t.Refusals[k] += v
		}
		for k, v := range r.ErrorReasons {
			t.ErrorReasons[k] += v
		}
	}
	return t
}

func pct(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(d))
}

// WriteReport writes the Markdown report: totals per file, the refusals
// and errors by reason, and the kept examples of wrong answers.
func WriteReport(w io.Writer, results []*FileResult, absent []string, header string) {
	t := Totals(results)
	fmt.Fprintf(w, "# SQLite sqllogictest, mysql dialect\n\n%s\n\n", header)
	fmt.Fprintf(w, "**%d queries run: %d pass (%s), %d wrong, %d refused, %d errors**; %d skipped by skipif/onlyif mysql.\n\n",
		t.Queries, t.Pass, pct(t.Pass, t.Queries), t.Wrong, t.Refused, t.Errors, t.Skipped)
	fmt.Fprintf(w, "Tables are created and filled through gq (CREATE TABLE, INSERT): %d statements run, %d failed; "+
		"PRIMARY KEY dropped from %d CREATE TABLE statements and %d CREATE/DROP INDEX statements skipped (gq keeps no keys or indexes; neither changes an answer).\n\n",
		t.Statements, t.StatementsFailed, t.KeysDropped, t.IndexesSkipped)
	if len(absent) > 0 {
		fmt.Fprintf(w, "Not in the corpus directory, so not run: %s.\n\n", strings.Join(absent, ", "))
	}
	fmt.Fprintf(w, "| file | queries | pass | wrong | refused | error | pass %% | skipped | seconds |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range append(append([]*FileResult{}, results...), t) {
		name := r.Name
		if r == t {
			name = "**total**"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s | %d | %.1f |\n",
			name, r.Queries, r.Pass, r.Wrong, r.Refused, r.Errors, pct(r.Pass, r.Queries), r.Skipped, r.Elapsed.Seconds())
	}
	writeReasons(w, "Refusals by reason", "refused (errors of kind unsupported)", t.Refusals)
	writeReasons(w, "Errors by reason", "errors of other kinds, and failed statements", t.ErrorReasons)
	groupBy := 0
	for k, v := range t.ErrorReasons {
		if strings.Contains(k, "must appear in GROUP BY") {
			groupBy += v
		}
	}
	if groupBy > 0 {
		// The corpus's expected answers come from SQLite and from MySQL
		// before 5.7.5, which pick an arbitrary row's value for a column
		// neither grouped nor aggregated; MySQL 8 rejects such queries by
		// default (ONLY_FULL_GROUP_BY), as gq does.
		fmt.Fprintf(w, "\n%d of these errors are gq rejecting a column that is neither grouped nor aggregated "+
			"(often inside COALESCE(constant, column)), as MySQL 8 does by default (sql_mode ONLY_FULL_GROUP_BY); "+
			"the corpus's answers come from engines that pick any row's value.\n", groupBy)
	}
	var wrongs []string
	for _, r := range results {
		for _, ex := range r.Wrongs {
			wrongs = append(wrongs, fmt.Sprintf("- %s:%d\n\n```sql\n%s\n```\n\n%s got: `%s`  \nexpected: `%s`\n",
				r.Name, ex.Line, ex.SQL, ex.Err, short(ex.Got), short(ex.Want)))
		}
	}
	if len(wrongs) > 0 {
		fmt.Fprintf(w, "\n## Wrong answers (first of each file)\n\n%s", strings.Join(wrongs, "\n"))
	}
}

func short(vals []string) string {
	if len(vals) > 12 {
		return strings.Join(vals[:12], " ") + fmt.Sprintf(" … (%d values)", len(vals))
	}
	return strings.Join(vals, " ")
}

func writeReasons(w io.Writer, title, what string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range m {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(a, b int) bool {
		if l[a].v != l[b].v {
			return l[a].v > l[b].v
		}
		return l[a].k < l[b].k
	})
	fmt.Fprintf(w, "\n## %s\n\n| %s | count |\n|---|--:|\n", title, what)
	for _, e := range l {
		fmt.Fprintf(w, "| %s | %d |\n", strings.ReplaceAll(e.k, "|", `\|`), e.v)
	}
}

// Summary is a one-line tally for a terminal.
func Summary(r *FileResult) string {
	return fmt.Sprintf("%-40s %6d queries %6d pass %4d wrong %5d refused %4d error %6d skipped %s",
		r.Name, r.Queries, r.Pass, r.Wrong, r.Refused, r.Errors, r.Skipped, r.Elapsed.Round(time.Millisecond))
}
