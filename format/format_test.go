package format

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// sample is a two-row batch covering every gq type, with NULLs in row 2.
func sample(t *testing.T) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: expr.Int64, Nullable: true},
		{Name: "f", Type: expr.Float64, Nullable: true},
		{Name: "d", Type: expr.Decimal(15, 2), Nullable: true},
		{Name: "dt", Type: expr.Date, Nullable: true},
		{Name: "s", Type: expr.String, Nullable: true},
		{Name: "b", Type: expr.Boolean, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer bld.Release()
	bld.Field(0).(*array.Int64Builder).AppendValues([]int64{-7, 0}, []bool{true, false})
	bld.Field(1).(*array.Float64Builder).AppendValues([]float64{0.1, 0}, []bool{true, false})
	bld.Field(2).(*array.Decimal64Builder).AppendValues([]decimal.Decimal64{-5, 0}, []bool{true, false})
	bld.Field(3).(*array.Date32Builder).AppendValues([]arrow.Date32{10957, 0}, []bool{true, false})
	bld.Field(4).(*array.StringBuilder).AppendValues([]string{`a,"b"`, ""}, []bool{true, true})
	bld.Field(5).(*array.BooleanBuilder).AppendValues([]bool{true, false}, []bool{true, false})
	return schema, []arrow.RecordBatch{bld.NewRecordBatch()}
}

func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0"}, {0.1, "0.1"}, {1e14, "100000000000000"}, {1e15, "1e+15"}, {1.5e-5, "1.5e-05"}, {0.0001, "0.0001"}, {-2.5, "-2.5"}} {
		if got := FormatFloat(tc.v); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestWriters(t *testing.T) {
	schema, batches := sample(t)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, schema, batches); err != nil {
		t.Fatal(err)
	}
	wantCSV := "i,f,d,dt,s,b\n-7,0.1,-0.05,2000-01-01,\"a,\"\"b\"\"\",true\n,,,,\"\",\n"
	if buf.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant:\n%s", buf.String(), wantCSV)
	}
	buf.Reset()
	if err := WriteJSON(&buf, schema, batches); err != nil {
		t.Fatal(err)
	}
	wantJSON := "[\n  {\"i\": -7, \"f\": 0.1, \"d\": -0.05, \"dt\": \"2000-01-01\", \"s\": \"a,\\\"b\\\"\", \"b\": true},\n  {\"i\": null, \"f\": null, \"d\": null, \"dt\": null, \"s\": \"\", \"b\": null}\n]\n"
	if buf.String() != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", buf.String(), wantJSON)
	}
	buf.Reset()
	if err := WriteTable(&buf, schema, batches); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"│ decimal(15,2) │", "│     -7 │", "│ NULL       │", "2 rows\n", "│ true    │"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}
