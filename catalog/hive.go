package catalog

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// partitionCol is a column whose value is constant per file: a hive
// partition key (key=value folder), one value per file of the table.
type partitionCol struct {
	name string
	typ  arrow.DataType
	vals []string // per file; "" is NULL
}

// array is the column's value for file, repeated n times.
func (p *partitionCol) array(file, n int, mem memory.Allocator) arrow.Array {
	v := p.vals[file]
	b := array.NewBuilder(mem, p.typ)
	defer b.Release()
	b.Reserve(n)
	for range n {
		if v == "" {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int64Builder:
			x, _ := parseInt([]byte(v))
			bb.Append(x)
		case *array.Float64Builder:
			x, _ := parseFloat([]byte(v))
			bb.Append(x)
		case *array.Date32Builder:
			x, _ := parseDate([]byte(v))
			bb.Append(arrow.Date32(x))
		case *array.BooleanBuilder:
			x, _ := parseBool([]byte(v))
			bb.Append(x)
		case *array.StringBuilder:
			bb.Append(v)
		}
	}
	return b.NewArray()
}
