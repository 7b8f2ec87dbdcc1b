package gpuexec

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/exec"
	"gq/expr"
)

// TestGPUPartialRowsWide: a DECIMAL(38) sum read back from a device table
// is its 128-bit accumulator (low word, high word) exactly, past int64 in
// either direction; a group without values is NULL. No GPU needed.
func TestGPUPartialRowsWide(t *testing.T) {
	a := &GPUAggregate{
		stages: Pipeline{Stages: []Stage{ScanStage{}, AggStage{
			Keys: []expr.Expr{&expr.Column{Index: 0, Type: expr.Int64}},
			Aggs: []exec.AggFunc{{Fn: "sum", Type: dec128(2)}, {Fn: "count_star", Type: expr.Int64}},
		}}},
		Out: arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true},
			{Name: "s", Type: dec128(2), Nullable: true}, {Name: "n", Type: expr.Int64, Nullable: true}}, nil),
	}
	res := &arrowgpu.AggResult{
		Rows:     4,
		Keys:     []*array.Int64{int64Array(1, 2, 3, 4)},
		KeyNulls: int64Array(0, 0, 0, 0),
		Ops: [][]*array.Int64{
			{int64Array(2, 3, 0, 1), int64Array(-1, 0, 0, -5), int64Array(0, -1, 0, -1)},
			{int64Array(2, 3, 1, 1)},
		},
	}
	defer res.Release()
	c := exec.NewContext(t.Context(), exec.Options{Threads: 1})
	rec, err := a.partialRows(c, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	want := []string{
		"1|184467440737095516.15|2",  // lo all ones, hi 0: 2^64-1
		"2|-184467440737095516.16|3", // hi -1, lo 0: -2^64
		"3|NULL|1",
		"4|-0.05|1",
	}
	eqRows(t, "device sums", batchRows(rec), want)
}

func dec128(s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: 38, Scale: s} }

// TestGPUWideSum: a device aggregation (on the GPU, else on gqemu) whose
// sums of Decimal64 values are DECIMAL(38) gives its CPU twin's rows (a
// HashAggregate over the same scan) where the sums pass int64, grouped and
// not.
func TestGPUWideSum(t *testing.T) {
	g := testGPU(t)
	rng := rand.New(rand.NewPCG(12, 38))
	in := &arrow.Decimal64Type{Precision: 18, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "v", Type: in, Nullable: true}}, nil)
	var batches []arrow.RecordBatch
	for range 5 {
		kb := array.NewInt64Builder(memory.DefaultAllocator)
		vb := array.NewDecimal64Builder(memory.DefaultAllocator, in)
		for range 1000 {
			k := rng.Int64N(6)
			kb.Append(k)
			if rng.IntN(20) == 0 {
				vb.AppendNull()
				continue
			}
			// Near 10^17 in magnitude, positive in groups 0-3 and
			// negative in 4-5: each group's sum and the total pass int64.
			v := int64(5e16) + rng.Int64N(int64(5e16))
			if k >= 4 {
				v = -v
			}
			vb.Append(decimal.Decimal64(v))
		}
		ka, va := kb.NewArray(), vb.NewArray()
		batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{ka, va}, 1000))
		ka.Release()
		va.Release()
		kb.Release()
		vb.Release()
	}
	table := catalog.NewMemTable("wide", schema, batches)
	exec.ReleaseBatches(batches)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, grouped := range []bool{true, false} {
		var keys []expr.Expr
		var fields []arrow.Field
		if grouped {
			keys = []expr.Expr{col(0, expr.Int64)}
			fields = append(fields, arrow.Field{Name: "k", Type: expr.Int64, Nullable: true})
		}
		fields = append(fields, arrow.Field{Name: "s", Type: dec128(2), Nullable: true}, arrow.Field{Name: "n", Type: expr.Int64, Nullable: true})
		out := arrow.NewSchema(fields, nil)
		aggs := []exec.AggFunc{{Fn: "sum", Arg: col(1, in), Type: dec128(2)}, {Fn: "count", Arg: col(1, in), Type: expr.Int64}}
		scan := &exec.Scan{Table: table, Columns: []int{0, 1}, Out: schema}
		ga, err := newAggregate(&GPUScan{CPU: scan, GPU: g}, nil, nil, AggStage{Keys: keys, Aggs: aggs, Final: true}, out, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runRows(t, mem, 2, 512, ga)
		if err != nil {
			t.Fatal(err)
		}
		want, err := runRows(t, mem, 2, 512, &exec.HashAggregate{Input: scan, GroupBy: keys, Aggs: aggs, Out: out})
		if err != nil {
			t.Fatal(err)
		}
		passes := false
		for _, r := range want {
			// the sum's unscaled value, past int64 either way
			v, ok := new(big.Int).SetString(strings.ReplaceAll(strings.Split(r, "|")[len(fields)-2], ".", ""), 10)
			passes = passes || ok && !v.IsInt64()
		}
		if !passes {
			t.Fatalf("no sum passes int64: the test shows nothing: %q", want)
		}
		if len(want) != map[bool]int{true: 6, false: 1}[grouped] {
			t.Fatalf("CPU rows %q", want)
		}
		slices.Sort(got)
		slices.Sort(want)
		eqRows(t, fmt.Sprint("grouped ", grouped), got, want)
	}
}
