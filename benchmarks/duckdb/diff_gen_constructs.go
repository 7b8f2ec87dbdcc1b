package duckdb

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// The constructs of issue 30 that the other generators do not draw, one
// family each (constructFamilies): GROUPING SETS / ROLLUP / CUBE / WITH
// ROLLUP and GROUPING(); CAST to VARCHAR, TEXT, BIGINT, INTEGER, INT,
// BOOLEAN and TRY_CAST; percentile_cont / percentile_disc WITHIN GROUP;
// count(DISTINCT a, b) and approx_count_distinct; list and struct
// literals, subscripts, list_sort, list() and count(DISTINCT) of nested
// values; range / generate_series as tables over integers and timestamps;
// fill(); ROWS frame offsets read at each row; IGNORE NULLS; EXCLUDE
// frames; QUALIFY; VALUES as a table; a || b; GROUPS frames; first/last
// (x ORDER BY y) and entropy; lag/lead/nth_value counts read at each row;
// WITH RECURSIVE. -diff.family picks one family by name; otherwise each
// query draws one at random.
//
// Where gq's spelling is not DuckDB's, a family writes both (dual) and
// the Query carries DuckDB's in Duck:
//   - WITH ROLLUP (MySQL) is ROLLUP(…) in DuckDB;
//   - f(x, …) IGNORE NULLS OVER (gq, the standard's place) is
//     f(x, … IGNORE NULLS) OVER in DuckDB 1.5.6, which refuses the other;
//   - count(DISTINCT a, b) (MySQL) is count(DISTINCT (a, b)) FILTER
//     (WHERE a IS NOT NULL AND b IS NOT NULL) in DuckDB, which has no
//     count of several arguments (MySQL skips a tuple with a NULL);
//   - approx_count_distinct(x) is count(DISTINCT x) in DuckDB: gq counts
//     exactly, DuckDB estimates (HyperLogLog), so gq is held to the
//     exact count;
//   - CAST/TRY_CAST … AS INTEGER, INT or SIGNED is AS BIGINT in DuckDB
//     (whose SIGNED is INTEGER, 32 bits): gq's
//     integers are all BIGINT (cast_types.test), so a value past 32 bits
//     is in range in gq and an error (or TRY_CAST's NULL) in DuckDB;
//   - VALUES ROW(…), … (MySQL) is VALUES (…), … in DuckDB.
//
// Exclusions, each with its reason:
//   - percentile_disc WITHIN GROUP (ORDER BY x DESC): gq refuses it
//     (bindMoreAgg); drawn rarely, counted as unsupported.
//   - CAST of a DOUBLE to an integer type (halves: gq rounds away from
//     zero, DuckDB to even; the main generator's exclusion), and TRY_CAST
//     of strings with digit separators or hex ('1_000', '0x10': DuckDB
//     reads them as numbers, gq and MySQL do not).
//   - TRY_CAST('inf' AS DATE): DuckDB's DATE has ±infinity (it prints
//     5881580-07-11 through duckdb-go), MySQL's and gq's have none (NULL).
//   - DOUBLE → VARCHAR is compared as numbers (cellsClose): gq prints
//     -93 and 1.234567890125e+11 where DuckDB prints -93.0 and
//     123456789012.5; both read back to the same double.
//   - ROWS offsets that are NULL: gq rejects them (window_frame_per_row.test),
//     DuckDB 1.5.6 runs on; every per-row offset is drawn under COALESCE.
//   - fill() of integer, decimal and date values: DuckDB 1.5.6 truncates
//     the offset from the neighbour it starts at where gq truncates the
//     exact value on the line (window_fill.test); fill is drawn over DOUBLE
//     values, with keys that do not tie (d, e).
//   - TIMESTAMP values inside list and struct values: canonGo cannot tell
//     a midnight TIMESTAMP from a DATE inside a nested value.
//   - GROUPS frames of offsets read at each row: gq takes constants only
//     (window_groups.test); groupsQuery draws constants.
//   - a || b of DOUBLE, DECIMAL or DATE operands: the text of a DOUBLE
//     differs (gq -93, DuckDB -93.0; see DOUBLE → VARCHAR above), so
//     concatQuery joins texts, integers and NULLs; BOOLEAN operands gq
//     refuses by design (MySQL reads || as OR), so none are drawn.
//   - first(x) and last(x) without an ORDER BY in the call: the answer is
//     whichever row comes first, not determined; the call orders by
//     every column. Their DISTINCT and FILTER gq refuses by name.
//   - entropy of DOUBLE: -0 and 0 are one value or two by how each engine
//     hashes them.
//   - sum of DOUBLE over GROUPS frames: peers come in no set order, and
//     the order of additions shows in the last digits.
//   - GROUPING SETS of empty sets only, more than one (((), ())): DuckDB
//     1.5.6 answers one row, as for no GROUP BY, where the standard (and
//     PostgreSQL, and gq) give one per set; DuckDB itself repeats the ()
//     row once any set is not empty (((), (), (k))). One () is drawn.
//   - sum and avg of DOUBLE over frames of t_ext: its ±MaxInt64 times a
//     DOUBLE are ±1.37e21, whose sum cancels to 0 or leaves a small
//     row's -148.5 by the order of additions alone (gq -148.5, the exact
//     sum of the doubles; DuckDB 0). Frames over the other tables, and
//     t_ext's other aggregates, are drawn.
//   - ROWS offsets read at each row that put a frame's end before its
//     start: DuckDB 1.5.6 counts such a frame as a negative number of
//     rows (count(*) = -2); negative offsets are drawn only where they
//     cannot (rowsOffsetQuery).
//   - ORDER BY of a constant inside WITHIN GROUP: DuckDB refuses it.
//   - percentile_cont … (ORDER BY x DESC) of DECIMAL x: gq computes it
//     as the ascending percentile at 1 − q, DuckDB from the other end;
//     each truncates a double interpolation to the scale, so they can
//     differ in the last digit (over −8.358823 and 0.449567 at 0.1 DESC:
//     gq −0.431271, as DuckDB's own ascending 0.9; DuckDB −0.431272, the
//     exact value). DESC is drawn over BIGINT and DOUBLE values (DOUBLE
//     results, compared to 1e-9).
//   - GROUP BY keys with a subquery (CAST of an IN predicate): gq
//     refuses them ("must appear in GROUP BY"), a limit of its
//     expression matching, not of the casts.
//   - list_sort(list(x)) of DOUBLE x as drawn: -0 and 0 are equal and
//     sort in arrival order but print apart; x + 0e0 is drawn instead.
//   - percentile_cont(0) WITHIN GROUP (ORDER BY x DESC): DuckDB 1.5.6
//     answers the least x, where the first value in descending order is
//     the greatest (gq's answer, PostgreSQL's rule, and DuckDB's own
//     answer for the fraction 0.0001: over 1.5, 2.5 and 10.5 it gives
//     1.5 at 0 and 10.4984 at 0.0001). Fraction 0 is drawn ascending
//     only.
//   - a list of DECIMAL lists ([[1.5], [a.d]]): gq refuses elements whose
//     types differ in DECIMAL precision ("list_value(…) mixes incompatible
//     types DECIMAL(5,2)[] and DECIMAL(22,2)[]"), having no cast between
//     nested types but NULL filling; DuckDB casts to the common type.
//     Lists of lists are drawn of the other kinds.
//   - VALUES ROW(…) in DuckDB's FROM VALUES … AS t(…) form: gq takes ROW
//     inside parentheses only (MySQL has no FROM VALUES without them).

// drawModeWithinGroup draws mode() WITHIN GROUP (ORDER BY x [DESC]),
// whose ties go to the first value in that order (PostgreSQL's rule).
const drawModeWithinGroup = true

// constructFamily is one family of the constructs generator.
type constructFamily struct {
	name string
	draw func(g *Gen) Query
}

var constructFamilies = []constructFamily{
	{"groupingsets", (*Gen).groupingSetsQuery},
	{"casts", (*Gen).castQuery},
	{"withingroup", (*Gen).withinGroupQuery},
	{"countdistinct", (*Gen).countDistinctQuery},
	{"nested", (*Gen).nestedQuery},
	{"series", (*Gen).seriesQuery},
	{"fill", (*Gen).fillQuery},
	{"rowsoffsets", (*Gen).rowsOffsetQuery},
	{"ignorenulls", (*Gen).ignoreNullsQuery},
	{"exclude", (*Gen).excludeQuery},
	{"qualify", (*Gen).qualifyQuery},
	{"values", (*Gen).valuesQuery},
	{"concat", (*Gen).concatQuery},
	{"groups", (*Gen).groupsQuery},
	{"firstlast", (*Gen).firstLastQuery},
	{"lagcol", (*Gen).lagColQuery},
	{"recursive", (*Gen).recursiveQuery},
}

// NewConstructGen returns a generator over the generated tables (see
// diff_tables.go) that draws the constructs families; family "" draws
// all of them, else only the one named.
func NewConstructGen(seed uint64, family string) (*Gen, error) {
	g := NewDiffGen(seed)
	g.r = rand.New(rand.NewPCG(seed, 0xc0457))
	g.Corr = 0
	g.withoutNaNs() // see nans: the window families share its reason
	g.constructs = constructFamilies
	if family != "" {
		g.constructs = nil
		for _, f := range constructFamilies {
			if f.name == family {
				g.constructs = []constructFamily{f}
			}
		}
		if g.constructs == nil {
			var names []string
			for _, f := range constructFamilies {
				names = append(names, f.name)
			}
			return nil, fmt.Errorf("no constructs family %q (families: %s)", family, strings.Join(names, ", "))
		}
	}
	return g, nil
}

// constructQuery draws one query of a family and spells it for each
// engine.
func (g *Gen) constructQuery() Query {
	f := g.constructs[g.pick(len(g.constructs))]
	if g.FamilyDrawn == nil {
		g.FamilyDrawn = map[string]int{}
	}
	g.FamilyDrawn[f.name]++
	g.scope = g.scope[:0]
	q := f.draw(g)
	gq, duck := spell(q.SQL, 0), spell(q.SQL, 1)
	q.SQL = gq
	if duck != gq {
		q.Duck = duck
	}
	q.Select, q.From, q.Where = spell(q.Select, 0), spell(q.From, 0), spell(q.Where, 0)
	return q
}

// dual marks text that is gq in one spelling and DuckDB in another;
// spell picks a side (0 gq, 1 DuckDB). Duals do not nest.
func dual(gq, duck string) string { return "\x01" + gq + "\x02" + duck + "\x03" }

func spell(s string, side int) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '\x01')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '\x02') + i
		k := strings.IndexByte(s[j:], '\x03') + j
		b.WriteString(s[:i])
		if side == 0 {
			b.WriteString(s[i+1 : j])
		} else {
			b.WriteString(s[j+1 : k])
		}
		s = s[k+1:]
	}
}

// selectFrom is SELECT items FROM t a WHERE a drawn predicate.
func (g *Gen) selectFrom(t genTable, items []string) Query {
	q := Query{Select: strings.Join(items, ", "), From: t.name + " a", Where: g.where()}
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	return q
}

// frameAgg is windowAgg but, over t_ext, no sum or avg of DOUBLE (see
// the exclusion of DOUBLE sums that cancel).
func (g *Gen) frameAgg(t genTable) string {
	for {
		call := g.windowAgg()
		if t.name != "t_ext" || !doubleSum(call, true) {
			return call
		}
	}
}

// doubleSum tells whether call is a sum (or, withAvg, an avg) that may
// add DOUBLEs: one reading a.f or a DOUBLE literal anywhere.
func doubleSum(call string, withAvg bool) bool {
	double := strings.Contains(call, "a.f") || strings.Contains(call, "e0")
	return double && (strings.HasPrefix(call, "sum(") || withAvg && strings.HasPrefix(call, "avg("))
}

// valueCall is first_value, last_value or nth_value of an expression.
func (g *Gen) valueCall() string {
	return fmt.Sprintf([]string{"first_value(%s)", "last_value(%s)", "nth_value(%s, 2)"}[g.pick(3)], g.expr(g.anyKind(), 1))
}

// oneTable puts one of the generated tables in scope as a.
func (g *Gen) oneTable() genTable {
	t := g.tables[g.pick(len(g.tables))]
	g.scope = append(g.scope, scoped{"a", t})
	return t
}

func (g *Gen) where() string {
	if g.chance(40) {
		return g.pred(1)
	}
	return "true"
}

// groupingSetsQuery: GROUP BY ROLLUP, CUBE, GROUPING SETS, a key beside a
// ROLLUP, MySQL's WITH ROLLUP; GROUPING() and GROUPING_ID() of the keys.
func (g *Gen) groupingSetsQuery() Query {
	t := g.oneTable()
	cands := []string{"a.k", "a.s", "a.t", "a.i", "(a.k % 2)", "a.d"}
	var keys []string
	for _, j := range g.r.Perm(len(cands))[:1+g.pick(3)] {
		keys = append(keys, cands[j])
	}
	list := strings.Join(keys, ", ")
	var by string
	switch g.pick(6) {
	case 0:
		by = "rollup(" + list + ")"
	case 1:
		by = "cube(" + list + ")"
	case 2, 3:
		var sets []string
		for n := 1 + g.pick(4); n > 0; n-- {
			var s []string
			for _, k := range keys {
				if g.chance(50) {
					s = append(s, k)
				}
			}
			sets = append(sets, "("+strings.Join(s, ", ")+")")
		}
		if strings.Count(strings.Join(sets, ""), "()") == len(sets) {
			sets = sets[:1] // see the exclusion of GROUPING SETS ((), ())
		}
		by = "grouping sets (" + strings.Join(sets, ", ") + ")"
	case 4:
		if len(keys) > 1 {
			by = keys[0] + ", rollup(" + strings.Join(keys[1:], ", ") + ")"
			break
		}
		fallthrough
	default:
		by = dual(list+" with rollup", "rollup("+list+")")
	}
	var items []string
	for _, k := range keys {
		if g.chance(80) {
			items = append(items, k)
		}
	}
	for n := 1 + g.pick(3); n > 0; n-- {
		items = append(items, g.agg())
	}
	if g.chance(50) {
		var args []string
		for _, j := range g.r.Perm(len(keys))[:1+g.pick(len(keys))] {
			args = append(args, keys[j])
		}
		fn := []string{"grouping", "grouping", "grouping_id"}[g.pick(3)]
		items = append(items, fn+"("+strings.Join(args, ", ")+")")
	}
	q := Query{Select: strings.Join(items, ", "), From: t.name + " a", Where: g.where()}
	q.SQL = fmt.Sprintf("select %s from %s where %s group by %s", q.Select, q.From, q.Where, by)
	if g.chance(25) {
		q.SQL += " having " + g.aggPred()
	}
	return q
}

// castStrings are texts TRY_CAST reads as numbers, booleans or dates, or
// not at all (see the exclusions for those left out).
var castStrings = []string{"12", " 7 ", "-3", "0", "2.5", "-2.5", "1e3", "abc", "", "true", "f", "yes", "no", "t", "1",
	"2024-02-28", "2024-02-30", "1994-13-01", "1999-12-31", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"3.25", "+4", "1234.567", "0.5", "-0", "2147483648", "NaN", "inf"}

// intType is a cast target of gq's integer names (MySQL's SIGNED
// among them), DuckDB's BIGINT.
func (g *Gen) intType() string {
	if g.chance(25) {
		return "bigint"
	}
	name := []string{"integer", "int", "signed"}[g.pick(3)]
	return dual(name, "bigint")
}

// castItem draws one CAST or TRY_CAST.
func (g *Gen) castItem() string {
	wrap := func(x, ty string) string {
		switch {
		case g.chance(15) && !strings.Contains(ty, "\x01"):
			return fmt.Sprintf("(%s)::%s", x, ty)
		case g.chance(25):
			return fmt.Sprintf("try_cast(%s as %s)", x, ty)
		}
		return fmt.Sprintf("cast(%s as %s)", x, ty)
	}
	switch g.pick(7) {
	case 0:
		k := []kind{kInt, kDec, kStr, kDate, kFloat}[g.pick(5)]
		return wrap(g.expr(k, 1), []string{"varchar", "text", "char", "varchar(20)"}[g.pick(4)])
	case 1:
		return wrap(g.pred(2), []string{"varchar", "bigint", "boolean"}[g.pick(3)])
	case 2:
		return wrap(g.expr([]kind{kInt, kDec}[g.pick(2)], 1), g.intType())
	case 3:
		return wrap(g.expr([]kind{kInt, kDec}[g.pick(2)], 1), []string{"boolean", "bool"}[g.pick(2)])
	case 4:
		// strings to numbers, dates, booleans: TRY_CAST, else CAST fails
		// in both on the tables' texts.
		ty := []string{"", "double", "date", "decimal(6,2)", "decimal(18,3)", "boolean", "bigint"}[g.pick(7)]
		if ty == "" {
			ty = g.intType()
		}
		text := func() string {
			for {
				// 'inf' is DuckDB's infinite DATE (see the exclusions)
				if s := castStrings[g.pick(len(castStrings))]; ty != "date" || s != "inf" {
					return "'" + s + "'"
				}
			}
		}
		x := g.col(kStr)
		if x == "" || g.chance(60) {
			x = text()
			if g.chance(30) {
				x = fmt.Sprintf("case when %s then %s else %s end", g.pred(2), x, text())
			}
		}
		return fmt.Sprintf("try_cast(%s as %s)", x, ty)
	case 5:
		// round trips through text
		k := []kind{kInt, kDec, kDate}[g.pick(3)]
		back := map[kind]string{kInt: "bigint", kDec: "decimal(20,6)", kDate: "date"}[k]
		return fmt.Sprintf("cast(cast(%s as varchar) as %s)", g.expr(k, 1), back)
	}
	return wrap(g.expr(kStr, 1), "text")
}

// castQuery: CAST and TRY_CAST items in a plain SELECT, in a predicate,
// or as an aggregate's argument or group key.
func (g *Gen) castQuery() Query {
	t := g.oneTable()
	q := Query{From: t.name + " a", Where: g.where()}
	switch g.pick(4) {
	case 0:
		key := g.castItem()
		for strings.Contains(key, "select") {
			key = g.castItem() // see the exclusion of subqueries in keys
		}
		q.Select = key + ", count(*)"
		q.SQL = fmt.Sprintf("select %s from %s where %s group by %s", q.Select, q.From, q.Where, key)
		return q
	case 1:
		q.Where = fmt.Sprintf("(%s is not null)", g.castItem())
		if g.chance(50) {
			q.Where = fmt.Sprintf("(try_cast(%s as bigint) > %d)", g.col(kStr), g.pick(10)-3)
		}
	}
	var items []string
	for n := 1 + g.pick(3); n > 0; n-- {
		items = append(items, g.castItem())
	}
	q.Select = strings.Join(items, ", ")
	q.Plain = true
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	return q
}

// groupedQuery writes SELECT keys, items FROM one table WHERE … GROUP BY
// keys over 0–2 drawn keys.
func (g *Gen) groupedQuery(t genTable, items func(keys []string) []string) Query {
	var keys []string
	for j := g.pick(3); j > 0; j-- {
		keys = append(keys, g.groupCol())
	}
	all := append(append([]string{}, keys...), items(keys)...)
	q := Query{Select: strings.Join(all, ", "), From: t.name + " a", Where: g.where()}
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	if len(keys) > 0 {
		q.SQL += " group by " + strings.Join(keys, ", ")
	}
	return q
}

// withinGroupQuery: percentile_cont / percentile_disc (and, once the
// grammar keeps its order, mode()) WITHIN GROUP (ORDER BY x), grouped,
// sometimes with FILTER.
func (g *Gen) withinGroupQuery() Query {
	t := g.oneTable()
	frac := func() string { return []string{"0", "0.1", "0.25", "0.5", "0.75", "0.9", "1", "0.333"}[g.pick(8)] }
	// The ordered value reads a column: DuckDB refuses ORDER BY a
	// constant ("has no effect").
	ordered := func(k func() kind) string {
		for range 8 {
			// no 16-digit literal: see diff_gen_aggs.go's interpolation exclusion
			if e := g.expr(k(), 1); strings.Contains(e, "a.") && !strings.Contains(e, "9999999999999999") {
				return e
			}
		}
		return "a.k"
	}
	num := func() string { return ordered(func() kind { return []kind{kInt, kInt, kDec, kFloat}[g.pick(4)] }) }
	anyv := func() string { return ordered(g.anyKind) }
	return g.groupedQuery(t, func([]string) []string {
		var items []string
		for n := 1 + g.pick(3); n > 0; n-- {
			var call string
			switch g.pick(3) {
			case 0:
				dir, q, x := []string{"", " asc", " desc"}[g.pick(3)], frac(), num()
				if dir == " desc" && q == "0" {
					q = "0.1" // see the exclusion of fraction 0 descending
				}
				if dir == " desc" {
					x = ordered(func() kind { return []kind{kInt, kFloat}[g.pick(2)] })
				}
				call = fmt.Sprintf("percentile_cont(%s) within group (order by %s%s)", q, x, dir)
			case 1:
				dir := ""
				if g.chance(5) {
					dir = " desc" // refused by gq: counted as unsupported
				}
				call = fmt.Sprintf("percentile_disc(%s) within group (order by %s%s)", frac(), anyv(), dir)
			default:
				if drawModeWithinGroup {
					// A plain column: DuckDB 1.5.6 fails mode() WITHIN GROUP
					// over a subquery ("Cannot copy BoundSubqueryExpression").
					call = fmt.Sprintf("mode() within group (order by %s%s)", g.col(g.anyKind()), []string{"", " desc"}[g.pick(2)])
				} else {
					call = fmt.Sprintf("percentile_disc(%s) within group (order by %s)", frac(), g.col(g.anyKind()))
				}
			}
			if g.chance(20) {
				call += fmt.Sprintf(" filter (where %s)", g.pred(2))
			}
			items = append(items, call)
		}
		return items
	})
}

// countDistinctQuery: MySQL's count(DISTINCT a, b[, c]) and
// approx_count_distinct, grouped.
func (g *Gen) countDistinctQuery() Query {
	t := g.oneTable()
	return g.groupedQuery(t, func([]string) []string {
		var items []string
		for n := 1 + g.pick(3); n > 0; n-- {
			if g.chance(30) {
				x := g.expr(g.anyKind(), 1)
				items = append(items, dual("approx_count_distinct("+x+")", "count(distinct "+x+")"))
				continue
			}
			var args, notNull []string
			for m := 2 + g.pick(2); m > 0; m-- {
				x := g.expr(g.anyKind(), 1)
				if g.chance(50) {
					x = g.col(g.anyKind())
				}
				args = append(args, x)
				notNull = append(notNull, x+" is not null")
			}
			list := strings.Join(args, ", ")
			items = append(items, dual("count(distinct "+list+")",
				fmt.Sprintf("count(distinct (%s)) filter (where %s)", list, strings.Join(notNull, " and "))))
		}
		if g.chance(30) {
			items = append(items, g.agg())
		}
		return items
	})
}

// nestedKinds are the kinds drawn inside list and struct values (no
// TIMESTAMP: see the exclusions).
func (g *Gen) nestedKind() kind { return []kind{kInt, kInt, kDec, kStr, kDate, kFloat}[g.pick(6)] }

// listLit draws a list literal of one kind's expressions, NULLs among them.
func (g *Gen) listLit(k kind) string {
	var es []string
	for n := g.pick(4); n > 0; n-- {
		if g.chance(15) {
			es = append(es, "null")
			continue
		}
		kk := k
		if k == kDec && g.chance(30) {
			kk = kInt // INT and DECIMAL meet in a DECIMAL
		}
		es = append(es, g.expr(kk, 2))
	}
	return "[" + strings.Join(es, ", ") + "]"
}

func (g *Gen) structLit() string {
	var fs []string
	for i, n := 0, 1+g.pick(3); i < n; i++ {
		fs = append(fs, fmt.Sprintf("'f%d': %s", i, g.expr(g.nestedKind(), 2)))
	}
	return "{" + strings.Join(fs, ", ") + "}"
}

// nestedItem draws a list or struct value, a subscript or list_sort.
func (g *Gen) nestedItem() string {
	k := g.nestedKind()
	switch g.pick(6) {
	case 0:
		return g.listLit(k)
	case 1:
		return g.structLit()
	case 2:
		return fmt.Sprintf("%s[%d]", g.listLit(k), g.pick(9)-4)
	case 3:
		return fmt.Sprintf("list_sort(%s)", g.listLit(k))
	case 4:
		return fmt.Sprintf("[%s, %s]", g.structLit(), "null")
	}
	if k == kDec {
		// gq refuses lists of DECIMAL lists of different precisions (no
		// nested cast yet): see the report
		k = kInt
	}
	return fmt.Sprintf("[%s, %s]", g.listLit(k), g.listLit(k))
}

// nestedQuery: list and struct literals with subscripts and list_sort
// in plain SELECTs; list_sort(list(x)) and count(DISTINCT) of nested
// values grouped; a struct's fields through a derived table; list(x)
// over a window in a total order.
func (g *Gen) nestedQuery() Query {
	t := g.oneTable()
	switch g.pick(4) {
	case 0:
		return g.groupedQuery(t, func([]string) []string {
			var items []string
			for n := 1 + g.pick(2); n > 0; n-- {
				switch g.pick(3) {
				case 0:
					// + 0e0 makes a DOUBLE's -0 0: list_sort puts the
					// equal -0 and 0 in arrival order, printed apart.
					k := g.nestedKind()
					x := g.expr(k, 1)
					if k == kFloat {
						x = "(" + x + " + 0e0)"
					}
					items = append(items, fmt.Sprintf("list_sort(list(%s))", x))
				case 1:
					items = append(items, fmt.Sprintf("count(distinct %s)", g.nestedItem()))
				default:
					items = append(items, fmt.Sprintf("list_sort(list(%s))", g.listLit(g.nestedKind())))
				}
			}
			return items
		})
	case 1:
		x := g.expr(g.nestedKind(), 1)
		s := g.expr(kStr, 1)
		inner := fmt.Sprintf("select {'m': %s, 's': %s} as n, [%s, %s] as l from %s a where %s", x, s, x, x, t.name, g.where())
		return Query{SQL: fmt.Sprintf("select x.n.m, x.n.s, x.l[%d], x.n from (%s) x", g.pick(5)-2, inner)}
	case 2:
		items := []string{"a.k", "a.i"}
		items = append(items, fmt.Sprintf("list(%s) over (%sorder by %s rows %s)", g.expr(g.nestedKind(), 1), g.partition(), g.totalOrder(), g.extent(rowOffset(g), false)))
		return g.selectFrom(t, items)
	}
	var items []string
	for n := 1 + g.pick(3); n > 0; n-- {
		items = append(items, g.nestedItem())
	}
	q := g.selectFrom(t, items)
	q.Plain = true
	return q
}

// seriesQuery: range / generate_series over integers and timestamps,
// alone, filtered, aggregated and joined with a table.
func (g *Gen) seriesQuery() Query {
	fn := []string{"range", "generate_series"}[g.pick(2)]
	var args string
	tsSeries := g.chance(40)
	if tsSeries {
		start := time.Date(1993+g.pick(7), time.Month(1+g.pick(12)), 1+g.pick(28), g.pick(24), 0, 0, 0, time.UTC)
		units := []struct {
			name string
			d    time.Duration
		}{{"minute", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}, {"week", 7 * 24 * time.Hour}, {"month", 30 * 24 * time.Hour}}
		u := units[g.pick(len(units))]
		n := 1 + g.pick(6)
		span := time.Duration(g.pick(40)) * time.Duration(n) * u.d
		stop := start.Add(span)
		step := fmt.Sprintf("interval %d %s", n, u.name)
		if g.chance(25) {
			start, stop = stop, start
			step = fmt.Sprintf("interval '-%d %ss'", n, u.name)
		}
		lit := func(t time.Time) string {
			if g.chance(20) && t.Hour() == 0 {
				return "date '" + t.Format("2006-01-02") + "'"
			}
			return "timestamp '" + t.Format("2006-01-02 15:04:05") + "'"
		}
		args = fmt.Sprintf("%s, %s, %s", lit(start), lit(stop), step)
	} else {
		switch g.pick(10) {
		case 0:
			args = fmt.Sprint(g.pick(30))
		case 1:
			args = fmt.Sprintf("9223372036854775%d, 9223372036854775807", 800+g.pick(7))
		case 2:
			args = fmt.Sprintf("-9223372036854775808, -9223372036854775%d", 800+g.pick(7))
		default:
			a, b := g.pick(21)-10, g.pick(41)-10
			step := []int{1, 1, 2, 3, 7, -1, -2, -3}[g.pick(8)]
			if (step < 0) != (a > b) && g.chance(70) {
				a, b = b, a
			}
			args = fmt.Sprintf("%d, %d", a, b)
			if g.chance(70) {
				args += fmt.Sprintf(", %d", step)
			}
			if g.chance(10) {
				args = fmt.Sprintf("%d + 1, %d * 2", a, b)
			}
		}
	}
	src := fmt.Sprintf("%s(%s) r(x)", fn, args)
	xk := kInt
	if tsSeries {
		xk = kTs
	}
	g.scope = append(g.scope, scoped{"r", genTable{name: "r", cols: []genCol{{"x", xk}}}})
	switch g.pick(4) {
	case 0:
		if !tsSeries && g.chance(30) {
			// the function's own column name (RANGE is reserved in MySQL)
			col := "`" + fn + "`"
			return Query{SQL: fmt.Sprintf("select %s from %s(%s)", col, fn, args)}
		}
		q := Query{Select: "r.x", From: src, Where: "true", Plain: true}
		if !tsSeries {
			q.Where = g.pred(2)
			q.Select = "r.x, " + g.expr(kInt, 1)
		}
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
		return q
	case 1:
		sel := "count(*), min(r.x), max(r.x), count(distinct r.x)"
		if !tsSeries {
			sel += ", sum(r.x)"
		}
		return Query{SQL: fmt.Sprintf("select %s from %s", sel, src), From: src, Where: "true"}
	}
	t := g.tables[g.pick(len(g.tables))]
	g.scope = append(g.scope, scoped{"a", t})
	on := "a.k = r.x"
	if tsSeries {
		on = []string{"a.t = r.x", "date_trunc('day', a.ts) = r.x", "a.ts < r.x"}[g.pick(3)]
	} else if g.chance(30) {
		on = "a.i % 10 = r.x"
	}
	join := []string{"join", "left join"}[g.pick(2)]
	from := fmt.Sprintf("%s %s %s a on %s", src, join, t.name, on)
	sel := fmt.Sprintf("r.x, count(a.k), %s", g.agg())
	return Query{SQL: fmt.Sprintf("select %s from %s group by r.x", sel, from), From: from, Where: "true"}
}

// fillQuery: fill(v ORDER BY key) over DOUBLE values, keys that do not
// tie (see the exclusion), with and without the call's own ORDER BY.
func (g *Gen) fillQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.d", "a.e", "a.f"}
	for n := 1 + g.pick(2); n > 0; n-- {
		key := []string{"a.d", "a.e"}[g.pick(2)]
		v := []string{"a.f", "a.f", "(a.f * 2)", "case when a.i > 0 then a.f end"}[g.pick(4)]
		part := []string{"", "partition by a.k ", "partition by (a.i % 2) "}[g.pick(3)]
		if g.chance(50) {
			items = append(items, fmt.Sprintf("fill(%s order by %s) over (%sorder by %s)", v, g.orderKey(key), part, g.totalOrder()))
		} else {
			items = append(items, fmt.Sprintf("fill(%s) over (%sorder by %s)", v, part, g.orderKey(key)))
		}
	}
	return g.selectFrom(t, items)
}

// rowOffsetExpr draws a ROWS offset read at each row: a column or an
// expression in parentheses, never NULL, from lo to lo+4 (lo < 0: some
// negative, counting the other way).
func (g *Gen) rowOffsetExpr(lo int) string {
	switch g.pick(5) {
	case 0:
		return fmt.Sprintf("(coalesce(a.k, 0) + %d)", lo)
	case 1:
		if lo < 0 {
			return fmt.Sprintf("(coalesce(a.i %% %d, 0))", 2+g.pick(3))
		}
		return fmt.Sprintf("(coalesce(abs(a.i %% %d), 1) + %d)", 2+g.pick(3), lo)
	case 2:
		return fmt.Sprintf("(coalesce(a.k, %d) - %d + %d)", g.pick(3), g.pick(3), lo+2)
	case 3:
		return fmt.Sprintf("(case when %s then %d else %d end)", g.pred(2), lo+g.pick(3), lo+g.pick(4))
	}
	return fmt.Sprint(max(lo, 0) + g.pick(3))
}

// rowsOffsetQuery: ROWS frames whose offsets are read at each row, over
// a total order, with the frame aggregates and the value functions.
func (g *Gen) rowsOffsetQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.i", "a.d", "a.s"}
	for n := 1 + g.pick(2); n > 0; n-- {
		var frame string
		// No frame whose end comes before its start at a row: DuckDB
		// 1.5.6 counts such a frame as a negative number of rows
		// (count(*) = -2) where gq and the standard see it empty. A
		// negative offset is drawn only opposite a start of 3 or more
		// rows back, which it cannot pass.
		switch g.pick(5) {
		case 0:
			frame = fmt.Sprintf("rows %s preceding", g.rowOffsetExpr(0))
		case 1:
			frame = fmt.Sprintf("rows between current row and %s following", g.rowOffsetExpr(0))
		case 2:
			frame = fmt.Sprintf("rows between unbounded preceding and %s following", g.rowOffsetExpr(0))
		case 3:
			frame = fmt.Sprintf("rows between %s preceding and %s following", g.rowOffsetExpr(3), g.rowOffsetExpr(-3))
		default:
			frame = fmt.Sprintf("rows between %s preceding and %s following", g.rowOffsetExpr(0), g.rowOffsetExpr(0))
		}
		call := g.frameAgg(t)
		if g.chance(30) {
			call = g.valueCall()
		}
		items = append(items, fmt.Sprintf("%s over (%sorder by %s %s)", call, g.partition(), g.totalOrder(), frame))
	}
	return g.selectFrom(t, items)
}

// windowValue draws the value a window function reads: a column, or an
// expression, of a kind it returns.
func (g *Gen) windowValue() (kind, string) {
	k := g.anyKind()
	x := g.col(k) // drawn first, as the families always did: the seeds draw the same queries
	if g.chance(30) {
		x = g.expr(k, 1)
	}
	return k, x
}

// ignoreNullsQuery: lag, lead, first_value, last_value and nth_value
// with IGNORE NULLS (or RESPECT NULLS) over a total order.
func (g *Gen) ignoreNullsQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.i", "a.s"}
	for n := 1 + g.pick(3); n > 0; n-- {
		k, x := g.windowValue()
		var args, frame string
		fn := []string{"lag", "lead", "first_value", "last_value", "nth_value"}[g.pick(5)]
		switch fn {
		case "lag", "lead":
			args = x
			switch g.pick(3) {
			case 1:
				args += fmt.Sprintf(", %d", g.pick(4))
			case 2:
				args += fmt.Sprintf(", %d, %s", g.pick(4), g.literal(k))
			}
		case "nth_value":
			args = fmt.Sprintf("%s, %d", x, 1+g.pick(3))
			fallthrough
		default:
			if args == "" {
				args = x
			}
			switch g.pick(3) {
			case 0:
				frame = " rows " + g.extent(rowOffset(g), false)
			case 1:
				frame = " range " + g.extent(nil, false)
			}
		}
		nulls := "ignore nulls"
		if g.chance(15) {
			nulls = "respect nulls"
		}
		over := fmt.Sprintf(" over (%sorder by %s%s)", g.partition(), g.totalOrder(), frame)
		items = append(items, dual(fmt.Sprintf("%s(%s) %s", fn, args, nulls)+over, fmt.Sprintf("%s(%s %s)", fn, args, nulls)+over))
	}
	return g.selectFrom(t, items)
}

// excludeQuery: frames with EXCLUDE CURRENT ROW | GROUP | TIES | NO
// OTHERS. ROWS frames order totally and may call the value functions;
// RANGE frames order by one key (peers matter to GROUP and TIES) and call
// aggregates whose answer does not depend on the order of peers.
func (g *Gen) excludeQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.i", "a.d"}
	for n := 1 + g.pick(2); n > 0; n-- {
		order, frame := g.frame()
		call := g.frameAgg(t)
		if strings.HasPrefix(frame, "rows") && g.chance(30) {
			call = g.valueCall()
		}
		if frame == "" {
			frame = "rows " + g.extent(rowOffset(g), false)
			order = "order by " + g.totalOrder()
		}
		frame += " exclude " + []string{"current row", "group", "ties", "no others"}[g.pick(4)]
		items = append(items, fmt.Sprintf("%s over (%s%s %s)", call, g.partition(), order, frame))
	}
	return g.selectFrom(t, items)
}

// qualifyQuery: QUALIFY over window calls whose answers do not depend on
// the order of peers, by alias or written out, with and without GROUP BY.
func (g *Gen) qualifyQuery() Query {
	t := g.oneTable()
	where := g.where()
	win := func() string {
		part := g.partition()
		switch g.pick(5) {
		case 0:
			return fmt.Sprintf("%s over (%sorder by %s)", []string{"rank()", "dense_rank()"}[g.pick(2)], part, g.orderKey(g.col(g.anyKind())))
		case 1:
			return fmt.Sprintf("row_number() over (%sorder by %s)", part, g.totalOrder())
		case 2:
			return fmt.Sprintf("count(*) over (%s)", part)
		case 3:
			return fmt.Sprintf("sum(a.i) over (%sorder by %s)", part, g.orderKey(g.col(g.anyKind())))
		}
		return fmt.Sprintf("lag(a.k) over (%sorder by %s)", part, g.totalOrder())
	}
	cmp := func(w string) string {
		if strings.HasPrefix(w, "lag") || strings.HasPrefix(w, "sum") {
			return fmt.Sprintf("%s %s %d", w, cmpOps[g.pick(len(cmpOps))], g.pick(5)-1)
		}
		return fmt.Sprintf("%s %s %d", w, []string{"=", "<=", ">", "<"}[g.pick(4)], 1+g.pick(3))
	}
	if g.chance(25) {
		// over a GROUP BY
		key := []string{"a.k", "a.s", "a.t"}[g.pick(3)]
		agg := []string{"count(*)", "sum(a.i)", "min(a.d)"}[g.pick(3)]
		order := g.orderKey(agg)
		if g.chance(50) {
			order += ", " + g.orderKey(key)
		}
		return Query{SQL: fmt.Sprintf("select %s, %s c from %s a where %s group by %s qualify %s() over (order by %s) %s %d",
			key, agg, t.name, where, key, []string{"rank", "dense_rank"}[g.pick(2)], order, []string{"=", "<="}[g.pick(2)], 1+g.pick(2))}
	}
	items := []string{"a.k", "a.i", "a.s"}
	var qual string
	if g.chance(50) {
		items = append(items, win()+" w")
		qual = cmp("w")
	} else {
		qual = cmp(win())
	}
	if g.chance(30) {
		qual = fmt.Sprintf("%s and %s", qual, g.pred(2))
	}
	return Query{SQL: fmt.Sprintf("select %s from %s a where %s qualify %s", strings.Join(items, ", "), t.name, where, qual)}
}

// valuesQuery: VALUES as a table (in parentheses with an alias, DuckDB's
// FROM VALUES … AS t(…), MySQL's VALUES ROW(…), a CTE, after UNION ALL),
// filtered, joined, aggregated and grouped.
func (g *Gen) valuesQuery() Query {
	ncol := 1 + g.pick(3)
	kinds := make([]kind, ncol)
	names := make([]string, ncol)
	var cols []genCol
	for c := range kinds {
		kinds[c] = []kind{kInt, kInt, kDec, kStr, kDate, kFloat}[g.pick(6)]
		names[c] = fmt.Sprintf("c%d", c)
		cols = append(cols, genCol{names[c], kinds[c]})
	}
	// MySQL's ROW(…) rows only in parentheses: gq takes DuckDB's FROM
	// VALUES … AS t(…) form without them.
	form := g.pick(6)
	row := form != 0 && g.chance(20)
	var rows []string
	for n := 1 + g.pick(5); n > 0; n-- {
		var cells []string
		for c := range kinds {
			switch {
			case g.chance(15):
				cells = append(cells, "null")
			case kinds[c] == kDec && g.chance(30):
				cells = append(cells, g.literal(kInt))
			default:
				cells = append(cells, g.literal(kinds[c]))
			}
		}
		r := "(" + strings.Join(cells, ", ") + ")"
		if row {
			r = dual("row"+r, r)
		}
		rows = append(rows, r)
	}
	vals := "values " + strings.Join(rows, ", ")
	alias := "v(" + strings.Join(names, ", ") + ")"
	g.scope = append(g.scope, scoped{"v", genTable{name: "v", cols: cols}})
	var items []string
	for n := 1 + g.pick(2); n > 0; n-- {
		items = append(items, g.expr(g.anyKindOf(cols), 1))
	}
	switch form {
	case 5:
		// grouped by a VALUES column (one of NULLs only among them)
		from := "(" + vals + ") " + alias
		key := "v." + names[g.pick(ncol)]
		return Query{SQL: fmt.Sprintf("select %s, count(*), %s from %s where %s group by %s", key, g.agg(), from, g.pred(2), key), From: from, Where: "true"}
	case 0:
		from := vals + " as " + alias
		q := Query{Select: strings.Join(items, ", "), From: from, Where: g.pred(2)}
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
		return q
	case 1:
		return Query{SQL: fmt.Sprintf("with %s as (%s) select %s from v where %s", alias, vals, strings.Join(items, ", "), g.pred(2))}
	case 2:
		// after UNION ALL: one column of the first kind
		var one []string
		for range rows {
			one = append(one, "("+g.literal(kinds[0])+")")
		}
		return Query{SQL: fmt.Sprintf("select %s from %s a union all values %s", g.literal(kinds[0]), g.tables[g.pick(len(g.tables))].name, strings.Join(one, ", "))}
	case 3:
		t := g.tables[g.pick(len(g.tables))]
		g.scope = append(g.scope, scoped{"a", t})
		var on string
		for c, k := range kinds {
			if k != kFloat && g.chance(70) {
				on = fmt.Sprintf("a.%s = v.%s", map[kind]string{kInt: "k", kDec: "d", kStr: "s", kDate: "t"}[k], names[c])
				break
			}
		}
		if on == "" {
			on = g.pred(2)
		}
		from := fmt.Sprintf("(%s) %s %s %s a on %s", vals, alias, []string{"join", "left join"}[g.pick(2)], t.name, on)
		sel := fmt.Sprintf("count(*), %s, %s", g.agg(), g.agg())
		return Query{SQL: fmt.Sprintf("select %s from %s", sel, from), From: from, Where: "true"}
	}
	from := "(" + vals + ") " + alias
	q := Query{Select: strings.Join(items, ", "), From: from, Where: g.pred(2), Plain: true}
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	return q
}

// anyKindOf draws a kind among cols' (so that expressions can use them).
func (g *Gen) anyKindOf(cols []genCol) kind {
	if g.chance(70) {
		return cols[g.pick(len(cols))].kind
	}
	return g.anyKind()
}

// concatOperand draws one operand of ||: a text or integer expression, a
// text literal or NULL (no DOUBLE, DECIMAL or DATE: see the exclusion of
// their texts). A compound operand is parenthesised, so that || joins
// what was drawn.
func (g *Gen) concatOperand() string {
	switch g.pick(6) {
	case 0:
		return "null"
	case 1:
		return "'" + diffStrings[g.pick(len(diffStrings))] + "'"
	case 2:
		return "(" + g.expr(kInt, 1) + ")"
	case 3:
		return "(" + g.expr(kStr, 1) + ")"
	}
	if c := g.col([]kind{kStr, kStr, kInt}[g.pick(3)]); c != "" {
		return c
	}
	return "'z'"
}

// concatItem draws a chain of ||, or one that meets + (which binds
// tighter: 1 + 2 || 3 is '33').
func (g *Gen) concatItem() string {
	if g.chance(20) {
		n := g.col(kInt)
		if n == "" {
			n = "1"
		}
		return fmt.Sprintf("%s + %d || %s", n, g.pick(5), g.concatOperand())
	}
	parts := []string{g.concatOperand(), g.concatOperand()}
	for n := g.pick(3); n > 0; n-- {
		parts = append(parts, g.concatOperand())
	}
	return strings.Join(parts, " || ")
}

// concatQuery: a || b as items, in predicates (x || y = 'ab', LIKE,
// IS NULL; || binds above comparisons) and as a group key.
func (g *Gen) concatQuery() Query {
	t := g.oneTable()
	pred := func() string {
		x := g.concatItem()
		switch g.pick(4) {
		case 0:
			return x + " is null"
		case 1:
			return fmt.Sprintf("%s like '%s%%'", x, []string{"a", "1", "", "h", "-"}[g.pick(5)])
		case 2:
			return fmt.Sprintf("%s %s '%s'", x, cmpOps[g.pick(len(cmpOps))], []string{"ab", "aa", "1a", "abcb", "0", "zz"}[g.pick(6)])
		}
		return fmt.Sprintf("%s = %s", x, g.concatItem())
	}
	if g.chance(25) {
		key := g.concatItem()
		for strings.Contains(key, "select") {
			key = g.concatItem() // see the exclusion of subqueries in keys
		}
		return Query{SQL: fmt.Sprintf("select %s, count(*), %s from %s a where %s group by %s", key, g.agg(), t.name, g.where(), key)}
	}
	var items []string
	for n := 1 + g.pick(3); n > 0; n-- {
		items = append(items, g.concatItem())
	}
	q := Query{Select: strings.Join(items, ", "), From: t.name + " a", Where: g.where(), Plain: true}
	if g.chance(50) {
		q.Where = pred()
	}
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	return q
}

// groupsAgg is a frame aggregate whose answer does not depend on the
// order of the frame's rows: no sum that may add DOUBLEs (peers come in
// no set order, and the order of additions shows).
func (g *Gen) groupsAgg() string {
	for {
		if call := g.windowAgg(); !doubleSum(call, false) {
			return call
		}
	}
}

// groupsQuery: GROUPS frames of constant offsets over an ORDER BY with
// ties (peer groups are what GROUPS counts).
func (g *Gen) groupsQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.i", "a.d"}
	for n := 1 + g.pick(2); n > 0; n-- {
		key := []string{"a.k", "(a.i % 3)", "a.s", "a.t", "(a.k % 2), a.s"}[g.pick(5)]
		var keys []string
		for _, e := range strings.Split(key, ", ") {
			keys = append(keys, g.orderKey(e))
		}
		lo, hi := g.pick(4), g.pick(4)
		var frame string
		switch g.pick(7) {
		case 0:
			frame = fmt.Sprintf("groups %d preceding", lo)
		case 1:
			frame = fmt.Sprintf("groups between %d preceding and %d following", lo, hi)
		case 2:
			frame = fmt.Sprintf("groups between current row and %d following", hi)
		case 3:
			frame = fmt.Sprintf("groups between %d following and %d following", min(lo, hi), max(lo, hi))
		case 4:
			frame = fmt.Sprintf("groups between %d preceding and %d preceding", max(lo, hi), min(lo, hi))
		case 5:
			frame = fmt.Sprintf("groups between unbounded preceding and %d following", hi)
		default:
			frame = fmt.Sprintf("groups between %d preceding and unbounded following", lo)
		}
		if g.chance(20) {
			frame += " exclude " + []string{"current row", "group", "ties", "no others"}[g.pick(4)]
		}
		items = append(items, fmt.Sprintf("%s over (%sorder by %s %s)", g.groupsAgg(), g.partition(), strings.Join(keys, ", "), frame))
	}
	return g.selectFrom(t, items)
}

// firstLastQuery: first(x ORDER BY …) and last(x ORDER BY …) over an
// order of every column (so the answer is determined), and entropy(x),
// grouped or not.
func (g *Gen) firstLastQuery() Query {
	t := g.oneTable()
	return g.groupedQuery(t, func([]string) []string {
		var items []string
		for n := 1 + g.pick(3); n > 0; n-- {
			if g.chance(30) {
				// no DOUBLE: -0 and 0 are one value or two by the hash
				items = append(items, fmt.Sprintf("entropy(%s)", g.expr([]kind{kInt, kDec, kStr, kDate}[g.pick(4)], 1)))
				continue
			}
			fn := []string{"first", "last"}[g.pick(2)]
			items = append(items, fmt.Sprintf("%s(%s order by %s)", fn, g.expr(g.anyKind(), 1), g.totalOrder()))
		}
		return items
	})
}

// rowCount draws a count for lag/lead/nth_value read at each row: small,
// NULL at times (a.k has NULLs), negative at times.
func (g *Gen) rowCount() string {
	return []string{"a.k", "(a.k - 2)", "(a.i % 3)", "(a.k * 2 - 3)", "(case when a.i > 0 then 1 else -1 end)",
		"(case when a.s = '' then null else 2 end)", "abs(a.i % 4)", "(1 - a.k)"}[g.pick(8)]
}

// lagColQuery: lag(x, k), lead(x, k, d) and nth_value(x, n) with k or n
// read at each row, over a total order.
func (g *Gen) lagColQuery() Query {
	t := g.oneTable()
	items := []string{"a.k", "a.i", "a.s"}
	for n := 1 + g.pick(3); n > 0; n-- {
		k, x := g.windowValue()
		var call, frame string
		switch g.pick(3) {
		case 0:
			call = fmt.Sprintf("lag(%s, %s)", x, g.rowCount())
		case 1:
			fn := []string{"lag", "lead"}[g.pick(2)]
			call = fmt.Sprintf("%s(%s, %s, %s)", fn, x, g.rowCount(), g.literal(k))
		default:
			call = fmt.Sprintf("nth_value(%s, %s)", x, g.rowCount())
			if g.chance(60) {
				frame = " rows " + g.extent(rowOffset(g), false)
			}
		}
		items = append(items, fmt.Sprintf("%s over (%sorder by %s%s)", call, g.partition(), g.totalOrder(), frame))
	}
	return g.selectFrom(t, items)
}

// recursiveQuery: small WITH RECURSIVE CTEs: counting series under a
// bound (UNION ALL), a cycle that UNION's dedup ends, two columns, a
// seed read from a table, strings grown by ||; aggregated, filtered or
// joined with a table.
func (g *Gen) recursiveQuery() Query {
	start, step, bound := g.pick(7)-3, 1+g.pick(3), g.pick(30)
	var cte string
	cols := "r.n"
	switch g.pick(5) {
	case 0:
		cte = fmt.Sprintf("r(n) as (select %d union all select n + %d from r where n < %d)", start, step, bound)
	case 1:
		// ends because UNION drops the rows it has seen
		cte = fmt.Sprintf("r(n) as (select %d union select (n + %d) %% %d from r)", start, step, 2+g.pick(9))
	case 2:
		cte = fmt.Sprintf("r(n, m) as (select %d, cast(1 as bigint) union all select n + %d, m * 2 from r where n < %d)", start, step, bound)
		cols = "r.n, r.m" // m is BIGINT: DuckDB's literal 1 is an INTEGER, 2^31 its overflow
	case 3:
		t := g.tables[g.pick(len(g.tables))]
		cte = fmt.Sprintf("r(n) as (select a.k from %s a where %s union all select n + 1 from r where n < %d)", t.name, []string{"a.i > 0", "true", "a.k = 2"}[g.pick(3)], g.pick(7))
	default:
		cte = fmt.Sprintf("r(n) as (select 'a' union all select n || '%s' from r where length(n) < %d)", []string{"b", "", "xy"}[g.pick(3)], 1+g.pick(5))
		if strings.Contains(cte, "''") {
			cte = strings.Replace(cte, "union all", "union", 1) // '' would never end under UNION ALL
		}
		if g.chance(50) {
			return Query{SQL: "with recursive " + cte + " select n, length(n) from r"}
		}
		return Query{SQL: "with recursive " + cte + " select count(*), min(n), max(n) from r"}
	}
	switch g.pick(4) {
	case 0:
		return Query{SQL: fmt.Sprintf("with recursive %s select %s from r", cte, cols)}
	case 1:
		return Query{SQL: fmt.Sprintf("with recursive %s select count(*), sum(r.n), min(r.n), max(r.n), count(distinct r.n) from r", cte)}
	case 2:
		return Query{SQL: fmt.Sprintf("with recursive %s select %s from r where r.n %% 2 = %d", cte, cols, g.pick(2))}
	}
	t := g.tables[g.pick(len(g.tables))]
	join := []string{"join", "left join"}[g.pick(2)]
	return Query{SQL: fmt.Sprintf("with recursive %s select r.n, count(a.k), sum(a.i) from r %s %s a on a.k = r.n group by r.n", cte, join, t.name)}
}
