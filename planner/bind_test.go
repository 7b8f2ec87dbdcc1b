package planner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
)

// fakeTable is a schema-only table.
type fakeTable struct {
	name   string
	schema *arrow.Schema
}

func (f *fakeTable) Name() string          { return f.name }
func (f *fakeTable) Schema() *arrow.Schema { return f.schema }
func (f *fakeTable) Stats() catalog.Stats  { return catalog.Stats{RowCount: -1} }
func (f *fakeTable) NumSplits() int        { return 1 }
func (f *fakeTable) Read(context.Context, int, []int, int, memory.Allocator, func(arrow.RecordBatch) error) error {
	return nil
}

// tpchCatalog has the TPC-H tables: *key → Int64, money → Decimal(15,2),
// dates → Date, the rest String.
func tpchCatalog(t testing.TB) *catalog.Catalog {
	tables := map[string]string{
		"nation":   "n_nationkey i, n_name s, n_regionkey i, n_comment s",
		"region":   "r_regionkey i, r_name s, r_comment s",
		"part":     "p_partkey i, p_name s, p_mfgr s, p_brand s, p_type s, p_size i, p_container s, p_retailprice d, p_comment s",
		"supplier": "s_suppkey i, s_name s, s_address s, s_nationkey i, s_phone s, s_acctbal d, s_comment s",
		"partsupp": "ps_partkey i, ps_suppkey i, ps_availqty i, ps_supplycost d, ps_comment s",
		"customer": "c_custkey i, c_name s, c_address s, c_nationkey i, c_phone s, c_acctbal d, c_mktsegment s, c_comment s",
		"orders":   "o_orderkey i, o_custkey i, o_orderstatus s, o_totalprice d, o_orderdate t, o_orderpriority s, o_clerk s, o_shippriority i, o_comment s",
		"lineitem": "l_orderkey i, l_partkey i, l_suppkey i, l_linenumber i, l_quantity d, l_extendedprice d, l_discount d, l_tax d, l_returnflag s, l_linestatus s, l_shipdate t, l_commitdate t, l_receiptdate t, l_shipinstruct s, l_shipmode s, l_comment s",
	}
	types := map[string]arrow.DataType{"i": expr.Int64, "s": expr.String, "d": expr.Decimal(15, 2), "t": expr.Date}
	cat := catalog.New()
	for name, spec := range tables {
		var fields []arrow.Field
		for _, f := range strings.Split(spec, ", ") {
			n, ty, _ := strings.Cut(f, " ")
			fields = append(fields, arrow.Field{Name: n, Type: types[ty], Nullable: false})
		}
		if err := cat.Register(&fakeTable{name: name, schema: arrow.NewSchema(fields, nil)}, false); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

func bindSQL(cat *catalog.Catalog, sql string) (Plan, error) {
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		return nil, err
	}
	st, err := p.Parse(sql)
	if err != nil {
		return nil, err
	}
	return Bind(cat, st)
}

// checkPlan verifies that every expression refers only to its node's input
// columns and uses only catalogue functions.
func checkPlan(t *testing.T, p Plan) {
	t.Helper()
	in := map[ColumnID]bool{}
	for _, c := range p.Inputs() {
		checkPlan(t, c)
		for _, col := range c.Columns() {
			in[col.ID] = true
		}
	}
	var es []Expr
	switch n := p.(type) {
	case *Filter:
		es = append(es, n.Cond)
	case *Project:
		es = append(es, n.Exprs...)
	case *Aggregate:
		es = append(es, n.GroupBy...)
		for _, a := range n.Aggs {
			if a.Arg != nil {
				es = append(es, a.Arg)
			}
		}
	case *Join:
		if n.Cond != nil {
			es = append(es, n.Cond)
		}
	case *Sort:
		for _, k := range n.Keys {
			es = append(es, k.Expr)
		}
	case *Window:
		es = append(es, n.PartitionBy...)
		for _, k := range n.OrderBy {
			es = append(es, k.Expr)
		}
		for _, f := range n.Funcs {
			es = append(es, f.Args...)
		}
	}
	for _, e := range es {
		if !within(e, in) {
			t.Errorf("%T: %s refers to a column not in its input\n%s", p, e, tree(p))
		}
		checkFuncs(t, e)
	}
}

func checkFuncs(t *testing.T, e Expr) {
	if f, ok := e.(*Func); ok {
		if !slices.Contains(expr.Functions, f.Name) {
			t.Errorf("unknown function %s", f.Name)
		}
		for _, a := range f.Args {
			checkFuncs(t, a)
		}
	}
}

// tree prints a plan as an indented tree, for failures.
func tree(p Plan) string {
	var sb strings.Builder
	var walk func(p Plan, depth int)
	walk = func(p Plan, depth int) {
		fmt.Fprintf(&sb, "%s%T", strings.Repeat("  ", depth), p)
		switch n := p.(type) {
		case *Scan:
			fmt.Fprintf(&sb, " %s", n.Alias)
		case *Filter:
			fmt.Fprintf(&sb, " %s", n.Cond)
		case *Project:
			fmt.Fprintf(&sb, " %v", n.Exprs)
		case *Aggregate:
			fmt.Fprintf(&sb, " by %v aggs %v", n.GroupBy, n.Aggs)
		case *Join:
			fmt.Fprintf(&sb, " %s on %v", n.Type, n.Cond)
		case *Sort:
			fmt.Fprintf(&sb, " %v", n.Keys)
		}
		fmt.Fprintf(&sb, " → %s\n", colsString(p.Columns()))
		for _, c := range p.Inputs() {
			walk(c, depth+1)
		}
	}
	walk(p, 0)
	return sb.String()
}

func colsString(cols []Column) string {
	var s []string
	for _, c := range cols {
		s = append(s, fmt.Sprintf("%s#%d:%s", c.Name, c.ID, expr.TypeName(c.Type)))
	}
	return strings.Join(s, ", ")
}

func header(p Plan) string {
	var s []string
	for _, c := range p.Columns() {
		s = append(s, c.Name+" "+expr.TypeName(c.Type))
	}
	return strings.Join(s, ", ")
}

func TestBindTPCH(t *testing.T) {
	cat := tpchCatalog(t)
	want := map[int]string{
		1:  "l_returnflag VARCHAR, l_linestatus VARCHAR, sum_qty DECIMAL(38,2), sum_base_price DECIMAL(38,2), sum_disc_price DECIMAL(38,4), sum_charge DECIMAL(38,6), avg_qty DECIMAL(38,6), avg_price DECIMAL(38,6), avg_disc DECIMAL(38,6), count_order BIGINT",
		3:  "l_orderkey BIGINT, revenue DECIMAL(38,4), o_orderdate DATE, o_shippriority BIGINT",
		4:  "o_orderpriority VARCHAR, order_count BIGINT",
		6:  "revenue DECIMAL(38,4)",
		7:  "supp_nation VARCHAR, cust_nation VARCHAR, l_year BIGINT, revenue DECIMAL(38,4)",
		13: "c_count BIGINT, custdist BIGINT",
		15: "s_suppkey BIGINT, s_name VARCHAR, s_address VARCHAR, s_phone VARCHAR, total_revenue DECIMAL(38,4)",
		16: "p_brand VARCHAR, p_type VARCHAR, p_size BIGINT, supplier_cnt BIGINT",
		18: "c_name VARCHAR, c_custkey BIGINT, o_orderkey BIGINT, o_orderdate DATE, o_totalprice DECIMAL(15,2), sum(l_quantity) DECIMAL(38,2)",
		20: "s_name VARCHAR, s_address VARCHAR",
		21: "s_name VARCHAR, numwait BIGINT",
		22: "cntrycode VARCHAR, numcust BIGINT, totacctbal DECIMAL(38,2)",
	}
	for q := 1; q <= 22; q++ {
		t.Run(fmt.Sprintf("q%02d", q), func(t *testing.T) {
			p, err := bindSQL(cat, tpchQueries[q])
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, p)
			if w, ok := want[q]; ok && header(p) != w {
				t.Errorf("header\n got %s\nwant %s", header(p), w)
			}
			if testing.Verbose() {
				t.Log("\n" + tree(p))
			}
		})
	}
}

func TestBindErrors(t *testing.T) {
	cat := tpchCatalog(t)
	cases := []struct {
		sql  string
		kind *errs.Kind
		msg  string
	}{
		{"select nope from nation", errs.Binding, `column "nope" not found`},
		{"select n_name from nowhere", errs.Binding, `table "nowhere" not found`},
		{"select n_nationkey from nation a, nation b", errs.Binding, "ambiguous"},
		{"select * from nation, region, nation", errs.Binding, "used twice"},
		{"select * from nation n join region n on 1 = 1", errs.Binding, "used twice"},
		{"select x.n_name from nation a", errs.Binding, "not found"},
		{"select 'abc' + o_orderdate from orders", errs.Binding, "VARCHAR and DATE"},
		{"select sum(n_name) from nation", errs.Binding, "sum() of VARCHAR"},
		{"select n_name, count(*) from nation", errs.Binding, "GROUP BY"},
		{"select n_name, n_regionkey from nation group by n_regionkey", errs.Binding, "GROUP BY"},
		{"select frobnicate(n_name) from nation", errs.Unsupported, "function frobnicate is not supported"},
		{"select * from orders where o_orderdate < '1995-13-45'", errs.Binding, "invalid date"},
		{"select * from nation where n_nationkey = 1 or exists (select r_regionkey from region where r_regionkey < n_nationkey union select 1)", errs.Unsupported, "correlated UNION"},
		{"select n_name from nation union select r_name, r_regionkey from region", errs.Binding, "numbers of columns"},
		{"select n_name from nation where count(*) > 1", errs.Binding, "not allowed"},
		{"select sum(n_nationkey) over (order by n_name range 2 preceding) from nation", errs.Binding, "number or DATE"},
		{"select sum(n_nationkey) over (order by n_name rows between 1 following and current row) from nation", errs.Binding, "cannot end"},
		{"select n_name from nation order by 5", errs.Binding, "position"},
		{"select (select r_name, r_regionkey from region) from nation", errs.Binding, "one column"},
		{"select n_name from nation limit -1", errs.Syntax, ""},
		{"select n_name from nation where n_regionkey = (select max(r_regionkey) from region where r_regionkey < n_nationkey limit 1)", errs.Unsupported, "LIMIT in a correlated"},
		{"select n_name from nation where exists (select * from region where exists (select * from orders where o_custkey = n_nationkey))", errs.Unsupported, "more than one"},
		{"select (select n_name) from nation", errs.Unsupported, "outside WHERE"},
		{"select n_name from nation where n_name in (select r_name, r_comment from region)", errs.Binding, "one column"},
		{"select o_orderdate + interval o_orderkey hour from orders", errs.Unsupported, "constant"},
		{"select o_orderdate + interval 1 day_hour from orders", errs.Unsupported, "unit"},
		{"select timestamp '2024-13-01 00:00:00'", errs.Binding, "2024-13-01"},
		{"select o_orderdate - timestamp '2024-01-01' - 1 from orders", errs.Binding, "INTERVAL and BIGINT"},
		{"select n_name from nation n join region r using (nope)", errs.Binding, "not found"},
		{"with recursive r as (select * from r) select * from r", errs.Binding, "non-recursive-term UNION"},
		{"select n_name from `data/does/not/exist.parquet`", errs.IO, ""},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			_, err := bindSQL(cat, c.sql)
			if err == nil {
				t.Fatalf("no error")
			}
			if c.kind == errs.Syntax {
				return // the parser's error; only checks it fails
			}
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want %v containing %q", err, c.kind, c.msg)
			}
		})
	}
}

func TestBindShapes(t *testing.T) {
	cat := tpchCatalog(t)
	if err := cat.CreateView(&catalog.View{Name: "v_nat", Columns: []string{"k", "nm"}, SQL: "select n_nationkey, n_name from nation where n_regionkey = 1"}, false); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		sql    string
		header string   // output columns
		has    []string // substrings of the plan tree
	}{
		{"select 1, 0.05, 1e3, 'x', null, true, date '2020-02-29', -2.50",
			"1 BIGINT, 0.05 DECIMAL(2,2), 1e3 DOUBLE, 'x' VARCHAR, null NULL, true BOOLEAN, date'2020-02-29' DATE, -2.50 DECIMAL(3,2)", []string{"*planner.Values"}},
		{"select n_nationkey / 2, n_nationkey div 2, n_nationkey % 3, l_quantity / l_discount, l_quantity * l_tax, l_quantity + 1, 1.5e0 * l_tax from nation, lineitem",
			"n_nationkey / 2 DECIMAL(23,4), n_nationkey div 2 BIGINT, n_nationkey % 3 BIGINT, l_quantity / l_discount DECIMAL(21,6), l_quantity * l_tax DECIMAL(30,4), l_quantity + 1 DECIMAL(16,2), 1.5e0 * l_tax DOUBLE", nil},
		{"select o_orderdate + interval 1 month as a, date_sub(o_orderdate, interval 2 week) as b, adddate(o_orderdate, 3) as c, date '2024-01-31' + interval '1' month as d from orders",
			"a DATE, b DATE, c DATE, d DATE", []string{"date_add_months(o_orderdate", "date_add_days(o_orderdate#", ", -14)", "DATE '2024-02-29'"}},
		{"select year(o_orderdate) y, extract(month from o_orderdate) m, quarter(o_orderdate) q from orders where o_orderdate > '1995-01-01'",
			"y BIGINT, m BIGINT, q BIGINT", []string{"gt(o_orderdate", "DATE '1995-01-01'", "extract_quarter"}},
		{"select n_name from nation where n_nationkey in (1, 2) and n_regionkey not in (1.5) and n_name like 'A%' and n_comment is not null and n_nationkey between 1 and 3",
			"n_name VARCHAR", []string{"in(n_nationkey", "ne(cast(n_regionkey", "like(", "is_not_null(", "ge(n_nationkey", "le(n_nationkey"}},
		{"select case when n_nationkey > 1 then 1 else 2.5 end as c, case n_name when 'A' then 'x' end as d, coalesce(n_comment, 'none') e, nullif(n_nationkey, 0) f, if(n_nationkey > 2, n_name, null) g, ifnull(null, 3) h from nation",
			"c DECIMAL(2,1), d VARCHAR, e VARCHAR, f BIGINT, g VARCHAR, h BIGINT", []string{"case(gt(n_nationkey"}},
		{"select cast(n_nationkey as decimal(10,2)) a, cast(n_name as signed) b, cast('2020-01-01' as date) c, cast(n_nationkey as char) d, round(l_tax, 1) e, floor(l_tax) f, sqrt(n_nationkey) g, upper(n_name) h, length(n_name) i, concat(n_name, '-', n_nationkey) j, substring(n_name, 2) k, trim(n_name) l, abs(l_tax) m from nation, lineitem",
			"a DECIMAL(10,2), b BIGINT, c DATE, d VARCHAR, e DECIMAL(15,1), f DECIMAL(14,0), g DOUBLE, h VARCHAR, i BIGINT, j VARCHAR, k VARCHAR, l VARCHAR, m DECIMAL(15,2)", nil},
		{"select distinct n_regionkey from nation order by n_regionkey desc limit 2, 3",
			"n_regionkey BIGINT", []string{"*planner.Limit", "*planner.Aggregate by [n_regionkey"}},
		{"select n_name from nation order by n_comment limit 5 offset 1",
			"n_name VARCHAR", []string{"Project [n_name#", "n_comment#"}},
		{"select n_regionkey r, count(*) from nation group by r having count(*) > 1 order by 2",
			"r BIGINT, count(*) BIGINT", []string{"gt(count(*)#"}},
		{"select n_regionkey, count(*) c from nation group by 1 having c > 1 and sum(n_nationkey) > 3",
			"n_regionkey BIGINT, c BIGINT", []string{"sum false n_nationkey"}},
		{"select count(distinct n_regionkey), min(n_name), max(l_shipdate), avg(n_nationkey), sum(1e0) from nation, lineitem",
			"count(distinct n_regionkey) BIGINT, min(n_name) VARCHAR, max(l_shipdate) DATE, avg(n_nationkey) DECIMAL(38,4), sum(1e0) DOUBLE", []string{"count true"}},
		{"select n_name, row_number() over (partition by n_regionkey order by n_name) rn, sum(n_nationkey) over (partition by n_regionkey order by n_name) s, rank() over (order by n_nationkey desc) rk from nation",
			"n_name VARCHAR, rn BIGINT, s DECIMAL(38,0), rk BIGINT", []string{"*planner.Window"}},
		{"select n_name from nation union select r_name from region order by 1 limit 3",
			"n_name VARCHAR", []string{"*planner.Union", "*planner.Aggregate"}},
		{"select n_nationkey from nation union all select l_tax from lineitem",
			"n_nationkey DECIMAL(21,2)", []string{"cast(n_nationkey"}},
		{"with a as (select n_name x from nation), b as (select x from a) select * from b, a a2 where b.x = a2.x",
			"x VARCHAR, x VARCHAR", nil},
		{"select * from v_nat where k > 1", "k BIGINT, nm VARCHAR", []string{"eq(n_regionkey"}},
		{"select r.*, n_name from nation n right join region r on n.n_regionkey = r.r_regionkey",
			"r_regionkey BIGINT, r_name VARCHAR, r_comment VARCHAR, n_name VARCHAR", []string{"left on eq(n_regionkey"}},
		{"select * from nation join region on n_regionkey = r_regionkey", "n_nationkey BIGINT, n_name VARCHAR, n_regionkey BIGINT, n_comment VARCHAR, r_regionkey BIGINT, r_name VARCHAR, r_comment VARCHAR", []string{"inner on eq("}},
		{"select n_name, (select count(*) from region where r_regionkey = n_regionkey) c from nation",
			"n_name VARCHAR, c BIGINT", []string{"coalesce(", "single on eq("}},
		{"select n_name, (select max(r_name) from region) m from nation", "n_name VARCHAR, m VARCHAR", []string{"single on <nil>"}},
		{"select n_name from nation where n_nationkey not in (select r_regionkey from region)", "n_name VARCHAR", []string{"anti on eq("}},
		{"select x.a from (select n_name a from nation) x where x.a like 'B%'", "a VARCHAR", nil},
		{"select upper(n_name) from nation group by upper(n_name)", "upper(n_name) VARCHAR", nil},
		{"select n_name, (select r_name from region where r_regionkey = n_regionkey) r from nation", "n_name VARCHAR, r VARCHAR", []string{"single on eq(r_regionkey"}},
		{"select n_name from nation where n_name in (select r_name from region where r_regionkey = n_regionkey)", "n_name VARCHAR", []string{"semi on and(eq(n_name"}},
		{"select (select count(*) from nation) c", "c BIGINT", []string{"single on <nil>", "*planner.Values"}},
		{"select * from (select 1 a) x natural join (select 1 a, 2 b) y", "a BIGINT, b BIGINT", []string{"inner on eq("}},
		{"select n_regionkey from nation group by n_regionkey order by count(*) desc", "n_regionkey BIGINT", []string{"Sort", "count_star"}},
		{"select o_orderkey from orders where o_orderdate in ('1995-01-01', '1995-01-02')", "o_orderkey BIGINT", []string{"in(o_orderdate#", "DATE '1995-01-02'"}},
		{"select n_name x from nation having x = 'A'", "x VARCHAR", []string{"eq(n_name"}},
		{"select n_name from nation where not (n_nationkey in (select r_regionkey from region))", "n_name VARCHAR", []string{"anti on"}},
		{"select * from nation n1 join nation n2 using (n_nationkey) where n_nationkey > 1", "n_nationkey BIGINT, n_name VARCHAR, n_regionkey BIGINT, n_comment VARCHAR, n_name VARCHAR, n_regionkey BIGINT, n_comment VARCHAR", []string{"inner on eq(n_nationkey"}},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			p, err := bindSQL(cat, c.sql)
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, p)
			if header(p) != c.header {
				t.Errorf("header\n got %s\nwant %s", header(p), c.header)
			}
			tr := tree(p)
			for _, h := range c.has {
				if !strings.Contains(tr, h) {
					t.Errorf("plan lacks %q:\n%s", h, tr)
				}
			}
		})
	}
}
