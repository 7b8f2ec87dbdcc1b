package duckdb

import "fmt"

// The timestamp slice of the differential tester: the generated tables'
// ts column (TIMESTAMP, µs) in expressions, predicates, joins, groups and
// aggregates, beside every other kind. TIMESTAMP expressions are the
// column, literals (to the µs), ± INTERVAL n unit, date_trunc, a DATE
// cast to DATETIME or with ::timestamp, COALESCE and CASE, and INTERVAL
// n unit written on its own (INTERVAL n unit + ts, ts + (INTERVAL a unit
// + INTERVAL b unit)) or as INTERVAL 'n units'; BIGINT ones from a
// timestamp are EXTRACT of a part (MySQL's units and DuckDB's dow,
// isodow, doy), date_part('dow'|'doy'|'week'), date_diff and
// count(DISTINCT ts − ts) (INTERVAL keys); a DATE from one ts::date. Predicates compare intervals (ts − ts with
// INTERVAL n unit or another ts − ts: DuckDB's normal-form order).
// Left out, with the reason:
//
//   - timestamp − timestamp as a result column or GROUP BY key other than
//     counted (an INTERVAL is compared as text; a group of equal intervals
//     of different text shows either);
//   - TIMESTAMPTZ (its text depends on DuckDB's TimeZone setting);
//   - epoch (a DOUBLE) and strftime (tested in testdata/sql instead);
//   - comparisons with string constants (MySQL reads them as the other
//     side's type, DuckDB too, but the generator's strings are no dates).

// NewTimestampGen returns a generator over the generated tables with their
// ts column.
func NewTimestampGen(seed uint64) *Gen {
	g := NewDiffGen(seed)
	g.ts = true
	for i := range g.tables {
		g.tables[i].cols = append(append([]genCol{}, g.tables[i].cols...), genCol{"ts", kTs})
	}
	for _, a := range g.tables {
		for _, b := range g.tables {
			g.joins = append(g.joins, joinEdge{a.name, "ts", b.name, "ts"})
		}
	}
	return g
}

// tsLiteral draws a TIMESTAMP literal in the tables' years, to the second
// or the µs.
func (g *Gen) tsLiteral() string {
	s := fmt.Sprintf("timestamp '%d-%02d-%02d %02d:%02d:%02d", 1993+g.pick(7), 1+g.pick(12), 1+g.pick(28), g.pick(24), g.pick(60), g.pick(60))
	if g.chance(30) {
		s += fmt.Sprintf(".%06d", g.pick(1000000))
	}
	return s + "'"
}

var (
	tsUnits  = []string{"microsecond", "second", "minute", "hour", "day", "week", "month", "quarter", "year"}
	tsTruncs = []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}
	tsParts  = []string{"year", "quarter", "month", "day", "hour", "minute", "second", "microsecond"}
	tsDiffs  = []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}
)

// tsExpr draws a TIMESTAMP expression (k kTs) or a BIGINT from one (k
// kInt); "" leaves it to the other kinds' rules.
func (g *Gen) tsExpr(k kind, d int) string {
	if k == kInt {
		switch g.pick(6) {
		case 0, 1:
			return fmt.Sprintf("extract(%s from %s)", tsParts[g.pick(len(tsParts))], g.expr(kTs, d))
		case 2:
			return fmt.Sprintf("date_part('%s', %s)", []string{"dow", "doy", "week"}[g.pick(3)], g.expr(kTs, d))
		case 3:
			return fmt.Sprintf("extract(%s from %s)", []string{"dow", "isodow", "doy"}[g.pick(3)], g.expr(kTs, d))
		}
		return fmt.Sprintf("date_diff('%s', %s, %s)", tsDiffs[g.pick(len(tsDiffs))], g.expr(kTs, d), g.expr(kTs, d))
	}
	if k == kDate {
		return fmt.Sprintf("(%s)::date", g.expr(kTs, d))
	}
	switch g.pick(10) {
	case 7:
		return fmt.Sprintf("(interval %d %s + %s)", g.pick(100), tsUnits[g.pick(len(tsUnits))], g.expr(kTs, d))
	case 8:
		return fmt.Sprintf("(%s + (interval %d %s + interval %d %s))", g.expr(kTs, d), g.pick(100), tsUnits[g.pick(len(tsUnits))], g.pick(100), tsUnits[g.pick(len(tsUnits))])
	case 9:
		if g.chance(50) {
			unit := []string{"day", "hour", "minute", "second", "month", "year", "week"}[g.pick(7)]
			return fmt.Sprintf("(%s + interval '%d %ss')", g.expr(kTs, d), g.pick(100), unit)
		}
		return fmt.Sprintf("(%s)::timestamp", g.expr(kDate, d))
	case 0:
		return fmt.Sprintf("(%s + interval %d %s)", g.expr(kTs, d), g.pick(100), tsUnits[g.pick(len(tsUnits))])
	case 1:
		return fmt.Sprintf("(%s - interval %d %s)", g.expr(kTs, d), g.pick(100), tsUnits[g.pick(len(tsUnits))])
	case 2:
		return fmt.Sprintf("date_trunc('%s', %s)", tsTruncs[g.pick(len(tsTruncs))], g.expr(kTs, d))
	case 3:
		return fmt.Sprintf("cast(%s as datetime)", g.expr(kDate, d))
	case 4:
		return fmt.Sprintf("coalesce(%s, %s)", g.expr(kTs, d), g.expr(kTs, d))
	}
	return "" // CASE and the like, as for every kind
}

// intervalCmp draws a predicate on intervals: ts − ts against INTERVAL n
// unit or against another ts − ts.
func (g *Gen) intervalCmp(d int) string {
	l := fmt.Sprintf("(%s - %s)", g.expr(kTs, d), g.expr(kTs, d))
	r := fmt.Sprintf("interval %d %s", g.pick(400), tsUnits[3+g.pick(len(tsUnits)-3)])
	if g.chance(50) {
		r = fmt.Sprintf("(%s - %s)", g.expr(kTs, d), g.expr(kTs, d))
	}
	return fmt.Sprintf("(%s %s %s)", l, cmpOps[g.pick(len(cmpOps))], r)
}

// intervalCount is count(DISTINCT ts − ts): INTERVAL keys, counted.
func (g *Gen) intervalCount() string {
	return fmt.Sprintf("count(distinct (%s - %s))", g.expr(kTs, 1), g.expr(kTs, 1))
}
