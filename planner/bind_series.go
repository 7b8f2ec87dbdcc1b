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
)

// seriesSplitRows is how many rows one split of a series holds: a split
// is the unit ranks and scan workers share out.
const seriesSplitRows = 1 << 17

// seriesTable is DuckDB's range(…) and generate_series(…) table
// functions: one BIGINT column, named after the function, holding start,
// start+step, … up to stop (range leaves stop out, generate_series keeps
// it). Rows are made as they are read, so a long series costs no memory
// until scanned.
type seriesTable struct {
	name               string
	schema             *arrow.Schema
	start, step, count int64
}

// isSeriesFunc reports whether fn names one of the series table functions.
func isSeriesFunc(fn string) bool {
	switch strings.ToLower(fn) {
	case "range", "generate_series":
		return true
	}
	return false
}

// newSeries checks a series function's arguments — (stop), (start, stop)
// or (start, stop, step), integer constants — and counts its rows.
func newSeries(fn string, args []catalog.FuncArg) (*seriesTable, error) {
	fn = strings.ToLower(fn)
	if len(args) < 1 || len(args) > 3 {
		return nil, errs.NewNear(errs.Binding, fn, "%s takes 1 to 3 arguments ((stop), (start, stop) or (start, stop, step)), got %d", fn, len(args))
	}
	var v [3]int64
	for i, a := range args {
		if a.Name != "" {
			return nil, errs.NewNear(errs.Binding, fn, "%s takes no named arguments (%s)", fn, a.Name)
		}
		n, ok := a.Value.(int64)
		if !ok {
			return nil, errs.NewNear(errs.Unsupported, fn, "%s: argument %d must be an integer constant (%s over dates, timestamps or decimals is not supported), not %v", fn, i+1, fn, a.Value)
		}
		v[i] = n
	}
	start, stop, step := int64(0), v[0], int64(1)
	if len(args) >= 2 {
		start, stop = v[0], v[1]
	}
	if len(args) == 3 {
		step = v[2]
	}
	if step == 0 {
		return nil, errs.NewNear(errs.Binding, fn, "%s: the step must not be 0", fn)
	}
	inclusive := fn == "generate_series"
	// The distance and the count in uint64: stop-start may not fit int64.
	var count uint64
	switch {
	case step > 0 && (start < stop || inclusive && start == stop):
		d := uint64(stop) - uint64(start)
		if !inclusive {
			d--
		}
		count = d/uint64(step) + 1
	case step < 0 && (start > stop || inclusive && start == stop):
		d := uint64(start) - uint64(stop)
		if !inclusive {
			d--
		}
		count = d/(uint64(-(step+1))+1) + 1
	}
	if count > 1<<62 {
		return nil, errs.NewNear(errs.Binding, fn, "%s: %d rows are too many", fn, count)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: fn, Type: expr.Int64}}, nil)
	return &seriesTable{name: fn, schema: schema, start: start, step: step, count: int64(count)}, nil
}

func (t *seriesTable) Name() string          { return t.name }
func (t *seriesTable) Schema() *arrow.Schema { return t.schema }

func (t *seriesTable) Stats() catalog.Stats {
	return catalog.Stats{RowCount: t.count, Distinct: []int64{t.count}}
}

func (t *seriesTable) NumSplits() int {
	return int((t.count + seriesSplitRows - 1) / seriesSplitRows)
}

func (t *seriesTable) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= t.NumSplits() {
		return errs.New(errs.Internal, "%s: split %d of %d", t.name, split, t.NumSplits())
	}
	for _, c := range columns {
		if c != 0 {
			return errs.New(errs.Internal, "%s: no column %d", t.name, c)
		}
	}
	fields := make([]arrow.Field, len(columns))
	for i := range fields {
		fields[i] = t.schema.Field(0)
	}
	schema := arrow.NewSchema(fields, nil)
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	lo := int64(split) * seriesSplitRows
	hi := min(t.count, lo+seriesSplitRows)
	for off := lo; off < hi; off += int64(batchSize) {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(hi-off, int64(batchSize))
		bld := array.NewInt64Builder(mem)
		bld.Reserve(int(n))
		// Wrapping arithmetic: every value is within [start, stop].
		v := t.start + off*t.step
		for range n {
			bld.UnsafeAppend(v)
			v += t.step
		}
		a := bld.NewArray()
		bld.Release()
		if err := emitSeries(schema, len(columns), a, n, emit); err != nil {
			return err
		}
	}
	return nil
}

func (t *seriesTable) String() string {
	return fmt.Sprintf("%s(%d rows from %d step %d)", t.name, t.count, t.start, t.step)
}

// emitSeries emits one batch of n rows whose every requested column is a
// (the series is one column; a projection may ask for it more than once),
// taking over the caller's reference to a.
func emitSeries(schema *arrow.Schema, columns int, a arrow.Array, n int64, emit func(arrow.RecordBatch) error) error {
	cols := make([]arrow.Array, columns)
	for i := range cols {
		cols[i] = a
		a.Retain()
	}
	a.Release()
	out := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return emit(out)
}
