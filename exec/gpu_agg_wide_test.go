package exec

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/expr"
)

// TestGPUPartialRowsWide: a DECIMAL(38) sum read back from a device table
// is its 128-bit accumulator (low word, high word) exactly, past int64 in
// either direction; a group without values is NULL. No GPU needed.
func TestGPUPartialRowsWide(t *testing.T) {
	a := &GPUAggregate{
		Keys: []expr.Expr{&expr.Column{Index: 0, Type: expr.Int64}},
		Aggs: []AggFunc{{Fn: "sum", Type: dec128(2)}, {Fn: "count_star", Type: expr.Int64}},
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
	c := NewContext(t.Context(), Options{Threads: 1})
	rec, err := a.partialRows(c, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	want := []string{
		"1|" + bigStr(new(big.Int).Sub(two64, big.NewInt(1)), 2) + "|2", // lo all ones, hi 0
		"2|" + bigStr(new(big.Int).Neg(two64), 2) + "|3",                // hi -1, lo 0
		"3|NULL|1",
		"4|-0.05|1",
	}
	eqRows(t, "device sums", wideBatchRows(rec), want)
}

// wideSortVals are DECIMAL(38) values whose order needs both words: equal
// high words with low words on either side of 2^63, values around ±2^63
// and ±2^64, near ±10^37, and NULLs.
// TestGPUWideSum: a device aggregation (on the GPU, else on gqemu) whose
// sums of Decimal64 values are DECIMAL(38) returns the device's 128-bit
// sums exactly where they pass int64, grouped and not.
func TestGPUWideSum(t *testing.T) {
	g := testGPU(t)
	rng := rand.New(rand.NewPCG(12, 38))
	in := &arrow.Decimal64Type{Precision: 18, Scale: 2}
	rows := wideRandRows(rng, 5000, 6, in)
	for i := range rows {
		if rows[i].key == nil {
			k := int64(7)
			rows[i].key = &k // the device groups NULL keys too; keep the reference simple
		}
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema, batches := wideBatches(memory.DefaultAllocator, rows, in, 1000)
	table := catalog.NewMemTable("wide", schema, batches)
	releaseBatchList(batches)
	scan := &Scan{Table: table, Columns: []int{0, 1}, Out: schema}
	for _, grouped := range []bool{true, false} {
		var keys []expr.Expr
		var fields []arrow.Field
		if grouped {
			keys = []expr.Expr{col(0, expr.Int64)}
			fields = append(fields, arrow.Field{Name: "k", Type: expr.Int64, Nullable: true})
		}
		fields = append(fields, arrow.Field{Name: "s", Type: dec128(2), Nullable: true}, arrow.Field{Name: "n", Type: expr.Int64, Nullable: true})
		out := arrow.NewSchema(fields, nil)
		aggs := []AggFunc{{Fn: "sum", Arg: col(1, in), Type: dec128(2)}, {Fn: "count", Arg: col(1, in), Type: expr.Int64}}
		ga, err := NewGPUAggregate(&GPUScan{CPU: scan, GPU: g}, keys, aggs, out, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ga.Final = true
		got, err := wideRows(t, Options{Threads: 2, BatchSize: 512, Alloc: mem}, ga)
		if err != nil {
			t.Fatal(err)
		}
		ks, groups := wideRef(rows, grouped)
		var want []string
		for _, k := range ks {
			gr := groups[k]
			cell := "NULL"
			if gr.count > 0 {
				cell = bigStr(gr.sum, 2)
			}
			row := fmt.Sprintf("%s|%d", cell, gr.count)
			if grouped {
				row = k + "|" + row
			}
			want = append(want, row)
		}
		passes := false
		for _, gr := range groups {
			passes = passes || !fits64(gr.sum)
		}
		if !passes {
			t.Fatalf("no sum passes int64: the test shows nothing")
		}
		slices.Sort(got)
		slices.Sort(want)
		eqRows(t, fmt.Sprint("grouped ", grouped), got, want)
	}
}

// TestWideExchangeHash: a DECIMAL(38) key within int64 hashes as the
// Decimal64 of the same value (so ranks agree whichever type a side has),
// NULL as NULL, and keys that differ only in the high word apart.
