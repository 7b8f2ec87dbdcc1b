package engine

import (
	"context"
	"os"
	"strings"
	"testing"

	"gq/catalog"
)

// TestJoinFilters checks where the planner lets a scan drop rows that a
// join above it cannot match, and that answers do not change: the
// filtered queries against DuckDB's results (TestTPCH runs them all), and
// joins that must keep unmatched probe rows (left, anti) against the same
// query written so that no filter applies.
func TestJoinFilters(t *testing.T) {
	dir := tpchData(t)
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{})
	defer e.Close()
	ctx := context.Background()
	q17, err := os.ReadFile("../testdata/tpch/queries/q17.sql")
	if err != nil {
		t.Fatal(err)
	}
	plan := explainText(t, e, "explain "+string(q17))
	if !strings.Contains(plan, "Scan lineitem cols=[l_partkey, l_quantity, l_extendedprice] jf#") {
		t.Errorf("q17: no join filter on the lineitem scan:\n%s", plan)
	}
	// Columns read only for the filter are not emitted (and the identity
	// projection above goes).
	q04, err := os.ReadFile("../testdata/tpch/queries/q04.sql")
	if err != nil {
		t.Fatal(err)
	}
	if plan := explainText(t, e, "explain "+string(q04)); !strings.Contains(plan, "Scan lineitem cols=[l_orderkey] (of 3 read)") ||
		strings.Contains(plan, "Project [l_orderkey]") {
		t.Errorf("q04: filter-only columns still emitted:\n%s", plan)
	}
	// A semi join that builds on the left filters the scan on its right.
	if !strings.Contains(planOf(t, e, "../testdata/tpch/queries/q04.sql"), "Scan lineitem cols=[l_orderkey] (of 3 read) filter=lt(l_commitdate, l_receiptdate) jf#") {
		t.Errorf("q04: no join filter on the lineitem scan under the left-built semi join")
	}
	// Outer and anti joins keep probe rows without a match: no filter.
	for _, sql := range []string{
		"explain select count(*) from orders left join customer on o_custkey = c_custkey and c_mktsegment = 'BUILDING'",
		"explain select count(*) from orders where o_custkey not in (select c_custkey from customer where c_mktsegment = 'BUILDING')",
	} {
		if plan := explainText(t, e, sql); strings.Contains(plan, "jf#") {
			t.Errorf("filter where unmatched rows must stay:\n%s", plan)
		}
	}
	// The same answers with and without filters.
	for _, pair := range [][2]string{
		{"select count(*), sum(o_totalprice) from orders join customer on o_custkey = c_custkey where c_mktsegment = 'BUILDING'",
			"select count(*), sum(o_totalprice) from orders where o_custkey in (select c_custkey from customer where c_mktsegment = 'BUILDING')"},
		{"select count(*) from lineitem join (select o_orderkey, count(*) n from orders where o_orderdate < date '1993-01-01' group by o_orderkey) o on l_orderkey = o_orderkey",
			"select count(*) from lineitem where l_orderkey in (select o_orderkey from orders where o_orderdate < date '1993-01-01')"},
		// Left-built semi, anti and left joins (the right side filtered:
		// checked below) against forms no filter can touch (+ 0 keys).
		{"select count(*) from orders where o_orderdate < date '1992-01-10' and exists (select * from lineitem where l_orderkey = o_orderkey and l_quantity > 45)",
			"select count(distinct o_orderkey) from orders, lineitem where l_orderkey + 0 = o_orderkey + 0 and l_quantity > 45 and o_orderdate < date '1992-01-10'"},
		{"select count(*) from orders where o_orderdate < date '1992-01-10' and not exists (select * from lineitem where l_orderkey = o_orderkey and l_quantity > 45)",
			"select count(*) - (select count(distinct o_orderkey) from orders, lineitem where l_orderkey + 0 = o_orderkey + 0 and l_quantity > 45 and o_orderdate < date '1992-01-10') from orders where o_orderdate < date '1992-01-10'"},
		{"select count(*), count(l_orderkey), sum(l_quantity) from (select * from orders where o_orderdate < date '1992-01-10') o left join (select * from lineitem where l_quantity > 45) l on l_orderkey = o_orderkey",
			"select count(*), count(l_orderkey), sum(l_quantity) from (select * from orders where o_orderdate < date '1992-01-10') o left join (select * from lineitem where l_quantity > 45) l on l_orderkey + 0 = o_orderkey + 0"},
	} {
		if p := explainText(t, e, "explain "+pair[0]); !strings.Contains(p, "jf#") {
			t.Errorf("no join filter:\n%s", p)
		}
		a, b := queryText(t, e, ctx, pair[0]), queryText(t, e, ctx, pair[1])
		if a != b {
			t.Errorf("%s\n= %s\nbut %s\n= %s", pair[0], a, pair[1], b)
		}
	}
}

func planOf(t *testing.T, e *Engine, file string) string {
	t.Helper()
	q, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return explainText(t, e, "explain "+string(q))
}

func explainText(t *testing.T, e *Engine, sql string) string {
	t.Helper()
	return queryText(t, e, context.Background(), sql)
}

func queryText(t *testing.T, e *Engine, ctx context.Context, sql string) string {
	t.Helper()
	res, err := e.Query(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Release()
	return strings.Join(resultLines(res), "\n")
}
