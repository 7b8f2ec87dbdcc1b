package gpuexec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/catalog"
	"gq/exec"
)

// writeDictParquet writes 4 row groups of 2500 rows, dictionary-encoded
// where the writer can: k an int64; mode one of 5 strings, another 5
// (overlapping, in another order, one of one byte) in each row group;
// note few values in row groups 0 and 2 and distinct ones in 1 and 3,
// whose dictionaries overflow the writer's limit (their chunks fall back
// to PLAIN pages midway); nmode as mode with a NULL every 7th row; hmode
// as mode with a NULL every 7th row of row groups 1 and 3 only (chunks
// mixing dictionary indices and strings with NULLs).
func writeDictParquet(t *testing.T) string {
	t.Helper()
	str := arrow.BinaryTypes.String
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "mode", Type: str}, {Name: "note", Type: str}, {Name: "nmode", Type: str, Nullable: true},
		{Name: "hmode", Type: str, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 10000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(dictMode(i))
		b.Field(2).(*array.StringBuilder).Append(dictNote(i))
		if i%7 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(dictMode(i + 3))
		}
		if (i/2500)%2 == 1 && i%7 == 0 {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.StringBuilder).Append(dictMode(i + 1))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "d.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(2500),
		parquet.WithDataPageSize(700), parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(2048),
		parquet.WithStats(true)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func dictMode(i int) string {
	rg := i / 2500
	v := (i*7+rg)%5 + rg
	if v == 2 {
		return "A"
	}
	return fmt.Sprintf("m%d", v)
}

func dictNote(i int) string {
	if (i/2500)%2 == 0 {
		return fmt.Sprintf("n%d", i%13)
	}
	return fmt.Sprintf("note %d of a row group whose dictionary overflows", i)
}

// plainTable hides a table's dictReader: its load decodes every string.
type plainTable struct{ catalog.Table }

// A load that takes the file's dictionary indices (dictReader) holds what
// one that decodes the strings holds: the same strings on the device, the
// same dictionaries and codes — over row groups with different
// dictionaries, chunks mixing dictionary indices and PLAIN fallback pages,
// NULLs, and a chunk of more distinct strings than codes allow.
func TestGPULoadParquetDictionaries(t *testing.T) {
	g := testGPU(t)
	path := writeDictParquet(t)
	tb, err := catalog.OpenFile("d", path)
	if err != nil {
		t.Fatal(err)
	}
	dr, ok := tb.(dictReader)
	if !ok {
		t.Fatalf("%T is not a dictReader", tb)
	}
	// The file is what the test needs: mode comes as indices, note as
	// indices in some row groups and strings in others.
	kinds := map[string]bool{}
	for s := range tb.NumSplits() {
		err := dr.ReadDictionaries(context.Background(), s, []int{1, 2, 3, 4}, 1<<17, memory.DefaultAllocator, func(b arrow.RecordBatch) error {
			defer b.Release()
			for c, name := range []string{"mode", "note", "nmode", "hmode"} {
				_, isDict := b.Column(c).(*array.Dictionary)
				kinds[fmt.Sprintf("%s %v", name, isDict)] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"mode true", "note true", "note false", "hmode true", "hmode false"} {
		if !kinds[k] {
			t.Fatalf("no batch of %q in %v", k, kinds)
		}
	}
	defer func(n, d int) { chunkRows, maxDictValues = n, d }(chunkRows, maxDictValues)
	chunkRows = 5000 // two chunks of two row groups
	for _, maxVals := range []int{1 << 18, 100} {
		t.Run(fmt.Sprintf("maxDictValues %d", maxVals), func(t *testing.T) {
			maxDictValues = maxVals
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			q, err := g.queue()
			if err != nil {
				t.Fatal(err)
			}
			defer g.putQueue(q)
			// Per column: the strings on the device, then the dictionary
			// and the strings through it (or "no dictionary").
			held := func(tb catalog.Table) [][]string {
				g.cache.evict(nil)
				defer g.cache.evict(nil)
				c := exec.NewContext(context.Background(), exec.Options{Threads: 2, BatchSize: 1024, Alloc: mem})
				v, _, err := g.cache.acquire(c, tb, []int{0, 1, 2, 3, 4}, false)
				if err != nil {
					t.Fatal(err)
				}
				defer g.cache.release(v.entry)
				if len(v.chunks) != 2 {
					t.Fatalf("%d chunks, want 2", len(v.chunks))
				}
				var out [][]string
				for _, o := range []int{1, 2, 3, 4} {
					var strs, viaCodes []string
					for k := range v.chunks {
						a, err := q.Download(v.cols[o][k], mem)
						if err != nil {
							t.Fatal(err)
						}
						for i := range a.Len() {
							if a.IsNull(i) {
								strs = append(strs, "NULL")
							} else {
								strs = append(strs, a.ValueStr(i))
							}
						}
						a.Release()
						d := v.dicts[o]
						if d == nil {
							continue
						}
						ca, err := q.Download(d.codes[k], mem)
						if err != nil {
							t.Fatal(err)
						}
						codes := ca.(*array.Int32)
						for i := range codes.Len() {
							if codes.IsNull(i) {
								viaCodes = append(viaCodes, "NULL")
							} else {
								viaCodes = append(viaCodes, d.str(int(codes.Value(i))))
							}
						}
						ca.Release()
					}
					dict := []string{"no dictionary"}
					if d := v.dicts[o]; d != nil {
						dict = nil
						for i := range d.values.Len() {
							dict = append(dict, d.values.Value(i))
						}
						if !slices.Equal(viaCodes, strs) {
							t.Errorf("column %d: the codes give other strings than the column", o)
						}
					}
					out = append(out, strs, dict)
				}
				return out
			}
			got, want := held(tb), held(plainTable{tb})
			for i := range want {
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("column %d %s: the load from dictionary indices differs from the load from strings: %s", 1+i/2, []string{"strings", "dictionary"}[i%2], firstDiff(got[i], want[i]))
				}
			}
			var rows []string
			for i := range 10000 {
				rows = append(rows, dictMode(i))
			}
			if !slices.Equal(got[0], rows) {
				t.Errorf("mode on the device differs from the file's: %s", firstDiff(got[0], rows))
			}
			if hasDict := got[3][0] != "no dictionary"; hasDict != (maxVals > 10000) {
				t.Errorf("note has a dictionary: %v, with maxDictValues %d", hasDict, maxVals)
			}
		})
	}
}

// firstDiff says where got and want first differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: %q, want %q", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d values, want %d", len(got), len(want))
}
