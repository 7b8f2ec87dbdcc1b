package duckdb

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The wide-number slice of the differential tester (issue 27): DECIMAL(38)
// columns at scales 0, 2, 10 and 18 holding values near ±10^17 and near
// the top of their 38 digits, a DECIMAL(18,2) and a BIGINT column to mix
// with them, NULLs everywhere, and a million-row table whose sums pass
// 2^63. Queries do + - and × by small integers, × of two DECIMAL(18,2)
// expressions, unary minus, abs, floor,
// ceil, sign, casts between the widths and scales, CASE and COALESCE,
// comparisons, IN and BETWEEN, joins on wide keys, and sum/min/max/count
// (with GROUP BY). Answers are compared exactly (CompareExact): a
// decimal's every digit counts.
//
// Exclusions, each with its reason:
//   - / and AVG: DuckDB's are DOUBLE, gq's DECIMAL (MySQL's rule).
//   - round: DuckDB keeps the argument's scale, gq (MySQL) takes the
//     digits asked for.
//   - CASE/COALESCE/+/- between two wide scales: their common type needs
//     more than 38 digits, where DuckDB drops scale; each expression keeps
//     to one scale, and other scales come in through explicit casts.
//   - integer literals past BIGINT: DuckDB's are HUGEINT (overflow at
//     2^127, not 10^38); wide constants are casts of decimal literals.

// wideKinds are the wide slice's expression kinds: a DECIMAL(38,s) per
// scale, DECIMAL(18,2) and BIGINT.
type wideKind struct {
	scale int // decimal scale (BIGINT: 0)
	digit int // integer digits a value may have
	cols  []string
	typ   string // SQL type of a cast to the kind ("": none)
}

var wideKinds = []wideKind{
	{0, 38, []string{"a"}, "decimal(38,0)"},
	{2, 36, []string{"b"}, "decimal(38,2)"},
	{10, 28, []string{"c"}, "decimal(38,10)"},
	{18, 20, []string{"e"}, "decimal(38,18)"},
	{2, 16, []string{"n"}, "decimal(18,2)"},
	{0, 18, []string{"i", "k"}, ""},
}

const wkBigint = 5 // index of BIGINT in wideKinds

var wideColumns = []arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "n", Type: &arrow.Decimal128Type{Precision: 18, Scale: 2}, Nullable: true},
	{Name: "a", Type: &arrow.Decimal128Type{Precision: 38, Scale: 0}, Nullable: true},
	{Name: "b", Type: &arrow.Decimal128Type{Precision: 38, Scale: 2}, Nullable: true},
	{Name: "c", Type: &arrow.Decimal128Type{Precision: 38, Scale: 10}, Nullable: true},
	{Name: "e", Type: &arrow.Decimal128Type{Precision: 38, Scale: 18}, Nullable: true},
}

// wideTables are the slice's tables; w_big has a million rows.
var wideTables = []string{"w0", "w1", "w_ext", "w_big"}

// WriteWideTables writes w0, w1, w_ext and w_big as Parquet files into
// dir, drawn from seed.
func WriteWideTables(dir string, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x38d))
	tables := map[string][][]any{
		"w0":    wideRows(r, 40, false),
		"w1":    wideRows(r, 25, false),
		"w_ext": wideExtremes(),
		"w_big": wideRows(r, 1_000_000, true),
	}
	for name, rows := range tables {
		if err := writeRowsParquet(filepath.Join(dir, name+".parquet"), wideColumns, rows, 64*1024); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// wideValue draws an unscaled value of about digits digits (near 10^17
// at the scale, or near the column's top), sometimes small or zero.
func wideValue(r *rand.Rand, scale, digits int, inBig bool) *big.Int {
	v := new(big.Int)
	switch r.IntN(5) {
	case 0: // small
		v.SetInt64(r.Int64N(2001) - 1000)
	case 1, 2: // near 10^17 in value (10^15 for DECIMAL(18,2))
		v.Exp(bigTen, big.NewInt(int64(min(17, digits-1)+scale)), nil)
		v.Add(v, big.NewInt(r.Int64N(1_000_000_000)-500_000_000))
	default: // near the top of the column's digits
		d := digits + scale - 1
		if inBig {
			d -= 7 // a million of them must sum within 38 digits
		}
		v.Exp(bigTen, big.NewInt(int64(d)), nil)
		v.Mul(v, big.NewInt(1+r.Int64N(9)))
		v.Add(v, big.NewInt(r.Int64N(1_000_000_000)))
	}
	if r.IntN(2) == 0 {
		v.Neg(v)
	}
	return v
}

var bigTen = big.NewInt(10)

func wideRows(r *rand.Rand, n int, bigTable bool) [][]any {
	rows := make([][]any, n)
	for j := range rows {
		row := make([]any, len(wideColumns))
		row[0] = int64(r.IntN(5))
		if bigTable {
			row[0] = int64(r.IntN(10))
		}
		row[1] = r.Int64N(1<<62) * int64(1-2*r.IntN(2))
		if r.IntN(4) == 0 {
			row[1] = r.Int64N(2001) - 1000
		}
		row[2] = r.Int64N(2_000_000_000_000_000_000) - 1_000_000_000_000_000_000 // DECIMAL(18,2)
		if bigTable {                                                            // n·n summed over a million rows stays within 38 digits
			row[2] = r.Int64N(2_000_000_000_000_000) - 1_000_000_000_000_000
		}
		for c, k := range []wideKind{wideKinds[0], wideKinds[1], wideKinds[2], wideKinds[3]} {
			row[3+c] = wideValue(r, k.scale, k.digit, bigTable)
		}
		if !bigTable {
			for c := range row {
				if r.IntN(7) == 0 {
					row[c] = nil
				}
			}
		}
		rows[j] = row
	}
	return rows
}

// wideExtremes are the largest values of each column, ±1, 0 and NULL.
func wideExtremes() [][]any {
	top := func(digits int) *big.Int {
		v := new(big.Int).Exp(bigTen, big.NewInt(int64(digits)), nil)
		return v.Sub(v, big.NewInt(1))
	}
	neg := func(v *big.Int) *big.Int { return new(big.Int).Neg(v) }
	const max18 = 999_999_999_999_999_999
	return [][]any{
		{int64(0), int64(9223372036854775807), int64(max18), top(38), top(38), top(38), top(38)},
		{int64(1), int64(-9223372036854775808), int64(-max18), neg(top(38)), neg(top(38)), neg(top(38)), neg(top(38))},
		{int64(2), int64(1), int64(1), big.NewInt(1), big.NewInt(1), big.NewInt(1), big.NewInt(1)},
		{int64(3), int64(-1), int64(-1), big.NewInt(-1), big.NewInt(-1), big.NewInt(-1), big.NewInt(-1)},
		{int64(4), int64(0), int64(0), big.NewInt(0), big.NewInt(0), big.NewInt(0), big.NewInt(0)},
		{nil, nil, nil, nil, nil, nil, nil},
	}
}

// WideGen draws the wide slice's queries.
type WideGen struct {
	r *rand.Rand
}

// NewWideGen returns the wide slice's generator.
func NewWideGen(seed uint64) *WideGen {
	return &WideGen{r: rand.New(rand.NewPCG(seed, 0x1d38))}
}

func (g *WideGen) pick(n int) int    { return g.r.IntN(n) }
func (g *WideGen) chance(p int) bool { return g.r.IntN(100) < p }

// literal is a constant of kind k: a cast of a decimal literal (integer
// literals past BIGINT are HUGEINT in DuckDB).
func (g *WideGen) literal(k int) string {
	wk := wideKinds[k]
	if k == wkBigint {
		return []string{"0", "1", "-7", "9223372036854775807", "-9223372036854775807", fmt.Sprint(g.r.Int64N(2001) - 1000)}[g.pick(6)]
	}
	v := wideValue(g.r, wk.scale, wk.digit, false)
	if g.chance(20) {
		v.SetInt64(g.r.Int64N(21) - 10)
	}
	return fmt.Sprintf("cast(%s as %s)", scaledText(v, wk.scale), wk.typ)
}

// scaledText writes the unscaled v at scale s ("-12.30").
func scaledText(v *big.Int, s int) string {
	t := new(big.Int).Abs(v).String()
	if s > 0 {
		if len(t) <= s {
			t = strings.Repeat("0", s-len(t)+1) + t
		}
		t = t[:len(t)-s] + "." + t[len(t)-s:]
	}
	if v.Sign() < 0 {
		t = "-" + t
	}
	return t
}

func (g *WideGen) col(k int, alias string) string {
	cs := wideKinds[k].cols
	return alias + "." + cs[g.pick(len(cs))]
}

// expr draws an expression of kind k over alias's columns.
func (g *WideGen) expr(k, depth int, alias string) string {
	if depth > 2 || g.chance(40) {
		if g.chance(75) {
			return g.col(k, alias)
		}
		return g.literal(k)
	}
	d := depth + 1
	switch g.pick(10) {
	case 0:
		return fmt.Sprintf("(%s + %s)", g.expr(k, d, alias), g.expr(k, d, alias))
	case 1:
		return fmt.Sprintf("(%s - %s)", g.expr(k, d, alias), g.expr(k, d, alias))
	case 2:
		return fmt.Sprintf("(%s * %d)", g.expr(k, d, alias), g.r.IntN(21)-10)
	case 3:
		return fmt.Sprintf("(- %s)", g.expr(k, d, alias))
	case 4:
		return fmt.Sprintf("abs(%s)", g.expr(k, d, alias))
	case 5:
		return fmt.Sprintf("coalesce(%s, %s)", g.expr(k, d, alias), g.expr(k, d, alias))
	case 6:
		return fmt.Sprintf("case when %s then %s else %s end", g.pred(d, alias), g.expr(k, d, alias), g.expr(k, d, alias))
	case 7:
		// Another kind cast in: exact where the scale grows, rounded half
		// away from zero where it shrinks, an error where digits do not fit.
		// (Not to BIGINT: MySQL spells it SIGNED, which DuckDB does not
		// know.)
		if k == wkBigint {
			break
		}
		from := g.pick(len(wideKinds))
		return fmt.Sprintf("cast(%s as %s)", g.expr(from, d, alias), wideKinds[k].typ)
	case 8:
		if k == 0 {
			f := []string{"floor", "ceil"}[g.pick(2)]
			return fmt.Sprintf("%s(%s)", f, g.expr(1+g.pick(3), d, alias))
		}
	}
	return fmt.Sprintf("case when %s then %s end", g.pred(d, alias), g.expr(k, d, alias))
}

// pred draws a condition over alias's columns.
func (g *WideGen) pred(depth int, alias string) string {
	d := depth + 1
	k := g.pick(len(wideKinds))
	switch g.pick(9) {
	case 0:
		if depth < 2 {
			return fmt.Sprintf("(%s and %s)", g.pred(d, alias), g.pred(d, alias))
		}
	case 1:
		if depth < 2 {
			return fmt.Sprintf("(%s or %s)", g.pred(d, alias), g.pred(d, alias))
		}
	case 2:
		return fmt.Sprintf("(%s is null)", g.expr(k, d, alias))
	case 3:
		return fmt.Sprintf("(%s between %s and %s)", g.expr(k, d, alias), g.literal(k), g.literal(k))
	case 4:
		var l []string
		for j := 1 + g.pick(3); j > 0; j-- {
			l = append(l, g.literal(k))
		}
		if g.chance(50) {
			l = append(l, g.col(k, alias))
		}
		not := ""
		if g.chance(30) {
			not = " not"
		}
		return fmt.Sprintf("(%s%s in (%s))", g.expr(k, d, alias), not, strings.Join(l, ", "))
	case 5:
		// Across kinds, where their common type has 38 digits at most
		// (DuckDB compares in it; DECIMAL(38,0) with DECIMAL(18,2) would
		// need 40 and fail its cast).
		k2 := []int{k, 4, wkBigint}[g.pick(3)]
		if k == 0 && k2 == 4 {
			k2 = wkBigint
		}
		return fmt.Sprintf("(%s %s %s)", g.expr(k, d, alias), cmpOps[g.pick(len(cmpOps))], g.col(k2, alias))
	case 6:
		return fmt.Sprintf("(sign(%s) = %d)", g.expr(k, d, alias), g.pick(3)-1)
	}
	return fmt.Sprintf("(%s %s %s)", g.expr(k, d, alias), cmpOps[g.pick(len(cmpOps))], g.expr(k, d, alias))
}

// product draws a product of two DECIMAL(18,2) expressions (TPC-H's
// l_extendedprice * (1 - l_discount) shape), past int64 where values near
// 10^15 meet. gq types it DECIMAL(p1+p2, 4) and answers up to 38 digits;
// DuckDB 1.5 keeps DECIMAL(18,4) and reports an overflow past 18 digits
// (a range error in DuckDB only, not a mismatch): where both answer, the
// values must agree.
func (g *WideGen) product(alias string) string {
	return fmt.Sprintf("(%s * %s)", g.expr(4, 2, alias), g.expr(4, 2, alias))
}

// agg draws an aggregate of a wide, DECIMAL(18,2) or BIGINT expression,
// or of a product of two DECIMAL(18,2) ones.
func (g *WideGen) agg(alias string) string {
	k := g.pick(len(wideKinds))
	e := g.expr(k, 1, alias)
	if g.chance(15) {
		e = g.product(alias)
	}
	switch g.pick(6) {
	case 0, 1:
		return fmt.Sprintf("sum(%s)", e)
	case 2:
		return fmt.Sprintf("min(%s)", e)
	case 3:
		return fmt.Sprintf("max(%s)", e)
	case 4:
		return fmt.Sprintf("count(distinct %s)", e)
	}
	return fmt.Sprintf("count(%s)", e)
}

// Next draws one query: plain rows, an aggregate (grouped or not), a join
// on a wide key, or a sum over w_big's million rows.
func (g *WideGen) Next() Query {
	small := []string{"w0", "w1", "w_ext"}
	t := small[g.pick(len(small))]
	var q Query
	switch p := g.pick(20); {
	case p < 8: // plain
		q.From = t + " x"
		q.Where = g.pred(0, "x")
		var items []string
		for j := 1 + g.pick(3); j > 0; j-- {
			if g.chance(15) {
				items = append(items, g.product("x"))
				continue
			}
			items = append(items, g.expr(g.pick(len(wideKinds)), 0, "x"))
		}
		q.Select = strings.Join(items, ", ")
		q.Plain = true
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	case p < 15: // aggregate
		q.From = t + " x"
		q.Where = g.pred(1, "x")
		var items []string
		group := g.chance(50)
		if group {
			items = append(items, "x.k")
		}
		for j := 1 + g.pick(3); j > 0; j-- {
			items = append(items, g.agg("x"))
		}
		q.Select = strings.Join(items, ", ")
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
		if group {
			q.SQL += " group by x.k"
		}
	case p < 18: // a join on a wide key (or k), rows or sums
		u := small[g.pick(len(small))]
		key := []string{"a", "b", "c", "e", "n", "k"}[g.pick(6)]
		q.From = fmt.Sprintf("%s x join %s y on x.%s = y.%s", t, u, key, key)
		if g.chance(30) {
			// Across scales: the key meets at the wider scale.
			q.From = fmt.Sprintf("%s x join %s y on x.b = y.%s", t, u, []string{"n", "k", "i"}[g.pick(3)])
		}
		q.Where = g.pred(1, "x")
		if g.chance(50) {
			q.Select = fmt.Sprintf("x.k, %s, %s", g.expr(g.pick(len(wideKinds)), 1, "x"), g.expr(g.pick(len(wideKinds)), 1, "y"))
			q.Plain = true
		} else {
			q.Select = fmt.Sprintf("count(*), %s, %s", g.agg("x"), g.agg("y"))
		}
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	default: // a million rows
		q.From = "w_big x"
		q.Where = "true"
		if g.chance(50) {
			q.Where = fmt.Sprintf("(x.k %s %d)", cmpOps[g.pick(len(cmpOps))], g.pick(10))
		}
		col := []string{"x.i", "x.n", "x.a", "x.b", "x.c", "x.e", "(x.n * x.n)", "(x.b + x.b)", "(x.i - x.k)", "cast(x.e as decimal(38,10))"}[g.pick(10)]
		q.Select = fmt.Sprintf("x.k, sum(%s), count(%s), min(%s), max(%s)", col, col, col, col)
		q.SQL = fmt.Sprintf("select %s from %s where %s group by x.k", q.Select, q.From, q.Where)
	}
	return q
}
