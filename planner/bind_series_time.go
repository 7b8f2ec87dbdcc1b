package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
	"gq/parser/sqlparser"
)

// seriesArgs binds a series function's arguments, constant expressions
// (CAST('2023-01-01' AS TIMESTAMP), INTERVAL 1 HOUR, -5), folded to their
// values.
func (b *binder) seriesArgs(fn string, args []*sqlparser.TableFuncArg) ([]*Const, error) {
	out := make([]*Const, len(args))
	c := &ectx{b: b, s: &scope{}} // a series' bounds name no column
	for i, a := range args {
		if !a.Name.IsEmpty() {
			return nil, errs.NewNear(errs.Binding, fn, "%s takes no named arguments (%s)", fn, a.Name.String())
		}
		e, err := c.bind(a.Value)
		if err != nil {
			return nil, err
		}
		k, ok := mapExprs(e, foldExpr).(*Const)
		if !ok {
			return nil, errs.NewNear(errs.Binding, fn, "%s: argument %d (%s) must be a constant", fn, i+1, sqlparser.String(a.Value))
		}
		out[i] = k
	}
	return out, nil
}

// newSeriesOf is the series table of fn over bound constant arguments:
// integers (newSeries), or DuckDB's timestamp form (start, stop, step),
// start and stop TIMESTAMPs or DATEs and step an INTERVAL.
func newSeriesOf(fn string, args []*Const) (catalog.Table, error) {
	fn = strings.ToLower(fn)
	timed := false
	for _, a := range args {
		timed = timed || expr.IsTimestamp(a.T) || isDate(a.T) || a.T.ID() == arrow.INTERVAL_MONTH_DAY_NANO
	}
	if !timed {
		fa := make([]catalog.FuncArg, len(args))
		for i, a := range args {
			fa[i] = catalog.FuncArg{Value: a.Value}
		}
		t, err := newSeries(fn, fa)
		if err != nil {
			return nil, err
		}
		return t, nil
	}
	t, err := newTimeSeries(fn, args)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// timeSeriesMaxRows bounds a series stepping by months or days, whose
// values are made one after the other at binding.
const timeSeriesMaxRows = 1 << 24

// timeSeries is range(start, stop, step) and generate_series(…) over
// timestamps: start, start+step, … (each value the previous one plus the
// step, months clamped to the month's end as DuckDB adds them) up to stop,
// which range leaves out. A step of a fixed length (no months nor days)
// computes each value from its row number; a calendar step keeps each
// split's first value, found once at binding.
type timeSeries struct {
	name   string
	schema *arrow.Schema
	start  int64
	step   arrow.MonthDayNanoInterval
	count  int64
	splits []int64 // calendar steps: each split's first value
}

func newTimeSeries(fn string, args []*Const) (*timeSeries, error) {
	if len(args) != 3 {
		return nil, errs.NewNear(errs.Binding, fn, "%s over timestamps takes (start, stop, step INTERVAL), got %d arguments", fn, len(args))
	}
	var bound [2]int64
	tz := false
	for i, a := range args[:2] {
		v, ok := timestampValue(a)
		if !ok {
			return nil, errs.NewNear(errs.Binding, fn, "%s: argument %d must be a TIMESTAMP or DATE constant, not %s", fn, i+1, a.String())
		}
		bound[i] = v
		tz = tz || arrow.TypeEqual(a.T, expr.TimestampTZ)
	}
	step, ok := args[2].Value.(arrow.MonthDayNanoInterval)
	if !ok {
		return nil, errs.NewNear(errs.Binding, fn, "%s: the step must be an INTERVAL constant, not %s", fn, args[2].String())
	}
	step.Nanoseconds -= step.Nanoseconds % 1000 // timestamps hold µs
	pos := step.Months >= 0 && step.Days >= 0 && step.Nanoseconds >= 0
	neg := step.Months <= 0 && step.Days <= 0 && step.Nanoseconds <= 0
	switch {
	case pos && neg:
		return nil, errs.NewNear(errs.Binding, fn, "%s: the step must not be 0", fn)
	case !pos && !neg:
		return nil, errs.NewNear(errs.Binding, fn, "%s: the step %s has parts of both signs", fn, args[2].String())
	}
	t := expr.Timestamp
	if tz {
		t = expr.TimestampTZ
	}
	s := &timeSeries{name: fn, schema: arrow.NewSchema([]arrow.Field{{Name: fn, Type: t}}, nil), start: bound[0], step: step}
	inclusive := fn == "generate_series"
	in := func(v int64) bool {
		switch {
		case pos && inclusive:
			return v <= bound[1]
		case pos:
			return v < bound[1]
		case inclusive:
			return v >= bound[1]
		}
		return v > bound[1]
	}
	if step.Months == 0 && step.Days == 0 {
		us := step.Nanoseconds / 1000
		d := bound[1] - bound[0]
		if (us > 0) == (d >= 0) || d == 0 {
			n := d / us
			if n*us == d && !inclusive {
				n--
			}
			if n >= 0 && in(bound[0]+n*us) {
				s.count = n + 1
			}
		}
		return s, nil
	}
	for v := bound[0]; in(v); s.count++ {
		if s.count%seriesSplitRows == 0 {
			s.splits = append(s.splits, v)
		}
		if s.count >= timeSeriesMaxRows {
			return nil, errs.NewNear(errs.Unsupported, fn, "%s: more than %d rows stepping by %s is not supported", fn, timeSeriesMaxRows, args[2].String())
		}
		next, ok := expr.AddInterval(v, step)
		if !ok {
			break
		}
		v = next
	}
	return s, nil
}

// timestampValue is a TIMESTAMP or DATE constant as µs since the epoch.
func timestampValue(c *Const) (int64, bool) {
	switch v := c.Value.(type) {
	case int64:
		return v, expr.IsTimestamp(c.T)
	case arrow.Timestamp:
		return int64(v), expr.IsTimestamp(c.T)
	case int32:
		return int64(v) * 86_400_000_000, isDate(c.T)
	case arrow.Date32:
		return int64(v) * 86_400_000_000, isDate(c.T)
	}
	return 0, false
}

func (t *timeSeries) Name() string          { return t.name }
func (t *timeSeries) Schema() *arrow.Schema { return t.schema }

func (t *timeSeries) Stats() catalog.Stats {
	return catalog.Stats{RowCount: t.count, Distinct: []int64{t.count}}
}

func (t *timeSeries) NumSplits() int {
	return int((t.count + seriesSplitRows - 1) / seriesSplitRows)
}

func (t *timeSeries) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= t.NumSplits() {
		return errs.New(errs.Internal, "%s: split %d of %d", t.name, split, t.NumSplits())
	}
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		if c != 0 {
			return errs.New(errs.Internal, "%s: no column %d", t.name, c)
		}
		fields[i] = t.schema.Field(0)
	}
	schema := arrow.NewSchema(fields, nil)
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	lo := int64(split) * seriesSplitRows
	hi := min(t.count, lo+seriesSplitRows)
	fixed := t.splits == nil
	v := t.start + lo*(t.step.Nanoseconds/1000)
	if !fixed {
		v = t.splits[split]
	}
	for off := lo; off < hi; off += int64(batchSize) {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(hi-off, int64(batchSize))
		bld := array.NewTimestampBuilder(mem, t.schema.Field(0).Type.(*arrow.TimestampType))
		bld.Reserve(int(n))
		for range n {
			bld.UnsafeAppend(arrow.Timestamp(v))
			if fixed {
				v += t.step.Nanoseconds / 1000
			} else {
				v, _ = expr.AddInterval(v, t.step) // every value counted is in range
			}
		}
		a := bld.NewArray()
		bld.Release()
		if err := emitSeries(schema, len(columns), a, n, emit); err != nil {
			return err
		}
	}
	return nil
}

func (t *timeSeries) String() string {
	return fmt.Sprintf("%s(%d rows from %d step %s)", t.name, t.count, t.start, expr.FormatInterval(t.step))
}
