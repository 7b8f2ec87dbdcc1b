package gpuexec

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/exec"
	"gq/expr"
	"gq/format"
)

func int64Array(vals ...int64) *array.Int64 {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewInt64Array()
}

// The groups a device table returns (raw 64-bit words) become the partial
// aggregate's rows with their SQL types: NULL keys from the key mask,
// dictionary codes as strings, a count of zero as a NULL value, dates and
// doubles from their images, and a 128-bit sum beyond int64 as the CPU's
// overflow error. No GPU needed.
func TestGPUPartialRows(t *testing.T) {
	dec := expr.Decimal(18, 2)
	keys := []expr.Expr{
		&expr.Column{Index: 0, Type: expr.Int64}, &expr.Column{Index: 1, Type: expr.String}, &expr.Column{Index: 2, Type: expr.Date},
	}
	aggs := []exec.AggFunc{
		{Fn: "count_star", Type: expr.Int64}, {Fn: "sum", Type: dec}, {Fn: "sum", Type: expr.Float64},
		{Fn: "min", Type: expr.Date}, {Fn: "max", Type: expr.Int64},
	}
	var fields []arrow.Field
	for i, k := range keys {
		fields = append(fields, arrow.Field{Name: string(rune('a' + i)), Type: k.DataType(), Nullable: true})
	}
	for j, f := range aggs {
		fields = append(fields, arrow.Field{Name: string(rune('p' + j)), Type: f.Type, Nullable: true})
	}
	a := &GPUAggregate{stages: Pipeline{Stages: []Stage{ScanStage{}, AggStage{Keys: keys, Aggs: aggs}}}, Out: arrow.NewSchema(fields, nil)}
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	vb.AppendValues([]string{"x", "y"}, nil)
	dicts := []*devDict{nil, {values: vb.NewStringArray()}, nil}
	vb.Release()
	defer dicts[1].values.Release()
	f64 := func(x float64) int64 { return int64(math.Float64bits(x)) }
	res := &arrowgpu.AggResult{
		Rows:     3,
		Keys:     []*array.Int64{int64Array(7, 0, -2), int64Array(1, 0, 1), int64Array(9000, 9001, 0)},
		KeyNulls: int64Array(0, 1, 4), // row 1: key 0 NULL; row 2: key 2 NULL
		Ops: [][]*array.Int64{
			{int64Array(5, 1, 2)},
			{int64Array(3, 0, 2), int64Array(12345, 0, -50), int64Array(0, 0, -1)},
			{int64Array(2, 1, 0), int64Array(f64(1.5), f64(-0.25), 0)},
			{int64Array(1, 1, 0), int64Array(9000, 9010, 0)},
			{int64Array(1, 0, 2), int64Array(4, 0, -9)},
		},
	}
	defer res.Release()
	c := exec.NewContext(t.Context(), exec.Options{Threads: 1})
	rec, err := a.partialRows(c, res, dicts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := range int(rec.NumRows()) {
		row := ""
		for i := range int(rec.NumCols()) {
			row += format.Value(rec.Column(i), r) + "|"
		}
		got = append(got, row)
	}
	rec.Release()
	want := []string{
		"7|y|1994-08-23|5|123.45|1.5|1994-08-23|4|",
		"|x|1994-08-24|1||-0.25|1994-09-02||", // NULLs print empty
		"-2|y||2|-0.50|||-9|",
	}
	for r := range want {
		if r >= len(got) || got[r] != want[r] {
			t.Errorf("row %d: got %q, want %q", r, got, want[r])
			break
		}
	}
	// A sum whose high word is not the low word's sign: overflow.
	res.Ops[1][2].Release()
	res.Ops[1][2] = int64Array(1, 0, -1)
	if _, err := a.partialRows(c, res, dicts); !errors.Is(err, exec.ErrSumOverflow) {
		t.Errorf("128-bit sum beyond int64: %v", err)
	}
}

// BenchmarkGPUPartialRows turns 1.5M groups (TPC-H q18's l_orderkey at SF1:
// an int key and a decimal sum) into partial rows.
func BenchmarkGPUPartialRows(b *testing.B) {
	const n = 1_500_000
	a := &GPUAggregate{
		stages: Pipeline{Stages: []Stage{ScanStage{}, AggStage{
			Keys: []expr.Expr{&expr.Column{Index: 0, Type: expr.Int64}},
			Aggs: []exec.AggFunc{{Fn: "sum", Type: expr.Decimal(18, 2)}},
		}}},
		Out: arrow.NewSchema([]arrow.Field{
			{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "s", Type: expr.Decimal(18, 2), Nullable: true},
		}, nil),
	}
	vals := make([]int64, n)
	zeros := make([]int64, n)
	ones := make([]int64, n)
	for i := range vals {
		vals[i], ones[i] = int64(i), 7
	}
	res := &arrowgpu.AggResult{Rows: n, Keys: []*array.Int64{int64Array(vals...)}, KeyNulls: int64Array(zeros...),
		Ops: [][]*array.Int64{{int64Array(ones...), int64Array(vals...), int64Array(zeros...)}}}
	defer res.Release()
	c := exec.NewContext(b.Context(), exec.Options{Threads: 1})
	b.ResetTimer()
	for range b.N {
		rec, err := a.partialRows(c, res, nil)
		if err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}
