package exec

import (
	"context"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
	"gq/shuffle"
)

// runExchangeRanks runs one Exchange of kind on each of 3 local ranks, each
// rank feeding it rank+1 batches of 100 int64 rows, and returns the
// exchanges, the Contexts they ran under and the rows each rank emitted.
func runExchangeRanks(t *testing.T, kind ExchangeKind) ([]*Exchange, []*Context, []int64) {
	t.Helper()
	const n = 3
	comms := shuffle.NewLocal(n)
	mem := memory.NewGoAllocator()
	xs := make([]*Exchange, n)
	cs := make([]*Context, n)
	rows := make([]int64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		vals := make([]any, 100)
		for i := range vals {
			vals[i] = int64(r*1000 + i)
		}
		src := &testSource{}
		for range r + 1 {
			b := mkBatch(mem, []string{"k"}, []arrow.DataType{arrow.PrimitiveTypes.Int64}, vals)
			src.schema = b.Schema()
			src.batches = append(src.batches, b)
		}
		xs[r] = &Exchange{Kind: kind, Input: src, Comm: comms[r], Op: 7,
			Keys: []expr.Expr{col(0, arrow.PrimitiveTypes.Int64)}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewContext(context.Background(), Options{Threads: 2, BatchSize: 1024, Alloc: mem})
			cs[r] = c
			errs[r] = Run(c, xs[r], func(b arrow.RecordBatch) error { rows[r] += b.NumRows(); return nil })
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	return xs, cs, rows
}

// TestExchangeShuffleBytes checks the per-exchange byte counts EXPLAIN
// ANALYZE shows, on 3 local ranks: every rank sends, what all ranks send
// is what all receive, and a gather's bytes all arrive on rank 0.
func TestExchangeShuffleBytes(t *testing.T) {
	for _, kind := range []ExchangeKind{ExchangeHash, ExchangeBroadcast, ExchangeGather} {
		t.Run(kind.String(), func(t *testing.T) {
			xs, cs, rows := runExchangeRanks(t, kind)
			var sent, received, total int64
			for r, x := range xs {
				s, rc := x.ShuffleBytes(cs[r])
				if s <= 0 {
					t.Errorf("rank %d sent %d bytes", r, s)
				}
				sent += s
				received += rc
				total += rows[r]
				st := x.RunStats(cs[r])
				if len(st) != 2 || st[0].Value != s || st[1].Value != rc || st[0].Unit != "bytes" {
					t.Errorf("rank %d RunStats %+v, want sent %d received %d", r, st, s, rc)
				}
			}
			if sent != received {
				t.Errorf("ranks sent %d bytes in all but received %d", sent, received)
			}
			// Rank r fed (r+1)*100 rows: 600 in all.
			switch kind {
			case ExchangeBroadcast:
				if total != 3*600 {
					t.Errorf("broadcast emitted %d rows, want 1800", total)
				}
			default:
				if total != 600 {
					t.Errorf("emitted %d rows, want 600", total)
				}
			}
			if kind == ExchangeGather {
				s1, r1 := xs[1].ShuffleBytes(cs[1])
				_, r0 := xs[0].ShuffleBytes(cs[0])
				if r1 != 0 || r0 != sent || s1 <= 0 {
					t.Errorf("gather: rank 0 received %d of %d, rank 1 received %d", r0, sent, r1)
				}
			}
		})
	}
}
