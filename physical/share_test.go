package physical

import (
	"strings"
	"testing"

	"gq/catalog"
	"gq/exec"
	"gq/parser/sqlparser"

	"gq/planner"
)

func lowerSQL(t *testing.T, sql string) string {
	t.Helper()
	return Explain(ShareCommonSubplans(lowerNode(t, tpchCatalog(t), sql)))
}

// lowerNode returns sql's lowered plan over cat.
func lowerNode(t *testing.T, cat *catalog.Catalog, sql string) exec.Node {
	t.Helper()
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := planner.Bind(cat, stmt)
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
	return node
}

// TestFingerprintsTellPlansApart: plans lowered from one statement twice
// have equal fingerprints, on one process and across ranks; a plan that
// differs only in a constant, a join type or a sort direction has
// another. Tables are told apart by identity on one process only.
func TestFingerprintsTellPlansApart(t *testing.T) {
	const base = "select o_orderkey, c_name from orders join customer on o_custkey = c_custkey where o_totalprice > 1000 order by o_orderkey"
	variants := map[string]string{
		"constant":       "select o_orderkey, c_name from orders join customer on o_custkey = c_custkey where o_totalprice > 1001 order by o_orderkey",
		"join type":      "select o_orderkey, c_name from orders left join customer on o_custkey = c_custkey where o_totalprice > 1000 order by o_orderkey",
		"sort direction": "select o_orderkey, c_name from orders join customer on o_custkey = c_custkey where o_totalprice > 1000 order by o_orderkey desc",
	}
	cat := tpchCatalog(t)
	for _, local := range []bool{true, false} {
		key := func(sql string) string {
			k, ok := exec.NewFingerprints(local).Of(lowerNode(t, cat, sql))
			if !ok {
				t.Fatalf("no fingerprint for %q", sql)
			}
			return k
		}
		want := key(base)
		if got := key(base); got != want {
			t.Errorf("local=%v: one statement lowered twice: fingerprints differ:\n%s\n%s", local, want, got)
		}
		for name, sql := range variants {
			if key(sql) == want {
				t.Errorf("local=%v: %s changed, fingerprint did not: %s", local, name, want)
			}
		}
		// Another catalog's tables of the same names: another rank's.
		other, _ := exec.NewFingerprints(local).Of(lowerNode(t, tpchCatalog(t), base))
		if (other == want) == local {
			t.Errorf("local=%v: the same statement over another catalog: equal fingerprints %v", local, other == want)
		}
	}
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
