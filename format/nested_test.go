package format

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Nested values print as DuckDB 1.5 casts them to VARCHAR (the expected
// texts are DuckDB's), and as JSON arrays and objects in JSON output.
func TestNestedText(t *testing.T) {
	mem := memory.NewGoAllocator()
	lb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer lb.Release()
	lb.Append(true)
	for _, s := range []string{"", "NULL", "null", " a", "a ", `a\b`, `x"y`, "é", "a:b", "a=b", "ok"} {
		lb.ValueBuilder().(*array.StringBuilder).Append(s)
	}
	lb.ValueBuilder().AppendNull()
	lb.AppendNull()
	strs := lb.NewArray()
	defer strs.Release()

	fb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float64)
	defer fb.Release()
	fb.Append(true)
	fb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{1, 2.5, 1e20, 1e15, 123456789012, 1e-5, math.NaN()}, nil)
	floats := fb.NewArray()
	defer floats.Release()

	st := arrow.StructOf(arrow.Field{Name: "a b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "it's", Type: arrow.MapOf(arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String), Nullable: true})
	sb := array.NewStructBuilder(mem, st)
	defer sb.Release()
	sb.Append(true)
	sb.FieldBuilder(0).(*array.Int64Builder).Append(1)
	mb := sb.FieldBuilder(1).(*array.MapBuilder)
	mb.Append(true)
	mb.KeyBuilder().(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	mb.ItemBuilder().(*array.StringBuilder).Append("x")
	mb.ItemBuilder().AppendNull()
	structs := sb.NewArray()
	defer structs.Release()

	for _, tc := range []struct {
		arr  arrow.Array
		row  int
		want string
	}{
		{strs, 0, `['', 'NULL', 'null', ' a', 'a ', a\b, 'x"y', é, 'a:b', 'a=b', ok, NULL]`},
		{strs, 1, ""},
		{floats, 0, "[1.0, 2.5, 1e+20, 1000000000000000.0, 123456789012.0, 1e-05, nan]"},
		{structs, 0, `{'a b': 1, 'it\'s': {1=x, 2=NULL}}`},
	} {
		if got := Value(tc.arr, tc.row); got != tc.want {
			t.Errorf("%s row %d: %s\nwant %s", tc.arr.DataType(), tc.row, got, tc.want)
		}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: st, Nullable: true}}, nil)
	b := array.NewRecordBatch(schema, []arrow.Array{structs}, 1)
	defer b.Release()
	var out bytes.Buffer
	if err := WriteJSON(&out, schema, []arrow.RecordBatch{b}); err != nil {
		t.Fatal(err)
	}
	if want := `{"s": {"a b":1,"it's":{"1":"x","2":null}}}`; !strings.Contains(out.String(), want) {
		t.Errorf("JSON %s, want %s", out.String(), want)
	}
	if got := TypeName(st); got != `STRUCT("a b" BIGINT, "it's" MAP(BIGINT, VARCHAR))` {
		t.Errorf("type name %s", got)
	}
}
