package exec

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// benchBatches makes rows random (key, payload) Int64 rows in 64K batches.
func benchBatches(rows int) []arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(1, 1))
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "v", Type: expr.Int64}}, nil)
	var bs []arrow.RecordBatch
	for done := 0; done < rows; done += DefaultBatchSize {
		n := min(DefaultBatchSize, rows-done)
		kb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
		for i := range n {
			kb.Append(rng.Int64())
			vb.Append(int64(done + i))
		}
		k, v := kb.NewArray(), vb.NewArray()
		bs = append(bs, array.NewRecordBatch(schema, []arrow.Array{k, v}, int64(n)))
		k.Release()
		v.Release()
	}
	return bs
}

func benchSort(b *testing.B, rows int, limit int64) {
	bs := benchBatches(rows)
	defer releaseBatches(bs)
	src := &testSource{schema: bs[0].Schema(), batches: bs}
	b.ResetTimer()
	for range b.N {
		c := NewContext(b.Context(), Options{})
		var got int64
		err := Run(c, &Sort{Input: src, Keys: []SortKey{{Expr: col(0, expr.Int64)}}, Limit: limit},
			func(out arrow.RecordBatch) error { got += out.NumRows(); return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkSort1MInt(b *testing.B) { benchSort(b, 1_000_000, -1) }
func BenchmarkTop10Of6M(b *testing.B) { benchSort(b, 6_000_000, 10) }

// BenchmarkSortSmallStrings sorts 28K rows by an integer (descending),
// two strings and an integer, as TPC-H q16's final sort at SF10.
func BenchmarkSortSmallStrings(b *testing.B) {
	const rows = 28_000
	rng := rand.New(rand.NewPCG(2, 2))
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: expr.Int64}, {Name: "brand", Type: expr.String},
		{Name: "type", Type: expr.String}, {Name: "size", Type: expr.Int64}}, nil)
	nb, bb := array.NewInt64Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
	tb, sb := array.NewStringBuilder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	for range rows {
		nb.Append(rng.Int64N(40))
		bb.Append(fmt.Sprintf("Brand#%d%d", 1+rng.IntN(5), 1+rng.IntN(5)))
		tb.Append(fmt.Sprintf("STANDARD POLISHED %d", rng.IntN(150)))
		sb.Append(rng.Int64N(50))
	}
	cols := []arrow.Array{nb.NewArray(), bb.NewArray(), tb.NewArray(), sb.NewArray()}
	batch := array.NewRecordBatch(schema, cols, rows)
	releaseArrays(cols)
	defer batch.Release()
	src := &testSource{schema: schema, batches: []arrow.RecordBatch{batch}}
	keys := []SortKey{{Expr: col(0, expr.Int64), Desc: true}, {Expr: col(1, expr.String)}, {Expr: col(2, expr.String)}, {Expr: col(3, expr.Int64)}}
	b.ResetTimer()
	for range b.N {
		c := NewContext(b.Context(), Options{})
		err := Run(c, &Sort{Input: src, Keys: keys, Limit: -1}, func(out arrow.RecordBatch) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
