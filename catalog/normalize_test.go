package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

func TestNormalizeArray(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	build := func(typ arrow.DataType, fill func(b array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, typ)
		defer b.Release()
		fill(b)
		return b.NewArray()
	}
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	cases := []struct {
		name string
		in   arrow.Array
		want string // ValueStr of each element, NULL for nulls
	}{
		{"int8", build(arrow.PrimitiveTypes.Int8, func(b array.Builder) {
			b.(*array.Int8Builder).AppendValues([]int8{-128, 0, 127}, []bool{true, false, true})
		}), "-128 NULL 127"},
		{"uint32", build(arrow.PrimitiveTypes.Uint32, func(b array.Builder) {
			b.(*array.Uint32Builder).AppendValues([]uint32{4294967295, 1}, nil)
		}), "4294967295 1"},
		{"float16", build(arrow.FixedWidthTypes.Float16, func(b array.Builder) {
			b.(*array.Float16Builder).AppendValues([]float16.Num{float16.New(1.5), float16.New(-2)}, nil)
		}), "1.5 -2"},
		{"date64", build(arrow.FixedWidthTypes.Date64, func(b array.Builder) {
			b.(*array.Date64Builder).AppendValues([]arrow.Date64{86400000, -86400000}, nil)
		}), "1970-01-02 1969-12-31"},
		{"large_string", build(arrow.BinaryTypes.LargeString, func(b array.Builder) {
			b.(*array.LargeStringBuilder).AppendValues([]string{"a", "", "c"}, []bool{true, true, false})
		}), "a  NULL"},
		{"string_view", build(arrow.BinaryTypes.StringView, func(b array.Builder) {
			b.(*array.StringViewBuilder).AppendValues([]string{"a_long_string_beyond_twelve_bytes", "x"}, nil)
		}), "a_long_string_beyond_twelve_bytes x"},
		{"binary", build(arrow.BinaryTypes.Binary, func(b array.Builder) {
			b.(*array.BinaryBuilder).AppendValues([][]byte{[]byte("ab"), nil}, []bool{true, false})
		}), "ab NULL"},
		{"dictionary", build(dictType, func(b array.Builder) {
			d := b.(*array.BinaryDictionaryBuilder)
			d.AppendString("x")
			d.AppendNull()
			d.AppendString("y")
			d.AppendString("x")
		}), "x NULL y x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer c.in.Release()
			want, err := normalizeType("test", arrow.Field{Name: "c", Type: c.in.DataType()})
			if err != nil {
				t.Fatal(err)
			}
			// Also convert a slice with an offset, to exercise the bitmap shift.
			for _, in := range []arrow.Array{c.in, array.NewSlice(c.in, 1, int64(c.in.Len()))} {
				out, err := normalizeArray(in, want, mem)
				if err != nil {
					t.Fatal(err)
				}
				if !arrow.TypeEqual(out.DataType(), want) {
					t.Errorf("type %s, want %s", out.DataType(), want)
				}
				var got []string
				for i := 0; i < out.Len(); i++ {
					if out.IsNull(i) {
						got = append(got, "NULL")
					} else {
						got = append(got, out.ValueStr(i))
					}
				}
				w := strings.Split(c.want, " ")
				if in != c.in {
					w = w[1:]
					in.Release()
				}
				if strings.Join(got, " ") != strings.Join(w, " ") {
					t.Errorf("got %q, want %q", got, w)
				}
				out.Release()
			}
		})
	}

	b := array.NewUint64Builder(mem)
	b.AppendValues([]uint64{1, 1 << 63}, nil)
	big := b.NewArray()
	b.Release()
	defer big.Release()
	if _, err := normalizeArray(big, expr.Int64, mem); !errors.Is(err, errs.Execution) {
		t.Errorf("uint64 overflow: %v", err)
	}
	for _, typ := range []arrow.DataType{arrow.FixedWidthTypes.Duration_us, arrow.ListOf(arrow.PrimitiveTypes.Int64), &arrow.Decimal256Type{Precision: 39, Scale: 0}} {
		if _, err := normalizeType("f.parquet", arrow.Field{Name: "col", Type: typ}); !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "col") {
			t.Errorf("%s: %v", typ, err)
		}
	}
}
