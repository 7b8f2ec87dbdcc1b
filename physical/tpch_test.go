package physical

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/exec"
	"gq/expr"
	"gq/planner"
)

// tpchTables are the TPC-H schemas (I Int64, D Decimal(15,2), T Date,
// S String) with scale factor 1 row counts.
var tpchTables = []struct {
	name string
	rows int64
	cols string
}{
	{"region", 5, "r_regionkey:I r_name:S r_comment:S"},
	{"nation", 25, "n_nationkey:I n_name:S n_regionkey:I n_comment:S"},
	{"supplier", 10000, "s_suppkey:I s_name:S s_address:S s_nationkey:I s_phone:S s_acctbal:D s_comment:S"},
	{"customer", 150000, "c_custkey:I c_name:S c_address:S c_nationkey:I c_phone:S c_acctbal:D c_mktsegment:S c_comment:S"},
	{"part", 200000, "p_partkey:I p_name:S p_mfgr:S p_brand:S p_type:S p_size:I p_container:S p_retailprice:D p_comment:S"},
	{"partsupp", 800000, "ps_partkey:I ps_suppkey:I ps_availqty:I ps_supplycost:D ps_comment:S"},
	{"orders", 1500000, "o_orderkey:I o_custkey:I o_orderstatus:S o_totalprice:D o_orderdate:T o_orderpriority:S o_clerk:S o_shippriority:I o_comment:S"},
	{"lineitem", 6001215, "l_orderkey:I l_partkey:I l_suppkey:I l_linenumber:I l_quantity:D l_extendedprice:D l_discount:D l_tax:D " +
		"l_returnflag:S l_linestatus:S l_shipdate:T l_commitdate:T l_receiptdate:T l_shipinstruct:S l_shipmode:S l_comment:S"},
}

func tpchCatalog(t *testing.T) *catalog.Catalog {
	cat := catalog.New()
	types := map[string]arrow.DataType{"I": expr.Int64, "D": expr.Decimal(15, 2), "T": expr.Date, "S": expr.String}
	for _, tt := range tpchTables {
		var fields []arrow.Field
		for _, c := range strings.Fields(tt.cols) {
			name, typ, _ := strings.Cut(c, ":")
			fields = append(fields, arrow.Field{Name: name, Type: types[typ]})
		}
		if err := cat.Register(&tTable{name: tt.name, schema: arrow.NewSchema(fields, nil), rows: tt.rows}, false); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

// TestTPCHPlans binds, optimises and lowers every TPC-H query and checks
// that no cross product remains (nested loops only for scalar-subquery
// single joins) and that scans read only columns something uses.
func TestTPCHPlans(t *testing.T) {
	dir := os.Getenv("GQ_TPCH_QUERIES")
	if dir == "" {
		dir = filepath.Join("..", "testdata", "tpch", "queries")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sql"))
	if len(files) == 0 {
		t.Skipf("no TPC-H queries in %s", dir)
	}
	sort.Strings(files)
	cat := tpchCatalog(t)
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".sql"), func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pieces, err := parser.SplitStatementToPieces(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if len(pieces) != 1 {
				t.Skipf("%d statements (a view?): only single queries are checked", len(pieces))
			}
			stmt, err := parser.Parse(pieces[0])
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
			before, after := bound.Columns(), opt.Columns()
			if len(before) != len(after) {
				t.Fatalf("optimising changed the output from %d to %d columns", len(before), len(after))
			}
			for i := range before {
				if before[i].ID != after[i].ID || before[i].Name != after[i].Name {
					t.Errorf("output column %d changed: %s → %s", i, before[i].Name, after[i].Name)
				}
			}
			node, err := Lower(opt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", Explain(node))
			checkNoCrossProducts(t, node)
			checkScansNeeded(t, opt)
		})
	}
}

func checkNoCrossProducts(t *testing.T, n exec.Node) {
	if nl, ok := n.(*exec.NestedLoopJoin); ok && nl.Type != expr.JoinSingle {
		t.Errorf("nested loop join left: %s", Describe(nl))
	}
	for _, c := range n.Children() {
		checkNoCrossProducts(t, c)
	}
}

// checkScansNeeded fails for a scan column no expression above reads,
// unless it is the single column kept for a row count.
func checkScansNeeded(t *testing.T, p planner.Plan) {
	used := map[planner.ColumnID]bool{}
	for _, c := range p.Columns() {
		used[c.ID] = true
	}
	var scans []*planner.Scan
	var walk func(planner.Plan)
	walk = func(p planner.Plan) {
		for _, e := range nodeExprs(p) {
			for _, id := range planner.ColumnsOf(e) {
				used[id] = true
			}
		}
		if s, ok := p.(*planner.Scan); ok {
			scans = append(scans, s)
		}
		for _, c := range p.Inputs() {
			walk(c)
		}
	}
	walk(p)
	for _, s := range scans {
		if len(s.Cols) == 1 {
			continue
		}
		for _, c := range s.Cols {
			if !used[c.ID] {
				t.Errorf("scan of %s reads unused column %s", s.Table.Name(), c.Name)
			}
		}
	}
}

// nodeExprs lists the expressions a logical node holds.
func nodeExprs(p planner.Plan) []planner.Expr {
	var out []planner.Expr
	add := func(es ...planner.Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	switch n := p.(type) {
	case *planner.Scan:
		add(n.Filter)
	case *planner.Filter:
		add(n.Cond)
	case *planner.Project:
		add(n.Exprs...)
	case *planner.Aggregate:
		add(n.GroupBy...)
		for _, a := range n.Aggs {
			add(a.Arg)
		}
	case *planner.Join:
		add(n.Cond)
	case *planner.Sort:
		for _, k := range n.Keys {
			add(k.Expr)
		}
	case *planner.Window:
		add(n.PartitionBy...)
		for _, k := range n.OrderBy {
			add(k.Expr)
		}
		for _, f := range n.Funcs {
			add(f.Args...)
		}
	}
	return out
}
