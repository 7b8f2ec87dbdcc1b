package gpuexec

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
)

// rowCounted is a table that tells its splits' row counts (as Parquet
// does), possibly wrongly.
type rowCounted struct {
	catalog.Table
	rows func(split int) int64
}

func (r rowCounted) SplitRows(split int) int64 { return r.rows(split) }

// loadTable is a table of 23 splits of 300 rows: k an int64, s a string
// that is NULL every 11th row and whose values first appear in another
// order in every chunk, wide a string of distinct values.
func loadTable(name string) catalog.Table {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}, {Name: "s", Type: str, Nullable: true}, {Name: "wide", Type: str}}, nil)
	return multiSplitTable(name, schema, 23*300, 300, func(i, c int) any {
		switch c {
		case 0:
			return int64(i)
		case 1:
			if i%11 == 0 {
				return nil
			}
			return loadValue(i)
		}
		return fmt.Sprintf("w%d", i)
	})
}

// loadValue is row i's string: one of 9, some of one byte, the first of
// each chunk of 1000 rows (chunkRows in the test) different.
func loadValue(i int) string {
	v := (i*7 + i/1000) % 9
	if v < 3 {
		return string(rune('A' + v))
	}
	return fmt.Sprintf("val-%d", v)
}

// The pipelined load (decode, upload and encode chunk by chunk on all
// workers) holds the same rows as the table, in order, with string codes
// numbered as one pass over the rows would number them, whether the
// chunks are laid out from the splits' row counts or after reading them.
func TestGPULoadPipeline(t *testing.T) {
	g := testGPU(t)
	defer func(n, d int) { chunkRows, maxDictValues = n, d }(chunkRows, maxDictValues)
	chunkRows, maxDictValues = 1000, 100
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, known := range []bool{false, true} {
		t.Run(fmt.Sprintf("rows known %v", known), func(t *testing.T) {
			defer g.cache.evict(nil)
			g.cache.evict(nil)
			before := g.PoolStats().Allocations
			var tb catalog.Table = loadTable(fmt.Sprintf("load%v", known))
			if known {
				tb = &rowCounted{Table: tb, rows: func(int) int64 { return 300 }}
			}
			c := exec.NewContext(context.Background(), exec.Options{Threads: 3, BatchSize: 128, Alloc: mem})
			v, loaded, err := g.cache.acquire(c, tb, []int{0, 1, 2}, false)
			if err != nil {
				t.Fatal(err)
			}
			if loaded == 0 || v.load == nil {
				t.Fatalf("loaded %d bytes, stats %v", loaded, v.load)
			}
			if len(v.chunks) != 6 { // 23 splits of 300 rows: 5 chunks of 4, one of 3
				t.Errorf("%d chunks, want 6", len(v.chunks))
			}
			q, err := g.queue()
			if err != nil {
				t.Fatal(err)
			}
			defer g.putQueue(q)
			var ks []int64
			var ss []string
			for k := range v.chunks {
				a, err := q.Download(v.cols[0][k], mem)
				if err != nil {
					t.Fatal(err)
				}
				ks = append(ks, a.(*array.Int64).Int64Values()...)
				a.Release()
				d, err := q.Download(v.dicts[1].codes[k], mem)
				if err != nil {
					t.Fatal(err)
				}
				codes := d.(*array.Int32)
				for i := range codes.Len() {
					if codes.IsNull(i) {
						ss = append(ss, "NULL")
					} else {
						ss = append(ss, v.dicts[1].str(int(codes.Value(i))))
					}
				}
				d.Release()
			}
			var wantK []int64
			var wantS, order []string
			for i := range 23 * 300 {
				wantK = append(wantK, int64(i))
				if i%11 == 0 {
					wantS = append(wantS, "NULL")
					continue
				}
				wantS = append(wantS, loadValue(i))
				if !slices.Contains(order, loadValue(i)) {
					order = append(order, loadValue(i))
				}
			}
			if !slices.Equal(ks, wantK) {
				t.Errorf("k column differs from the table's")
			}
			if !slices.Equal(ss, wantS) {
				t.Errorf("s through its codes differs from the table's")
			}
			var dict []string
			for i := range v.dicts[1].values.Len() {
				dict = append(dict, v.dicts[1].values.Value(i))
			}
			if !slices.Equal(dict, order) {
				t.Errorf("dictionary %v, want first-seen order %v", dict, order)
			}
			if _, ok := v.dicts[2]; ok {
				t.Errorf("column wide (6900 distinct values) has a dictionary; maxDictValues is 100")
			}
			g.cache.release(v.entry)
			g.cache.evict(nil)
			if got := g.PoolStats().Allocations; got != before {
				t.Errorf("%d device allocations after eviction, %d before", got, before)
			}
		})
	}
}

// A split that reads other than the rows its metadata promised fails the
// load with an internal error, and leaves nothing on the device or host.
func TestGPULoadRowsMismatch(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 1000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer g.cache.evict(nil)
	g.cache.evict(nil)
	before := g.PoolStats().Allocations
	tb := &rowCounted{Table: loadTable("mismatch"), rows: func(s int) int64 {
		if s == 17 {
			return 299
		}
		return 300
	}}
	c := exec.NewContext(context.Background(), exec.Options{Threads: 3, BatchSize: 128, Alloc: mem})
	_, _, err := g.cache.acquire(c, tb, []int{0, 1}, false)
	if !errors.Is(err, errs.Internal) {
		t.Fatalf("error %v, want an internal error", err)
	}
	if got := g.PoolStats().Allocations; got != before {
		t.Errorf("%d device allocations after the failed load, %d before", got, before)
	}
}
