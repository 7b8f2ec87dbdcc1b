package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/errs"
)

// The catalogue of bad inputs (issue 10): each case is an input gq must
// refuse with an error of the stated kind — never a panic, a hang, a wrong
// answer or held memory — or, for MySQL's documented lenient cases
// (division by zero), answer NULL.

// badCase is one bad input: files to create, a query, and the error kind
// it must fail with (nil: it must succeed with want as its one row).
type badCase struct {
	name  string
	files map[string][]byte // relative to the case's directory; "-" suffix: mode 0 (unreadable)
	sql   string
	kind  *errs.Kind
	want  string // tab-separated single row, when kind is nil
}

func badInputCases(t *testing.T) []badCase {
	good := parquetBytes(t)
	corrupt := append([]byte{}, good...)
	for i := 4; i < len(corrupt)-8; i += 13 {
		corrupt[i] ^= 0xff
	}
	other := parquetBytesOther(t)
	deep := strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000)
	deepExpr := "1" + strings.Repeat(" + 1", 5000)
	var in strings.Builder
	for i := 0; i < 100000; i++ {
		if i > 0 {
			in.WriteString(",")
		}
		fmt.Fprint(&in, i)
	}
	return []badCase{
		// Parquet.
		{name: "parquet truncated", files: map[string][]byte{"t.parquet": good[:len(good)/2]}, sql: "select * from `DIR/t.parquet`", kind: errs.IO},
		{name: "parquet footer only", files: map[string][]byte{"t.parquet": good[len(good)-8:]}, sql: "select * from `DIR/t.parquet`", kind: errs.IO},
		{name: "parquet corrupted pages", files: map[string][]byte{"t.parquet": corrupt}, sql: "select * from `DIR/t.parquet`", kind: errs.IO},
		{name: "parquet empty file", files: map[string][]byte{"t.parquet": nil}, sql: "select * from `DIR/t.parquet`", kind: errs.IO},
		{name: "parquet not parquet", files: map[string][]byte{"t.parquet": []byte("id,v\n1,2\n")}, sql: "select * from `DIR/t.parquet`", kind: errs.IO},
		{name: "parquet glob wrong schema", files: map[string][]byte{"g/a.parquet": good, "g/b.parquet": other}, sql: "select * from `DIR/g/*.parquet`", kind: errs.IO},
		{name: "parquet wrong column", files: map[string][]byte{"t.parquet": good}, sql: "select nosuch from `DIR/t.parquet`", kind: errs.Binding},
		// CSV.
		{name: "csv ragged rows", files: map[string][]byte{"t.csv": []byte("a,b\n1,2\n3\n4,5,6\n")}, sql: "select * from `DIR/t.csv`", kind: errs.IO},
		{name: "csv bad quoting", files: map[string][]byte{"t.csv": []byte("a,b\n\"1,2\n3,4\n")}, sql: "select * from `DIR/t.csv`", kind: errs.IO},
		// A bare quote inside an unquoted field is read as text, like
		// DuckDB and MySQL's LOAD DATA do (RFC 4180 would refuse it).
		{name: "csv quote inside field", files: map[string][]byte{"t.csv": []byte("a,b\n1,x\"y\n")}, sql: "select * from `DIR/t.csv`", want: "1\tx\"y"},
		{name: "csv bad type in query", files: map[string][]byte{"t.csv": []byte("a,b\n1,x\n2,y\n")}, sql: "select a + b from `DIR/t.csv`", kind: errs.Binding},
		{name: "csv int overflow inferred", files: map[string][]byte{"t.csv": []byte("a\n9223372036854775807\n")}, sql: "select a + 1 from `DIR/t.csv`", kind: errs.Execution},
		{name: "csv binary garbage", files: map[string][]byte{"t.csv": {0xff, 0xfe, 0, 1, 2, '\n', 0, 0, ',', '"'}}, sql: "select * from `DIR/t.csv`", kind: errs.IO},
		// Files and directories.
		{name: "missing file", sql: "select * from `DIR/nosuch.parquet`", kind: errs.IO},
		{name: "missing directory", sql: "select * from `DIR/nosuchdir/x.csv`", kind: errs.IO},
		{name: "empty glob", sql: "select * from `DIR/*.parquet`", kind: errs.IO},
		{name: "unknown format", files: map[string][]byte{"t.txt": []byte("x")}, sql: "select * from `DIR/t.txt`", kind: errs.IO},
		{name: "permission denied", files: map[string][]byte{"t.csv-": []byte("a\n1\n")}, sql: "select * from `DIR/t.csv`", kind: errs.IO},
		// SQL type errors.
		{name: "string plus int", sql: "select 'a' + 1", kind: errs.Binding},
		{name: "compare string and int", sql: "select 1 from people where name = 1", kind: errs.Binding},
		{name: "sum of strings", sql: "select sum(name) from people", kind: errs.Binding},
		{name: "bad date literal", sql: "select date '2024-02-30'", kind: errs.Binding},
		{name: "bad cast", sql: "select cast('abc' as signed)", kind: errs.Execution},
		// Overflow: an error, never a wrap-around.
		{name: "int add overflow", sql: "select 9223372036854775807 + 1", kind: errs.Execution},
		{name: "int sub overflow", sql: "select -9223372036854775808 - 1", kind: errs.Execution},
		{name: "int mul overflow", sql: "select 4611686018427387904 * 2", kind: errs.Execution},
		{name: "int neg overflow", sql: "select -(-9223372036854775808)", kind: errs.Execution},
		{name: "abs overflow", sql: "select abs(-9223372036854775808)", kind: errs.Execution},
		{name: "sum overflow", sql: "select sum(99999999999999999999999999999999999999) from people", kind: errs.Execution},
		{name: "decimal overflow", sql: "select cast(99999999999999999.99 as decimal(18,2)) * 100", kind: errs.Execution},
		{name: "decimal sum overflow", sql: "select sum(x) from (select cast(999999999999999999999999999999999999.99 as decimal(38,2)) x from people union all select cast(999999999999999999999999999999999999.99 as decimal(38,2)) from people) t", kind: errs.Execution},
		// Division by zero: NULL (MySQL without ERROR_FOR_DIVISION_BY_ZERO strict mode).
		{name: "int division by zero", sql: "select 1 / 0, 1 div 0, 1 % 0, mod(1, 0)", want: "NULL\tNULL\tNULL\tNULL"},
		{name: "decimal division by zero", sql: "select 1.5 / 0, 1.5 % 0", want: "NULL\tNULL"},
		{name: "column division by zero", sql: "select count(*), count(age / 0) from people", want: "6\t0"},
		// Size and depth.
		{name: "huge IN list", sql: "select count(*) from people where id in (" + in.String() + ")", want: "6"},
		{name: "deep parentheses", sql: "select " + deep},
		{name: "long expression", sql: "select " + deepExpr, want: "5001"},
		{name: "deep subqueries", sql: "select " + strings.Repeat("(select ", 200) + "1" + strings.Repeat(")", 200)},
	}
}

func TestBadInputs(t *testing.T) {
	root := t.TempDir()
	for i, c := range badInputCases(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, fmt.Sprint(i))
			for name, data := range c.files {
				mode := os.FileMode(0o644)
				if strings.HasSuffix(name, "-") {
					if os.Geteuid() == 0 {
						t.Skip("running as root: permissions are not enforced")
					}
					name, mode = strings.TrimSuffix(name, "-"), 0
				}
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, mode); err != nil {
					t.Fatal(err)
				}
			}
			e := newTestEngine(t, Options{Threads: 2})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := e.Query(ctx, strings.ReplaceAll(c.sql, "DIR", dir))
			switch {
			case c.kind != nil && err == nil:
				res.Release()
				t.Fatalf("succeeded, want a %v", c.kind)
			case c.kind != nil:
				if !errors.Is(err, c.kind) {
					t.Fatalf("error %q is a %v, want a %v", err, errs.KindOf(err), c.kind)
				}
			case err != nil && c.want == "":
				// Depth limits may refuse, but only as a kinded error.
				if k := errs.KindOf(err); k == errs.Internal {
					t.Fatalf("internal error: %v", err)
				}
			case err != nil:
				t.Fatalf("unexpected error: %v", err)
			default:
				got := resultLines(res)
				res.Release()
				if c.want != "" && (len(got) != 1 || got[0] != c.want) {
					t.Fatalf("got %q, want %q", got, c.want)
				}
			}
			checkNoHeldMemory(t, e, c.name)
		})
	}
}

// parquetBytes is a small valid Parquet file (id BIGINT, v VARCHAR).
func parquetBytes(t *testing.T) []byte {
	return parquetOf(t, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.BinaryTypes.String}}, nil))
}

// parquetBytesOther has a different schema from parquetBytes'.
func parquetBytesOther(t *testing.T) []byte {
	return parquetOf(t, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "w", Type: arrow.PrimitiveTypes.Int64}}, nil))
}

// parquetOf writes 50 rows of schema (int64 and string columns) in row
// groups of 10.
func parquetOf(t *testing.T, schema *arrow.Schema) []byte {
	t.Helper()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i := 0; i < 50; i++ {
		for c := range schema.Fields() {
			switch fb := b.Field(c).(type) {
			case *array.Int64Builder:
				fb.Append(int64(i))
			case *array.StringBuilder:
				fb.Append(fmt.Sprintf("row %d", i))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(10)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
