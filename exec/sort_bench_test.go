package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/exec/expr"
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
