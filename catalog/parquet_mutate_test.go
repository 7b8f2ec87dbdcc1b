package catalog

import (
	"bytes"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// mutateTime runs TestParquetMutations longer (make fuzz sets it). The
// coverage-guided FuzzParquet spends most of its time minimising on this
// machine (a few execs a second); this blind mutation loop reads thousands
// of corrupted files a minute, and found the crash in pqarrow's parallel
// column decoding (see parquet.go) that FuzzParquet had not.
var mutateTime = flag.Duration("parquet.mutate", time.Second, "how long TestParquetMutations corrupts and reads Parquet files")

// TestParquetMutations corrupts a valid one-row-group file a few bytes at
// a time and reads every column of it: each read must end (in well under
// the time limit) with data or an error of a proper kind, never a panic.
// Leak checks are left to FuzzParquet: testdata/fuzz-pending lists a leak
// on an error path this loop also finds.
func TestParquetMutations(t *testing.T) {
	rec := sampleRecord(t, 0)
	defer rec.Release()
	p := filepath.Join(t.TempDir(), "seed.parquet")
	writeParquet(t, p, rec, 100)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2)) // fixed: a failure reproduces
	deadline := time.Now().Add(*mutateTime)
	n := 0
	for ; time.Now().Before(deadline); n++ {
		data := bytes.Clone(good)
		for k := 1 + r.IntN(4); k > 0; k-- {
			i := r.IntN(len(data))
			switch r.IntN(3) {
			case 0:
				data[i] = byte(r.IntN(256))
			case 1:
				data[i] ^= 0x80
			default:
				data[i] = 0xff
			}
		}
		start := time.Now()
		readCorrupt(t, data)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("a corrupted file took %v to read", d)
		}
	}
	t.Logf("%d corrupted files read", n)
}

func readCorrupt(t *testing.T, data []byte) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenFile("t", path)
	if err != nil {
		checkFileErr(t, err)
		return
	}
	cols := make([]int, tb.Schema().NumFields())
	for i := range cols {
		cols[i] = i
	}
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, cols, 3, memory.NewGoAllocator(), func(b arrow.RecordBatch) error { b.Release(); return nil })
		if err != nil {
			checkFileErr(t, err)
			return
		}
	}
}
