package physical

import (
	"strings"
	"testing"

	"gq/parser/sqlparser"

	"gq/planner"
)

func lowerSQL(t *testing.T, sql string) string {
	t.Helper()
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := planner.Bind(tpchCatalog(t), stmt)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := planner.Optimize(bound)
	if err != nil {
		t.Fatal(err)
	}
	node, err := Lower(opt)
	if err != nil {
		t.Fatal(err)
	}
	return Explain(ShareCommonSubplans(node))
}

func TestShareCommonSubplans(t *testing.T) {
	const cte = "with r (k, total) as (select l_suppkey, sum(l_quantity) from lineitem where l_shipdate >= date '1996-01-01' group by l_suppkey) "
	cases := []struct {
		name, sql   string
		materialize int
	}{
		{"same CTE twice", cte + "select k from r where total = (select max(total) from r)", 1},
		{"self join", cte + "select a.k from r a join r b on a.k = b.k + 1", 1},
		// One reference needs only the keys: column pruning makes the copies differ.
		{"different filters", cte + "select a.k from r a join r b on a.k = b.k + 1 where a.total > 10", 0},
		{"no repeat", cte + "select k from r", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := lowerSQL(t, tc.sql)
			if got := strings.Count(text, "Materialize cte#"); got != tc.materialize {
				t.Errorf("%d materialised subplans, want %d:\n%s", got, tc.materialize, text)
			}
			if tc.materialize > 0 && !strings.Contains(text, "(computed above)") {
				t.Errorf("no reuse shown:\n%s", text)
			}
		})
	}
}
