package duckdb

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The random query generator of the differential tester. It writes
// MySQL-dialect SQL that gq parses and Translate hands to DuckDB, and keeps
// to constructs on which MySQL semantics (gq's) and DuckDB's agree.
// Exclusions, each with its reason:
//
//   - `/` and DIV: MySQL's int/int is a DECIMAL with scale+4, DuckDB's a
//     DOUBLE (and // for DIV); division by zero is covered by the
//     bad-input tests instead.
//   - CONCAT: NULL-propagating in MySQL, NULL-skipping in DuckDB.
//   - LENGTH: bytes in MySQL, characters in DuckDB (and in gq).
//   - LIMIT and result order: NULLs sort first in MySQL, last in DuckDB;
//     results are compared as multisets and ORDER BY is generated only for
//     coverage.
//   - string collation: gq and DuckDB both compare bytes (MySQL's default
//     collation would ignore case); generated comparisons rely on binary
//     order, which is what gq documents.
//   - ROUND and CAST to integer on halves (rounding rules differ for
//     DOUBLE), and functions over DOUBLE other than + - * and comparisons.
//   - LIKE patterns with a backslash: MySQL's default escape character is
//     \, DuckDB has none unless ESCAPE is given.
//   - AVG: MySQL gives DECIMAL scale+4 where DuckDB gives DOUBLE; compared
//     numerically to within gq's printed scale (see diffCellsEqual).

type kind int

const (
	kInt kind = iota
	kDec
	kStr
	kDate
	kFloat
	kTs // TIMESTAMP: drawn only by the timestamp generator (diff_gen_ts.go)
)

// genCol is a column the generator may reference.
type genCol struct {
	name string
	kind kind
}

// genTable is a table with its columns; group lists the columns of low
// cardinality that GROUP BY may use (nil: any).
type genTable struct {
	name  string
	cols  []genCol
	group []string
}

// joinEdge is an equality two tables may be joined on.
type joinEdge struct{ a, acol, b, bcol string }

// Gen draws random queries over a schema.
type Gen struct {
	r      *rand.Rand
	tables []genTable
	joins  []joinEdge
	// aggOnly makes every query aggregate (large tables: keeps results small).
	aggOnly bool
	scope   []scoped
	depth   int
	// windows makes every query a window query (diff_gen_window.go).
	windows bool
	// Corr is the chance in percent that a predicate or an integer or
	// decimal expression is a correlated subquery (corrPred, corrScalar);
	// CorrQueries counts the queries drawn with one.
	Corr        int
	CorrQueries int
	corrDrawn   bool
	// ts adds TIMESTAMP expressions and predicates (diff_gen_ts.go).
	ts bool
	// moreAggs makes every query call the aggregates of diff_gen_aggs.go;
	// inGroupBy is set while it draws a GROUP BY query's.
	moreAggs, inGroupBy bool
	// fns draws the scalar functions of diff_gen_fns.go.
	fns bool
	// constructs are the families of diff_gen_constructs.go to draw
	// every query from (nil: none).
	constructs []constructFamily
	// FamilyDrawn counts the queries drawn from each constructs family.
	FamilyDrawn map[string]int
}

type scoped struct {
	alias string
	t     genTable
}

// NewDiffGen returns a generator over the generated tables (see
// diff_tables.go).
func NewDiffGen(seed uint64) *Gen {
	cols := []genCol{{"k", kInt}, {"i", kInt}, {"d", kDec}, {"e", kDec}, {"s", kStr}, {"t", kDate}, {"f", kFloat}}
	var tables []genTable
	for _, n := range []string{"t0", "t1", "t_empty", "t_ext", "t_nan"} {
		tables = append(tables, genTable{name: n, cols: cols})
	}
	var joins []joinEdge
	for _, a := range tables {
		for _, b := range tables {
			for _, c := range []string{"k", "s", "t"} {
				joins = append(joins, joinEdge{a.name, c, b.name, c})
			}
		}
	}
	return &Gen{r: rand.New(rand.NewPCG(seed, 0xd1ff)), tables: tables, joins: joins, Corr: 6}
}

// NewTPCHGen returns a generator over the TPC-H tables that joins only on
// foreign keys and always aggregates.
func NewTPCHGen(seed uint64) *Gen {
	spec := map[string]string{
		"nation":   "n_nationkey i, n_name s, n_regionkey i",
		"region":   "r_regionkey i, r_name s",
		"customer": "c_custkey i, c_nationkey i, c_acctbal d, c_mktsegment s",
		"orders":   "o_orderkey i, o_custkey i, o_orderstatus s, o_totalprice d, o_orderdate t, o_orderpriority s, o_shippriority i",
		"lineitem": "l_orderkey i, l_partkey i, l_suppkey i, l_linenumber i, l_quantity d, l_extendedprice d, l_discount d, l_tax d, l_returnflag s, l_linestatus s, l_shipdate t, l_shipmode s",
		"part":     "p_partkey i, p_brand s, p_size i, p_container s, p_retailprice d",
		"supplier": "s_suppkey i, s_nationkey i, s_acctbal d",
	}
	groups := map[string][]string{
		"nation": {"n_regionkey", "n_name"}, "region": {"r_name"}, "customer": {"c_nationkey", "c_mktsegment"},
		"orders": {"o_orderstatus", "o_orderpriority", "o_shippriority"}, "lineitem": {"l_returnflag", "l_linestatus", "l_shipmode", "l_linenumber"},
		"part": {"p_brand", "p_size", "p_container"}, "supplier": {"s_nationkey"},
	}
	kinds := map[string]kind{"i": kInt, "d": kDec, "s": kStr, "t": kDate}
	var tables []genTable
	for _, name := range []string{"nation", "region", "customer", "orders", "lineitem", "part", "supplier"} {
		t := genTable{name: name, group: groups[name]}
		for _, f := range strings.Split(spec[name], ", ") {
			n, k, _ := strings.Cut(f, " ")
			t.cols = append(t.cols, genCol{n, kinds[k]})
		}
		tables = append(tables, t)
	}
	joins := []joinEdge{
		{"nation", "n_regionkey", "region", "r_regionkey"}, {"customer", "c_nationkey", "nation", "n_nationkey"},
		{"orders", "o_custkey", "customer", "c_custkey"}, {"lineitem", "l_orderkey", "orders", "o_orderkey"},
		{"lineitem", "l_partkey", "part", "p_partkey"}, {"lineitem", "l_suppkey", "supplier", "s_suppkey"},
		{"supplier", "s_nationkey", "nation", "n_nationkey"},
	}
	return &Gen{r: rand.New(rand.NewPCG(seed, 0x7c4)), tables: tables, joins: joins, aggOnly: true}
}

func (g *Gen) pick(n int) int    { return g.r.IntN(n) }
func (g *Gen) chance(p int) bool { return g.r.IntN(100) < p }

// Query is one generated query and the pieces the TLP and NoREC oracles
// rebuild it from: SELECT list, FROM clause and WHERE predicate.
type Query struct {
	SQL                 string
	Select, From, Where string
	Plain               bool // no aggregate, DISTINCT, GROUP BY or UNION
	// Duck is the query in DuckDB's spelling where it is not SQL's
	// (diff_gen_constructs.go); "" when the same.
	Duck string
}

// Next draws a query.
func (g *Gen) Next() Query {
	g.corrDrawn = false
	defer func() {
		if g.corrDrawn {
			g.CorrQueries++
		}
	}()
	if g.constructs != nil {
		return g.constructQuery()
	}
	if g.windows {
		return g.windowQuery()
	}
	if g.moreAggs {
		return g.moreAggQuery()
	}
	g.scope = g.scope[:0]
	from := g.from()
	var q Query
	q.From = from
	q.Where = g.pred(0)
	if !g.aggOnly && g.chance(55) {
		n := 1 + g.pick(3)
		var items []string
		for j := 0; j < n; j++ {
			items = append(items, g.expr(g.anyKind(), 0))
		}
		q.Select = strings.Join(items, ", ")
		q.Plain = true
		distinct := ""
		if g.chance(15) {
			distinct, q.Plain = "distinct ", false
		}
		q.SQL = fmt.Sprintf("select %s%s from %s where %s", distinct, q.Select, from, q.Where)
		if g.chance(20) {
			q.SQL += " order by 1"
		}
		if g.chance(10) {
			q.Plain = false
			q.SQL += " union all " + g.sameShapeSelect(items)
		}
		return q
	}
	var groups []string
	for j := g.pick(3); j > 0; j-- {
		groups = append(groups, g.groupCol())
	}
	items := append([]string{}, groups...)
	for j := 1 + g.pick(3); j > 0; j-- {
		items = append(items, g.agg())
	}
	q.Select = strings.Join(items, ", ")
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, from, q.Where)
	if len(groups) > 0 {
		q.SQL += " group by " + strings.Join(groups, ", ")
		if g.chance(30) {
			q.SQL += " having " + g.aggPred()
		}
	}
	return q
}

// sameShapeSelect is a second SELECT over one table whose columns have
// the kinds of items' (UNION ALL needs matching types): it reuses the
// items when the scope is one table, else literals.
func (g *Gen) sameShapeSelect(items []string) string {
	return fmt.Sprintf("select %s from %s where %s", strings.Join(items, ", "), g.scopeFrom(), g.pred(1))
}

func (g *Gen) scopeFrom() string {
	var parts []string
	for _, s := range g.scope {
		parts = append(parts, s.t.name+" "+s.alias)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, " cross join ")
}

// from draws one table or a join of two on a join edge.
func (g *Gen) from() string {
	if g.chance(60) || len(g.joins) == 0 {
		t := g.tables[g.pick(len(g.tables))]
		g.scope = append(g.scope, scoped{"a", t})
		return t.name + " a"
	}
	e := g.joins[g.pick(len(g.joins))]
	ta, tb := g.table(e.a), g.table(e.b)
	g.scope = append(g.scope, scoped{"a", ta}, scoped{"b", tb})
	join := "join"
	if g.chance(35) {
		join = "left join"
	}
	on := fmt.Sprintf("a.%s = b.%s", e.acol, e.bcol)
	if g.chance(25) {
		on += " and " + g.pred(2)
	}
	return fmt.Sprintf("%s a %s %s b on %s", ta.name, join, tb.name, on)
}

func (g *Gen) table(name string) genTable {
	for _, t := range g.tables {
		if t.name == name {
			return t
		}
	}
	panic("unknown table " + name) // the generator's own schema is wrong
}

func (g *Gen) anyKind() kind {
	if g.ts {
		return []kind{kInt, kInt, kDec, kStr, kDate, kFloat, kTs, kTs}[g.pick(8)]
	}
	return []kind{kInt, kInt, kDec, kStr, kDate, kFloat}[g.pick(6)]
}

// cmpKind draws a kind BETWEEN and IN compare (every kind but DOUBLE).
func (g *Gen) cmpKind() kind {
	if g.ts {
		return []kind{kInt, kDec, kStr, kDate, kTs}[g.pick(5)]
	}
	return []kind{kInt, kDec, kStr, kDate}[g.pick(4)]
}

// col returns a qualified column of kind k in scope, or "" if none.
func (g *Gen) col(k kind) string {
	var c []string
	for _, s := range g.scope {
		for _, col := range s.t.cols {
			if col.kind == k {
				c = append(c, s.alias+"."+col.name)
			}
		}
	}
	if len(c) == 0 {
		return ""
	}
	return c[g.pick(len(c))]
}

func (g *Gen) groupCol() string {
	s := g.scope[g.pick(len(g.scope))]
	if s.t.group != nil {
		return s.alias + "." + s.t.group[g.pick(len(s.t.group))]
	}
	return s.alias + "." + s.t.cols[g.pick(len(s.t.cols))].name
}

// nans reports whether the generator draws NaN and ±Inf (t_nan, and
// literals): not the window, aggregate and constructs ones, whose RANGE
// frames offset from NaN or ±Inf and whose quantiles and statistics of
// them do not yet agree with DuckDB's (noticed with seed 11).
func (g *Gen) nans() bool { return !g.windows && !g.moreAggs && g.constructs == nil }

// withoutNaNs drops t_nan and its joins (see nans).
func (g *Gen) withoutNaNs() *Gen {
	g.tables = slices.DeleteFunc(g.tables, func(t genTable) bool { return t.name == "t_nan" })
	g.joins = slices.DeleteFunc(g.joins, func(j joinEdge) bool { return j.a == "t_nan" || j.b == "t_nan" })
	return g
}

// literal draws a constant of kind k, extremes included.
func (g *Gen) literal(k kind) string {
	switch k {
	case kInt:
		switch g.pick(10) {
		case 0:
			return "9223372036854775807"
		case 1:
			return "-9223372036854775808"
		case 2:
			return "0"
		}
		return fmt.Sprint(g.r.IntN(21) - 10)
	case kDec:
		if g.chance(10) {
			return "9999999999999999.99"
		}
		return fmt.Sprintf("%d.%02d", g.r.IntN(2001)-1000, g.r.IntN(100))
	case kStr:
		return "'" + strings.ReplaceAll(diffStrings[g.pick(len(diffStrings))], "'", "''") + "'"
	case kDate:
		return fmt.Sprintf("date '%d-%02d-%02d'", 1993+g.pick(7), 1+g.pick(12), 1+g.pick(28))
	case kTs:
		return g.tsLiteral()
	default:
		if g.nans() && g.chance(8) {
			// DuckDB's order of doubles: NaN = NaN, above +Inf.
			return "cast('" + []string{"nan", "inf", "-inf"}[g.pick(3)] + "' as double)"
		}
		return fmt.Sprintf("%d.5e0", g.r.IntN(201)-100)
	}
}

// expr draws an expression of kind k.
func (g *Gen) expr(k kind, depth int) string {
	if depth > 2 || g.chance(45) {
		if c := g.col(k); c != "" && g.chance(75) {
			return c
		}
		return g.literal(k)
	}
	d := depth + 1
	if g.fns && g.chance(40) {
		if e := g.fnExpr(k, d); e != "" {
			return e
		}
	}
	if g.ts && (k == kTs || (k == kInt && g.chance(30)) || (k == kDate && g.chance(10))) {
		if e := g.tsExpr(k, d); e != "" {
			return e
		}
	}
	if (k == kInt || k == kDec) && g.Corr > 0 && g.chance(g.Corr) {
		if e := g.corrScalar(k); e != "" {
			return e
		}
	}
	switch k {
	case kInt:
		switch g.pick(9) {
		case 0:
			return fmt.Sprintf("(%s + %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 1:
			return fmt.Sprintf("(%s - %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 2:
			return fmt.Sprintf("(%s * %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 3:
			return fmt.Sprintf("(- %s)", g.expr(kInt, d))
		case 4:
			return fmt.Sprintf("abs(%s)", g.expr(kInt, d))
		case 5:
			return fmt.Sprintf("(%s %% %d)", g.expr(kInt, d), 1+g.pick(7))
		case 6:
			return fmt.Sprintf("coalesce(%s, %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 7:
			if len(g.scope) == 1 && !g.aggOnly {
				t := g.tables[g.pick(len(g.tables))]
				for _, c := range t.cols {
					if c.kind == kInt {
						return fmt.Sprintf("(select max(z.%s) from %s z)", c.name, t.name)
					}
				}
			}
		}
		return g.caseExpr(kInt, d)
	case kDec:
		switch g.pick(6) {
		case 0:
			return fmt.Sprintf("(%s + %s)", g.expr(kDec, d), g.expr(kDec, d))
		case 1:
			return fmt.Sprintf("(%s - %s)", g.expr(kDec, d), g.expr(kInt, d))
		case 2:
			return fmt.Sprintf("(%s * %d)", g.expr(kDec, d), g.r.IntN(7)-3)
		case 3:
			return fmt.Sprintf("abs(%s)", g.expr(kDec, d))
		case 4:
			return fmt.Sprintf("coalesce(%s, %s)", g.expr(kDec, d), g.expr(kDec, d))
		}
		return g.caseExpr(kDec, d)
	case kStr:
		switch g.pick(5) {
		case 0:
			return fmt.Sprintf("upper(%s)", g.expr(kStr, d))
		case 1:
			return fmt.Sprintf("lower(%s)", g.expr(kStr, d))
		case 2:
			return fmt.Sprintf("substring(%s, %d, %d)", g.expr(kStr, d), 1+g.pick(3), g.pick(4))
		case 3:
			return fmt.Sprintf("coalesce(%s, %s)", g.expr(kStr, d), g.expr(kStr, d))
		}
		return g.caseExpr(kStr, d)
	case kFloat:
		switch g.pick(3) {
		case 0:
			return fmt.Sprintf("(%s + %s)", g.expr(kFloat, d), g.expr(kFloat, d))
		case 1:
			return fmt.Sprintf("(%s * %s)", g.expr(kFloat, d), g.expr(kInt, d))
		}
		return g.caseExpr(kFloat, d)
	}
	return g.caseExpr(k, d)
}

func (g *Gen) caseExpr(k kind, d int) string {
	if g.chance(50) {
		return fmt.Sprintf("case when %s then %s else %s end", g.pred(d+1), g.expr(k, d), g.expr(k, d))
	}
	return fmt.Sprintf("case when %s then %s end", g.pred(d+1), g.expr(k, d))
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// pred draws a boolean predicate.
func (g *Gen) pred(depth int) string {
	d := depth + 1
	if depth > 2 {
		return g.cmp(d)
	}
	if g.Corr > 0 && g.chance(g.Corr) {
		if p := g.corrPred(); p != "" {
			return p
		}
	}
	if g.fns && g.chance(20) {
		return g.fnPred(d)
	}
	switch g.pick(12) {
	case 0:
		return fmt.Sprintf("(%s and %s)", g.pred(d), g.pred(d))
	case 1:
		return fmt.Sprintf("(%s or %s)", g.pred(d), g.pred(d))
	case 2:
		return fmt.Sprintf("(not %s)", g.pred(d))
	case 3:
		not := ""
		if g.chance(50) {
			not = " not"
		}
		return fmt.Sprintf("(%s is%s null)", g.expr(g.anyKind(), d), not)
	case 4:
		k := g.cmpKind()
		return fmt.Sprintf("(%s between %s and %s)", g.expr(k, d), g.literal(k), g.literal(k))
	case 5:
		k := g.cmpKind()
		var l []string
		for j := 1 + g.pick(4); j > 0; j-- {
			l = append(l, g.literal(k))
		}
		if g.chance(20) {
			l = append(l, "null")
		}
		not := ""
		if g.chance(30) {
			not = " not"
		}
		return fmt.Sprintf("(%s%s in (%s))", g.expr(k, d), not, strings.Join(l, ", "))
	case 6:
		pats := []string{"a%", "%b%", "_", "%", "", "A_c", "日%", "%r_s%"}
		return fmt.Sprintf("(%s like '%s')", g.expr(kStr, d), pats[g.pick(len(pats))])
	case 7:
		if g.aggOnly {
			break
		}
		t := g.tables[g.pick(len(g.tables))]
		not := ""
		if g.chance(40) {
			not = "not "
		}
		if c := g.col(kInt); c != "" && g.chance(50) {
			return fmt.Sprintf("(%s %sin (select z.k from %s z where z.k is not null))", c, not, t.name)
		}
		if c := g.col(kStr); c != "" {
			return fmt.Sprintf("(%sexists (select 1 from %s z where z.s = %s))", not, t.name, c)
		}
	case 8:
		return []string{"true", "false", "(null is null)"}[g.pick(3)]
	}
	return g.cmp(d)
}

// cmp draws a comparison between two expressions of compatible kinds.
func (g *Gen) cmp(d int) string {
	if g.ts && g.chance(10) {
		return g.intervalCmp(d)
	}
	k := g.anyKind()
	r := k
	if k == kInt && g.chance(30) {
		r = kDec // INT vs DECIMAL compares exactly in both
	}
	if k == kTs && g.chance(25) {
		r = kDate // a DATE widens to a TIMESTAMP in both
	}
	return fmt.Sprintf("(%s %s %s)", g.expr(k, d), cmpOps[g.pick(len(cmpOps))], g.expr(r, d))
}

// agg draws an aggregate call.
func (g *Gen) agg() string {
	switch g.pick(8) {
	case 0:
		return "count(*)"
	case 1:
		return fmt.Sprintf("count(%s)", g.expr(g.anyKind(), 1))
	case 2:
		if g.ts && g.chance(25) {
			return g.intervalCount()
		}
		return fmt.Sprintf("count(distinct %s)", g.expr(g.anyKind(), 1))
	case 3:
		return fmt.Sprintf("sum(%s)", g.expr([]kind{kInt, kDec}[g.pick(2)], 1))
	case 4:
		return fmt.Sprintf("avg(%s)", g.expr([]kind{kInt, kDec}[g.pick(2)], 1))
	case 5:
		return fmt.Sprintf("min(%s)", g.expr(g.anyKind(), 1))
	default:
		return fmt.Sprintf("max(%s)", g.expr(g.anyKind(), 1))
	}
}

func (g *Gen) aggPred() string {
	rhs := fmt.Sprint(g.pick(4))
	if g.chance(40) {
		// Against an uncorrelated scalar subquery (TPC-H q11's shape,
		// judged on the device under GQ_DEVICE=gpu): a count, or a sum
		// that is NULL when no row qualifies.
		t := g.tables[g.pick(len(g.tables))]
		for _, c := range t.cols {
			if c.kind == kInt {
				if g.chance(50) {
					rhs = fmt.Sprintf("(select count(*) from %s z where z.%s < %d)", t.name, c.name, g.pick(8))
				} else {
					rhs = fmt.Sprintf("(select sum(z.%s) from %s z where z.%s < %d) %% 7", c.name, t.name, c.name, g.pick(8)-3)
				}
				break
			}
		}
	}
	return fmt.Sprintf("(%s %s %s)", "count(*)", cmpOps[g.pick(len(cmpOps))], rhs)
}

// Correlated subqueries whose correlation is any comparison (=, <>, <,
// <=, >, >=), over columns or expressions of the outer query (SQLite's
// sqllogictest shapes: count(*) … where x.b < t1.b, EXISTS under OR),
// which gq decorrelates through the domain of the outer values. The
// subquery reads a table under alias z; its conditions compare z's
// columns with the outer scope's (a, b), one or two of them, sometimes
// with a condition on z alone. NULLs are in every column, so NOT IN's
// and count's empty-group rules are exercised.

// corrCond draws the subquery's WHERE over z (of table t) and the outer
// scope, or "" when the scope has no column to correlate with.
func (g *Gen) corrCond(t genTable) string {
	var conds []string
	for n := 1 + g.pick(2); n > 0; n-- {
		zc := t.cols[g.pick(len(t.cols))]
		k := zc.kind
		outer := g.col(k)
		if outer == "" {
			continue
		}
		if k == kInt && g.chance(25) {
			outer = fmt.Sprintf("(%s + %d)", outer, g.pick(5)-2)
		}
		op := cmpOps[g.pick(len(cmpOps))]
		if g.chance(50) {
			conds = append(conds, fmt.Sprintf("z.%s %s %s", zc.name, op, outer))
		} else {
			conds = append(conds, fmt.Sprintf("%s %s z.%s", outer, op, zc.name))
		}
	}
	if len(conds) == 0 {
		return ""
	}
	switch g.pick(4) {
	case 0:
		conds = append(conds, fmt.Sprintf("z.i > %d", g.r.IntN(1001)-500))
	case 1:
		conds = append(conds, "z.k is not null")
	}
	g.corrDrawn = true
	return strings.Join(conds, " and ")
}

// corrPred draws [NOT] EXISTS, [NOT] IN or a comparison with a
// correlated count.
func (g *Gen) corrPred() string {
	if g.aggOnly {
		return ""
	}
	t := g.tables[g.pick(len(g.tables))]
	w := g.corrCond(t)
	if w == "" {
		return ""
	}
	not := ""
	if g.chance(40) {
		not = "not "
	}
	switch g.pick(4) {
	case 0, 1:
		return fmt.Sprintf("(%sexists (select 1 from %s z where %s))", not, t.name, w)
	case 2:
		if c := g.col(kInt); c != "" {
			inner := []string{"z.k", "z.i", "(z.k + 1)"}[g.pick(3)]
			return fmt.Sprintf("(%s %sin (select %s from %s z where %s))", c, not, inner, t.name, w)
		}
	}
	return fmt.Sprintf("((select count(*) from %s z where %s) %s %d)", t.name, w, cmpOps[g.pick(len(cmpOps))], g.pick(6))
}

// corrScalar draws a correlated aggregate subquery of kind k (kInt or
// kDec), with count's empty value (0) and the others' (NULL) both in play.
func (g *Gen) corrScalar(k kind) string {
	if g.aggOnly {
		return ""
	}
	t := g.tables[g.pick(len(g.tables))]
	w := g.corrCond(t)
	if w == "" {
		return ""
	}
	var sel string
	if k == kDec {
		// Not sum: DuckDB's DECIMAL(38,s) sum, in a CASE or COALESCE with
		// another decimal, needs more than 38 digits and DuckDB drops scale.
		sel = []string{"min(z.d)", "max(z.e)", "coalesce(max(z.d), 0.00)", "(min(z.d) + 1.00)"}[g.pick(4)]
	} else {
		sel = []string{"count(*)", "count(z.k)", "count(*) + 1", "max(z.i)", "min(z.k)", "sum(z.k)", "count(distinct z.k)", "coalesce(max(z.k), -1)"}[g.pick(8)]
	}
	having := ""
	if g.chance(10) {
		having = fmt.Sprintf(" having count(*) > %d", g.pick(3))
	}
	return fmt.Sprintf("(select %s from %s z where %s%s)", sel, t.name, w, having)
}
