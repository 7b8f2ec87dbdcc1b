package catalog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gq/errs"
)

// A footer whose column chunk's codec is unset (a mutated UNCOMPRESSED
// file found by FuzzParquet) is refused when the table is opened, before
// any reader exists: arrow-go's page reader, given such a chunk, left its
// 16 KiB header buffer on the query's allocator (the fuzz corpus replays
// the read and checks the allocator returns to zero).
func TestParquetUnsetCodecRefusedAtOpen(t *testing.T) {
	corpus, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzParquet", "leak-on-unset-codec"))
	if err != nil {
		t.Fatal(err)
	}
	// The corpus file is "go test fuzz v1\n[]byte(\"...\")\n".
	lit := strings.TrimSpace(strings.SplitN(string(corpus), "\n", 2)[1])
	lit = strings.TrimSuffix(strings.TrimPrefix(lit, "[]byte("), ")")
	data, err := strconv.Unquote(lit)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = OpenFile("t", path)
	if errs.KindOf(err) != errs.Unsupported || !strings.Contains(err.Error(), "compressed with") {
		t.Fatalf("OpenFile: %v, want an Unsupported error naming the codec", err)
	}
}
