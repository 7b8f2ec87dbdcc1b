package catalog

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// RowFilter is a predicate that a scan hands to the table, so that rows are
// dropped while they are decoded: the filter's columns are decoded first and
// the other columns are copied out only for the rows that survive (late
// materialisation), instead of materialising every row and gathering the
// survivors afterwards.
type RowFilter struct {
	// Columns are the positions, in the Read columns list, that Select
	// reads.
	Columns []int
	// Select returns the rows of cand (ascending; nil: every row of b)
	// to keep, ascending, reusing the storage of cand or sel. b has the
	// Read columns' schema at the positions in Columns; the other
	// positions hold placeholder NULL columns that Select must not read.
	// b is valid only during the call.
	Select func(b arrow.RecordBatch, cand, sel []int32) ([]int32, error)
	// Emit, when set, lists the positions in the Read columns list that
	// the emitted batches hold, in order: columns read only for Select are
	// then never gathered for the surviving rows.
	Emit []int
	// Tests are conjuncts of the filter over one column each, applied
	// besides Select (parquet_columntest.go); a column that only Tests read
	// need not be in Columns.
	Tests []ColumnTest
}

// emitted narrows b (Read columns) to filter.Emit, consuming b.
func (filter *RowFilter) emitted(b arrow.RecordBatch) arrow.RecordBatch {
	if filter == nil || filter.Emit == nil {
		return b
	}
	fields := make([]arrow.Field, len(filter.Emit))
	cols := make([]arrow.Array, len(filter.Emit))
	for i, p := range filter.Emit {
		fields[i], cols[i] = b.Schema().Field(p), b.Column(p)
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
	b.Release()
	return out
}

// FilteredTable is a Table that can apply a RowFilter while it reads.
// ReadFiltered is Read that emits only rows the filter keeps, and never an
// empty batch; a nil filter keeps every row.
type FilteredTable interface {
	Table
	ReadFiltered(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, filter *RowFilter, emit func(arrow.RecordBatch) error) error
}

// filteredEmit applies filter to whole batches before emit, for readers
// that decode every row (the pqarrow path).
func filteredEmit(filter *RowFilter, mem memory.Allocator, emit func(arrow.RecordBatch) error) func(arrow.RecordBatch) error {
	if filter == nil {
		return emit
	}
	var sel []int32
	return func(b arrow.RecordBatch) error {
		var err error
		var cand []int32 // nil: all rows
		if len(filter.Tests) > 0 {
			sel = identityInto(sel, int(b.NumRows()))
			cand, err = applyColumnTests(filter, b, sel)
			sel = nil // cand owns the storage now
		}
		if err == nil && (cand == nil || len(cand) > 0) {
			sel, err = filter.Select(b, cand, sel[:0])
		} else {
			sel = cand
		}
		if err != nil {
			b.Release()
			return err
		}
		switch {
		case len(sel) == 0:
			b.Release()
			return nil
		case len(sel) == int(b.NumRows()):
			return emit(filter.emitted(b))
		}
		nb := filter.emitted(b)
		out := takeRows(mem, nb, sel)
		nb.Release()
		return emit(out)
	}
}

var _ FilteredTable = (*ParquetTable)(nil)

// takeRows gathers rows sel of b (gq value types) into a new batch.
func takeRows(mem memory.Allocator, b arrow.RecordBatch, sel []int32) arrow.RecordBatch {
	cols := make([]arrow.Array, b.NumCols())
	for i, col := range b.Columns() {
		if expr.IsNested(col.DataType()) {
			cols[i] = expr.TakeNested(mem, col, sel)
			continue
		}
		bld := array.NewBuilder(mem, col.DataType())
		bld.Reserve(len(sel))
		for _, r := range sel {
			j := int(r)
			if col.IsNull(j) {
				bld.AppendNull()
				continue
			}
			switch a := col.(type) {
			case *array.Int64:
				bld.(*array.Int64Builder).Append(a.Value(j))
			case *array.Float64:
				bld.(*array.Float64Builder).Append(a.Value(j))
			case *array.Decimal64:
				bld.(*array.Decimal64Builder).Append(a.Value(j))
			case *array.Decimal128:
				bld.(*array.Decimal128Builder).Append(a.Value(j))
			case *array.Date32:
				bld.(*array.Date32Builder).Append(a.Value(j))
			case *array.Timestamp:
				bld.(*array.TimestampBuilder).Append(a.Value(j))
			case *array.Time64:
				bld.(*array.Time64Builder).Append(a.Value(j))
			case *array.Boolean:
				bld.(*array.BooleanBuilder).Append(a.Value(j))
			case *array.String:
				bld.(*array.StringBuilder).Append(a.Value(j))
			default:
				bld.AppendNull() // not a gq value type: normalizeArray never yields one
			}
		}
		cols[i] = bld.NewArray()
		bld.Release()
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(len(sel)))
	releaseAll(cols)
	return out
}
