package duckdb

import (
	"context"
	"database/sql"
	"fmt"

	"gq/engine"
	"gq/errs"
)

// DiffStats counts what a differential run checked.
type DiffStats struct {
	Queries, Agree, BothError, GQRangeOnly, DuckRangeOnly, GQUnsupported int
	TLP, NoREC                                                           int // metamorphic checks run in gq
	Mismatches                                                           []string
	// Slow lists queries that ran past the per-query limit in either
	// engine: not wrong answers, but worth a look.
	Slow []string
	// RangeOnly holds the first few queries that overflowed in one engine
	// only, with both answers: documented limits, or a range bug.
	RangeOnly []string
}

// Differ runs generated queries in gq and DuckDB and the metamorphic
// oracles in gq.
type Differ struct {
	GQ    *engine.Engine
	Duck  *sql.DB
	Stats DiffStats
	// Exact compares numbers digit for digit (CompareExact).
	Exact bool
}

// Check runs one generated query through every oracle that applies.
func (d *Differ) Check(ctx context.Context, q Query) {
	d.Stats.Queries++
	g := RunGQ(ctx, d.GQ, q.SQL)
	compare := Compare
	if d.Exact {
		compare = CompareExact
	}
	dq := q.SQL
	if q.Duck != "" {
		dq = q.Duck
	}
	duck := RunDuck(ctx, d.Duck, dq)
	v, why := compare(g, duck)
	if (v == GQRangeOnly || v == DuckRangeOnly) && len(d.Stats.RangeOnly) < 10 {
		d.Stats.RangeOnly = append(d.Stats.RangeOnly, fmt.Sprintf("%s\n  gq: %v (%d rows); DuckDB: %v (%d rows)", q.SQL, g.Err, len(g.Cells), duck.Err, len(duck.Cells)))
	}
	switch v {
	case Agree:
		d.Stats.Agree++
	case BothError:
		d.Stats.BothError++
	case GQRangeOnly:
		d.Stats.GQRangeOnly++
	case DuckRangeOnly:
		d.Stats.DuckRangeOnly++
	case GQUnsupported:
		d.Stats.GQUnsupported++
	case TimedOut:
		d.Stats.Slow = append(d.Stats.Slow, q.SQL+"\n  "+why)
	default:
		if q.Duck != "" {
			why = "DuckDB ran: " + q.Duck + "\n  " + why
		}
		d.mismatch("DuckDB", q.SQL, why)
	}
	if q.Plain && g.Err == nil {
		d.tlp(ctx, q)
	}
	if g.Err == nil && q.From != "" {
		d.norec(ctx, q)
	}
}

// tlp is SQLancer's ternary logic partitioning: the rows of
// SELECT … WHERE w equal the rows of the three queries that add p, NOT p
// and p IS NULL to w, put together with UNION ALL.
func (d *Differ) tlp(ctx context.Context, q Query) {
	p := q.Where // partition on the query's own predicate, WHERE TRUE as base
	part := func(cond string) string {
		return fmt.Sprintf("select %s from %s where %s", q.Select, q.From, cond)
	}
	base := RunGQ(ctx, d.GQ, part("true"))
	union := part(p) + " union all " + part("not "+p) + " union all " + part("("+p+") is null")
	parts := RunGQ(ctx, d.GQ, union)
	if unsupported(base.Err) || unsupported(parts.Err) || timedOut(base.Err) || timedOut(parts.Err) {
		return
	}
	d.Stats.TLP++
	if base.Err != nil || parts.Err != nil {
		// The parts evaluate p where the whole does not: an overflow in p
		// (abs(-9223372036854775808)) fails only them, rightly.
		if rangeErr(base.Err) || rangeErr(parts.Err) {
			return
		}
		if base.Err == nil || parts.Err == nil {
			d.mismatch("TLP", union, fmt.Sprintf("whole: %v, parts: %v", base.Err, parts.Err))
		}
		return
	}
	if why := sameRows(parts.Cells, base.Cells); why != "" {
		d.mismatch("TLP", union, "vs "+part("true")+"\n"+why)
	}
}

// norec is NoREC: counting the rows WHERE p passes must equal counting,
// with no WHERE to optimise, the rows for which p is true.
func (d *Differ) norec(ctx context.Context, q Query) {
	opt := fmt.Sprintf("select count(*) from %s where %s", q.From, q.Where)
	ref := fmt.Sprintf("select count(case when %s then 1 end) from %s", q.Where, q.From)
	a, b := RunGQ(ctx, d.GQ, opt), RunGQ(ctx, d.GQ, ref)
	if timedOut(a.Err) || timedOut(b.Err) {
		d.Stats.Slow = append(d.Stats.Slow, fmt.Sprintf("%s\n  %v / %v (%s)", opt, a.Err, b.Err, ref))
		return
	}
	if unsupported(a.Err) || unsupported(b.Err) {
		return
	}
	d.Stats.NoREC++
	if (a.Err == nil) != (b.Err == nil) {
		// An overflow in one evaluation order and not the other is allowed
		// (SQL fixes no evaluation order); anything else is a bug.
		if rangeErr(a.Err) || rangeErr(b.Err) {
			return
		}
		d.mismatch("NoREC", opt, fmt.Sprintf("%v vs %v (%s)", a.Err, b.Err, ref))
		return
	}
	if a.Err == nil {
		if why := sameRows(a.Cells, b.Cells); why != "" {
			d.mismatch("NoREC", opt, "vs "+ref+"\n"+why)
		}
	}
}

func rangeErr(err error) bool { return err != nil && isRangeError(err.Error()) }

// unsupported reports an Unsupported error: gq refusing a form (a
// subquery inside an expression) is not a wrong answer.
func unsupported(err error) bool { return err != nil && errs.KindOf(err) == errs.Unsupported }

func (d *Differ) mismatch(oracle, sql, why string) {
	d.Stats.Mismatches = append(d.Stats.Mismatches, fmt.Sprintf("[%s] %s\n  %s", oracle, sql, why))
}
