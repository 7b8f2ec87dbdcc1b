package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// literalBatch builds one batch of schema from rows of literals. A schema
// without fields yields a batch of len(rows) rows and no columns
// (SELECT 1 FROM a one-row VALUES, say).
func literalBatch(mem memory.Allocator, schema *arrow.Schema, rows [][]*expr.Literal) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	for i := range cols {
		bld := array.NewBuilder(mem, schema.Field(i).Type)
		for r, row := range rows {
			if len(row) != len(cols) {
				bld.Release()
				releaseArrays(cols[:i])
				return nil, errs.New(errs.Internal, "VALUES row %d has %d values, want %d", r+1, len(row), len(cols))
			}
			if err := appendLiteral(bld, row[i]); err != nil {
				bld.Release()
				releaseArrays(cols[:i])
				return nil, err
			}
		}
		cols[i] = bld.NewArray()
		bld.Release()
	}
	b := array.NewRecordBatch(schema, cols, int64(len(rows)))
	releaseArrays(cols)
	return b, nil
}

// appendLiteral appends l's value to bld, whose type is the column's.
func appendLiteral(bld array.Builder, l *expr.Literal) error {
	if l == nil || l.Value == nil {
		bld.AppendNull()
		return nil
	}
	ok := false
	switch b := bld.(type) {
	case *array.BooleanBuilder:
		var v bool
		if v, ok = l.Value.(bool); ok {
			b.Append(v)
		}
	case *array.Int64Builder:
		var v int64
		if v, ok = l.Value.(int64); ok {
			b.Append(v)
		}
	case *array.Float64Builder:
		switch v := l.Value.(type) {
		case float64:
			b.Append(v)
			ok = true
		case int64:
			b.Append(float64(v))
			ok = true
		}
	case *array.Decimal64Builder:
		var v int64
		if v, ok = l.Value.(int64); ok {
			b.Append(decimal.Decimal64(v))
		}
	case *array.Decimal128Builder:
		switch v := l.Value.(type) {
		case decimal128.Num:
			b.Append(v)
			ok = true
		case int64: // a value that fits in int64, as a decimal64 literal holds it
			b.Append(decimal128.FromI64(v))
			ok = true
		}
	case *array.Date32Builder:
		var v int32
		if v, ok = l.Value.(int32); ok {
			b.Append(arrow.Date32(v))
		}
	case *array.StringBuilder:
		var v string
		if v, ok = l.Value.(string); ok {
			b.Append(v)
		}
	case *array.TimestampBuilder:
		var v int64
		if v, ok = l.Value.(int64); ok {
			b.Append(arrow.Timestamp(v))
		}
	case *array.Time64Builder:
		var v int64
		if v, ok = l.Value.(int64); ok {
			b.Append(arrow.Time64(v))
		}
	case *array.MonthDayNanoIntervalBuilder:
		var v arrow.MonthDayNanoInterval
		if v, ok = l.Value.(arrow.MonthDayNanoInterval); ok {
			b.Append(v)
		}
	}
	if !ok {
		return errs.New(errs.Internal, "literal %s (%T) does not fit a %s column", l, l.Value, bld.Type())
	}
	return nil
}
