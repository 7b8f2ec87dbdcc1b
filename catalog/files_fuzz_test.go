package catalog

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// The file readers must turn any bytes into either a table or an error of
// kind IO, Execution or Unsupported — never a panic, an Internal error, a hang or a
// leaked buffer. FuzzCSV and FuzzParquet write the fuzzed bytes to a file
// and open and read every split and column of it with a checked
// allocator. Long runs (or `make fuzz`):
//
//	go test ./catalog -run '^$' -fuzz FuzzCSV -fuzztime 5m
//	go test ./catalog -run '^$' -fuzz FuzzParquet -fuzztime 5m

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,x\n2,y\n",
		"id,v\n",
		"a,b\n1\n2,3,4\n",            // ragged rows
		"a,b\n\"unterminated,1\n",    // bad quoting
		"a,b\n\"x\"\"y\",2\n\"\",\n", // escaped quotes, empty
		"a\n9223372036854775807\n-9223372036854775808\n9223372036854775808\n",
		"d,p\n2024-02-29,1.25\n2023-02-29,12345678901234567890.123\n",
		"a,a\n1,2\n",
		"\xef\xbb\xbfé,ü\n\xff\xfe,日本\n",
		"",
		"\n\n\n",
		"a,b\r\n1,2\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReadFile(t, "t.csv", data)
	})
}

func FuzzParquet(f *testing.F) {
	dir := f.TempDir()
	rec := sampleRecord(f, 0)
	defer rec.Release()
	p := filepath.Join(dir, "seed.parquet")
	writeParquet(f, p, rec, 4)
	good, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	// One row group: fewer splits than cores, the path that once decoded
	// columns in pqarrow's own (unguarded) goroutines.
	p1 := filepath.Join(dir, "one.parquet")
	writeParquet(f, p1, rec, 100)
	one, err := os.ReadFile(p1)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(one)
	f.Add(good[:len(good)/2])                            // truncated
	f.Add(good[:len(good)-8])                            // footer length and magic cut
	f.Add(append([]byte("PAR1"), good[len(good)-8:]...)) // a footer pointing nowhere
	corrupt := bytes.Clone(good)
	for i := 8; i < len(corrupt)-8; i += 97 {
		corrupt[i] ^= 0x5a
	}
	f.Add(corrupt)
	f.Add([]byte("PAR1"))
	f.Add([]byte("not parquet at all"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReadFile(t, "t.parquet", data)
	})
}

// fuzzReadFile writes data to a file called name and reads all of it.
func fuzzReadFile(t *testing.T, name string, data []byte) {
	path := filepath.Join(t.TempDir(), name)
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
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, cols, 3, mem, func(b arrow.RecordBatch) error {
			if int(b.NumCols()) != len(cols) {
				t.Errorf("batch has %d columns, want %d", b.NumCols(), len(cols))
			}
			b.Release()
			return nil
		})
		if err != nil {
			checkFileErr(t, err)
			break
		}
	}
	if n := mem.CurrentAlloc(); n != 0 {
		t.Fatalf("%d bytes still allocated after reading", n)
	}
}

func checkFileErr(t *testing.T, err error) {
	t.Helper()
	// Unsupported: a mutated footer can declare a column type gq does not read.
	if k := errs.KindOf(err); k != errs.IO && k != errs.Execution && k != errs.Unsupported {
		t.Fatalf("error of kind %v, want IO, Execution or Unsupported: %v", k, err)
	}
}
