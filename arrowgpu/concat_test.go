package arrowgpu

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Concat of pieces (some empty, some without NULLs, lengths not multiples
// of 32) equals arrow's Concatenate, for Int64, Date32, Boolean, String and
// DECIMAL(38).
func TestGPUConcat(t *testing.T) {
	q := needKernels(t)
	mem := memory.NewGoAllocator()
	r := rand.New(rand.NewPCG(3, 4))
	lens := []int{37, 0, 100, 1, 64, 333}
	for _, typ := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String, &arrow.Decimal128Type{Precision: 38, Scale: 2}} {
		var pieces []arrow.Array
		for pi, n := range lens {
			b := array.NewBuilder(mem, typ)
			for i := range n {
				if pi%2 == 0 && r.IntN(5) == 0 {
					b.AppendNull()
					continue
				}
				switch bb := b.(type) {
				case *array.Int64Builder:
					bb.Append(r.Int64())
				case *array.Date32Builder:
					bb.Append(arrow.Date32(r.IntN(20000)))
				case *array.BooleanBuilder:
					bb.Append(r.IntN(2) == 0)
				case *array.StringBuilder:
					bb.Append(fmt.Sprintf("s%d-%d", pi, i*r.IntN(1000)))
				case *array.Decimal128Builder:
					bb.Append(decimal128.New(r.Int64N(1<<40)-1<<39, r.Uint64()))
				}
			}
			pieces = append(pieces, b.NewArray())
			b.Release()
		}
		want, err := array.Concatenate(pieces, mem)
		if err != nil {
			t.Fatal(err)
		}
		var cols []*Column
		for _, p := range pieces {
			c, err := q.UploadArray(p)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, c)
			p.Release()
		}
		out, err := q.Concat(cols)
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.Download(out, mem)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got, want) {
			t.Errorf("%s: concatenation on the device\n%v\nwant\n%v", typ, got, want)
		}
		got.Release()
		want.Release()
		out.Free()
		for _, c := range cols {
			c.Free()
		}
	}
}

// GatherOrNull makes the rows of index -1 NULL, for columns with and
// without NULLs of every kind of layout.
func TestGPUGatherOrNull(t *testing.T) {
	q := needKernels(t)
	mem := memory.NewGoAllocator()
	idx := []int32{3, -1, 0, 0, -1, 4, 2, -1, 1}
	raw := make([]byte, 4*len(idx))
	for i, v := range idx {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
	}
	ib, err := q.UploadBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Free()
	ints := array.NewInt64Builder(mem)
	ints.AppendValues([]int64{10, 11, 12, 13, 14}, nil)
	dates := array.NewDate32Builder(mem)
	dates.AppendValues([]arrow.Date32{1, 2, 3, 4, 5}, []bool{true, false, true, true, true})
	bools := array.NewBooleanBuilder(mem)
	bools.AppendValues([]bool{true, false, true, true, false}, nil)
	strs := array.NewStringBuilder(mem)
	strs.AppendValues([]string{"a", "bb", "", "dddd", "e"}, []bool{true, true, true, true, false})
	wides := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 0})
	wides.AppendValues([]decimal128.Num{decimal128.New(1, 2), decimal128.FromI64(-3), {}, decimal128.New(-5, 7), decimal128.FromI64(9)}, []bool{true, true, false, true, true})
	for _, b := range []array.Builder{ints, dates, bools, strs, wides} {
		in := b.NewArray()
		b.Release()
		col, err := q.UploadArray(in)
		if err != nil {
			t.Fatal(err)
		}
		g, err := q.GatherOrNull(col, ib, len(idx))
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.Download(g, mem)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range idx {
			switch {
			case k < 0:
				if got.IsValid(i) {
					t.Errorf("%s row %d (index -1) is %s, want NULL", in.DataType(), i, got.ValueStr(i))
				}
			case got.IsValid(i) != in.IsValid(int(k)) || (in.IsValid(int(k)) && got.ValueStr(i) != in.ValueStr(int(k))):
				t.Errorf("%s row %d (index %d) is %s, want %s", in.DataType(), i, k, got.ValueStr(i), in.ValueStr(int(k)))
			}
		}
		got.Release()
		g.Free()
		col.Free()
		in.Release()
	}
}
