package duckdb

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The aggregates beyond count/sum/avg/min/max (median, mad, quantile_cont,
// quantile_disc, mode, string_agg, any_value, stddev/var, bit_*, bool_*,
// covar/corr/regr_*, arg_max/arg_min)
// for the differential tester: half the queries group by 0–2 columns,
// half call them over windows (with lag/lead at negative offsets).
//
// Exclusions, each with its reason:
//   - std, stddev and variance: MySQL's are population statistics,
//     DuckDB's sample ones (the _pop/_samp names are drawn instead).
//   - string_agg and mode under GROUP BY, and any_value of anything but a
//     group key, without an ORDER BY inside the call: their answers depend
//     on the order rows arrive in, which neither engine fixes. They are
//     drawn with a total ORDER BY inside the call, or over windows with a
//     total order, where the frame's order decides (mode over windows
//     only with its own ORDER BY: DuckDB breaks ties otherwise by its
//     algorithm's state).
//   - arg_max and arg_min of a first argument that is not a function of
//     the second: of rows tied on the greatest value the first to
//     arrive wins (argMaxAgg).
//   - quantile_cont of DATE: DuckDB interpolates to a TIMESTAMP, gq
//     refuses it.
//   - median, quantile_cont and mad of expressions with the 16-digit
//     literal 9999999999999999.99: past 2^53 units both engines
//     interpolate DECIMAL(38) values in doubles, but DuckDB also where
//     the two values are equal (its median of 9999999999999999.99 twice
//     is 10000000000000000.00; gq's is the value), and its mad's
//     deviations carry that rounding (0.55 where every deviation is a
//     multiple of 0.50). Seeds 21 and 22 met it once in 10,000 each.
//   - the DOUBLE statistics (stddev/var, covar, corr, regr_*) of
//     expressions with a literal of 16 or more digits
//     (9999999999999999.99, ±9223372036854775807/8): such a literal is an
//     offset past 2^53 added to values a few thousand apart, so the
//     doubles the statistics sum are whole ulps (2 to 2048) wide, and
//     their cancelling sums (Σx² − (Σx)²/n and the like) keep only the
//     ulps' noise. Two correct engines then differ past any tolerance by
//     their update formulas alone (DuckDB's Welford steps against gq's
//     merges): seeds 51 and 53 met seven such. t_ext's own extremes
//     (±MaxInt64, ±9999999999999999.99) are still drawn: values that far
//     apart are well conditioned, and a wrong conversion or overflow
//     there would show.

// NewAggGen returns a generator of queries over the generated tables
// (see diff_tables.go) calling those aggregates.
func NewAggGen(seed uint64) *Gen {
	g := NewDiffGen(seed)
	g.r = rand.New(rand.NewPCG(seed, 0xa66a))
	g.moreAggs = true
	g.Corr = 0
	return g.withoutNaNs()
}

// moreAggQuery draws one query over one table.
func (g *Gen) moreAggQuery() Query {
	g.scope = g.scope[:0]
	t := g.tables[g.pick(len(g.tables))]
	g.scope = append(g.scope, scoped{"a", t})
	var q Query
	q.From = t.name + " a"
	q.Where = "true"
	if g.chance(40) {
		q.Where = g.pred(1)
	}
	if g.chance(50) {
		var groups []string
		for j := g.pick(3); j > 0; j-- {
			groups = append(groups, g.groupCol())
		}
		items := append([]string{}, groups...)
		g.inGroupBy = true
		defer func() { g.inGroupBy = false }()
		for j := 1 + g.pick(3); j > 0; j-- {
			if g.chance(20) {
				// ORDER BY inside the call, total: the order-dependent
				// aggregates become deterministic.
				items = append(items, g.orderedAgg())
				continue
			}
			items = append(items, g.moreAgg(false, groups))
		}
		q.Select = strings.Join(items, ", ")
		q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
		if len(groups) > 0 {
			q.SQL += " group by " + strings.Join(groups, ", ")
		}
		return q
	}
	var items []string
	for _, c := range t.cols {
		items = append(items, "a."+c.name)
	}
	var named []string
	for j := 1 + g.pick(2); j > 0; j-- {
		part := g.partition()
		if g.chance(10) {
			// lag/lead with a negative offset (the other direction).
			k := g.anyKind()
			call := fmt.Sprintf("%s(%s, -%d", []string{"lag", "lead"}[g.pick(2)], g.expr(k, 1), g.pick(4))
			if g.chance(50) {
				call += ", " + g.literal(k)
			}
			items = append(items, call+")"+g.over(&named, part, "order by "+g.totalOrder(), ""))
			continue
		}
		if g.chance(40) {
			// Order-dependent aggregates: a total order, ROWS frames or
			// RANGE ones whose peers are identical rows.
			call := g.moreAgg(true, nil)
			if g.chance(30) {
				call = g.orderedAgg()
			}
			frame := "rows " + g.extent(rowOffset(g), false)
			if g.chance(30) {
				frame = "range " + g.extent(nil, false)
			}
			items = append(items, call+g.over(&named, part, "order by "+g.totalOrder(), frame))
			continue
		}
		order, frame := g.frame()
		call := g.moreAgg(false, nil)
		if g.chance(15) {
			// DISTINCT over a frame: each value once.
			x := g.expr([]kind{kInt, kDec}[g.pick(2)], 1)
			call = []string{"sum(distinct %s)", "avg(distinct %s)", "median(distinct %s)", "count(distinct %s)"}[g.pick(4)]
			call = fmt.Sprintf(call, x)
		}
		items = append(items, call+g.over(&named, part, order, frame))
	}
	q.Select = strings.Join(items, ", ")
	q.SQL = fmt.Sprintf("select %s from %s where %s", q.Select, q.From, q.Where)
	if len(named) > 0 {
		q.SQL += " window " + strings.Join(named, ", ")
	}
	return q
}

// moreAgg draws one call; ordered: the order-dependent ones (string_agg,
// mode, any_value), else the others, any_value of a group key only.
func (g *Gen) moreAgg(ordered bool, groups []string) string {
	num := func() string { return g.expr([]kind{kInt, kInt, kDec, kFloat}[g.pick(4)], 1) }
	// interp is num for the interpolating aggregates, without the
	// 16-digit decimal literal (see the known difference above).
	interp := func() string {
		for range 8 {
			if e := num(); !strings.Contains(e, "9999999999999999") {
				return e
			}
		}
		return "a.k"
	}
	// stat is num for the DOUBLE statistics, without the 16-digit and
	// 19-digit literals (see the exclusion above).
	stat := func() string {
		for range 8 {
			if e := num(); !strings.Contains(e, "9999999999999999") && !strings.Contains(e, "922337203685477580") {
				return e
			}
		}
		return "a.d"
	}
	frac := func() string { return []string{"0", "0.1", "0.25", "0.5", "0.75", "0.9", "1", "0.333"}[g.pick(8)] }
	if ordered {
		switch g.pick(2) {
		case 0:
			sep := []string{"','", "' | '", "''"}[g.pick(3)]
			if g.chance(30) {
				return fmt.Sprintf("string_agg(%s)", g.expr(kStr, 1))
			}
			return fmt.Sprintf("string_agg(%s, %s)", g.expr(kStr, 1), sep)
		}
		return fmt.Sprintf("any_value(%s)", g.expr(g.anyKind(), 1))
	}
	dist := ""
	if groups != nil && g.chance(15) {
		dist = "distinct "
	}
	switch g.pick(11) {
	case 9:
		fn := []string{"covar_pop", "covar_samp", "corr", "regr_count", "regr_slope", "regr_intercept", "regr_r2",
			"regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy"}[g.pick(12)]
		return fmt.Sprintf("%s(%s, %s)", fn, stat(), stat())
	case 10:
		return g.argMaxAgg()
	case 0:
		if g.chance(20) {
			return fmt.Sprintf("median(%s%s)", dist, g.expr(kStr, 1))
		}
		return fmt.Sprintf("median(%s%s)", dist, interp())
	case 1:
		return fmt.Sprintf("quantile_cont(%s%s, %s)", dist, interp(), frac())
	case 2:
		return fmt.Sprintf("quantile_disc(%s%s, %s)", dist, g.expr(g.anyKind(), 1), frac())
	case 3:
		fn := []string{"stddev_pop", "stddev_samp", "var_pop", "var_samp"}[g.pick(4)]
		return fmt.Sprintf("%s(%s)", fn, stat())
	case 4:
		fn := []string{"bit_and", "bit_or", "bit_xor"}[g.pick(3)]
		return fmt.Sprintf("%s(%s)", fn, g.expr(kInt, 1))
	case 5:
		fn := []string{"bool_and", "bool_or"}[g.pick(2)]
		return fmt.Sprintf("%s(%s)", fn, g.pred(1))
	case 6:
		if len(groups) > 0 {
			return fmt.Sprintf("any_value(%s)", groups[g.pick(len(groups))])
		}
	case 7:
		if g.chance(50) {
			return fmt.Sprintf("mad(%s%s)", dist, interp())
		}
		return fmt.Sprintf("median(%s%s)", dist, g.col([]kind{kInt, kDec, kFloat}[g.pick(3)]))
	}
	return fmt.Sprintf("quantile_disc(%s%s, %s)", dist, g.col(g.anyKind()), frac())
}

// argMaxAgg draws arg_max/arg_min (max_by/min_by) whose first argument is
// a function of the second alone, so that which of two rows with the
// greatest value wins (the order rows arrive in) cannot change the answer.
func (g *Gen) argMaxAgg() string {
	fn := []string{"arg_max", "arg_min", "max_by", "min_by"}[g.pick(4)]
	k := []kind{kInt, kDec, kStr, kDate, kFloat}[g.pick(5)]
	v := g.col(k)
	if v == "" {
		v = "a.i"
		k = kInt
	}
	arg := v
	switch k {
	case kInt:
		arg = []string{v, "(" + v + " * 2)", "abs(" + v + ")", "cast(" + v + " as char)"}[g.pick(4)]
	case kDec:
		arg = []string{v, "(" + v + " + 1)", "abs(" + v + ")"}[g.pick(3)]
	case kStr:
		arg = []string{v, "upper(" + v + ")", "length(" + v + ")"}[g.pick(3)]
	case kDate:
		arg = []string{v, "year(" + v + ")"}[g.pick(2)]
	case kFloat:
		arg = []string{v, "(" + v + " * 2)"}[g.pick(2)]
	}
	return fmt.Sprintf("%s(%s, %s)", fn, arg, v)
}

// orderedAgg draws string_agg, mode or any_value with a total ORDER BY
// inside the call, or over a window list (whose GROUP BY form with an
// ORDER BY gq refuses).
func (g *Gen) orderedAgg() string {
	order := " order by " + g.totalOrder()
	if !g.inGroupBy && g.chance(20) {
		return fmt.Sprintf("list(%s%s)", g.expr(g.anyKind(), 1), order)
	}
	switch g.pick(3) {
	case 0:
		return fmt.Sprintf("string_agg(%s, '%s'%s)", g.expr(kStr, 1), []string{",", ";", ""}[g.pick(3)], order)
	case 1:
		return fmt.Sprintf("mode(%s%s)", g.expr(g.anyKind(), 1), order)
	}
	return fmt.Sprintf("any_value(%s%s)", g.expr(g.anyKind(), 1), order)
}
