package slt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestParse(t *testing.T) {
	recs, err := Parse(`# comment
hash-threshold 4

statement ok
CREATE TABLE t1(a INTEGER PRIMARY KEY, b INTEGER)

skipif mysql # not compatible
query I rowsort label-1
SELECT a
  FROM t1
----
1

onlyif sqlite
skipif postgresql
query II nosort
SELECT 1, 2
----
1
2

onlyif mysql # DIV
query R valuesort
SELECT 7 DIV 2
----
3.000

halt

query I
SELECT 'after halt'
----
0
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Fatalf("%d records: %+v", len(recs), recs)
	}
	if recs[0].Kind != "hash-threshold" || recs[0].Threshold != 4 {
		t.Errorf("hash-threshold: %+v", recs[0])
	}
	if recs[1].Kind != "statement" || recs[1].WantError || recs[1].Skip {
		t.Errorf("statement: %+v", recs[1])
	}
	q := recs[2]
	if !q.Skip || q.Types != "I" || q.Sort != "rowsort" || q.Label != "label-1" || q.SQL != "SELECT a\n  FROM t1" || len(q.Want) != 1 || q.Line != 8 {
		t.Errorf("skipif mysql query: %+v", q)
	}
	if !recs[3].Skip || recs[3].Sort != "nosort" {
		t.Errorf("onlyif sqlite query: %+v", recs[3])
	}
	if recs[4].Skip || recs[4].Sort != "valuesort" || recs[4].Want[0] != "3.000" {
		t.Errorf("onlyif mysql query: %+v", recs[4])
	}
}

func TestRender(t *testing.T) {
	mem := memory.NewGoAllocator()
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{-7, 0}, nil)
	ib.AppendNull()
	ints := ib.NewArray()
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues([]float64{-2.5, 1.0005, 3}, nil)
	floats := fb.NewArray()
	db := array.NewDecimal64Builder(mem, &arrow.Decimal64Type{Precision: 10, Scale: 2})
	db.AppendValues([]decimal.Decimal64{-250, 1999, 0}, nil)
	decs := db.NewArray()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"", "a\tb", "12abc"}, nil)
	strs := sb.NewArray()
	for _, c := range []struct {
		col  arrow.Array
		row  int
		typ  byte
		want string
	}{
		{ints, 0, 'I', "-7"}, {ints, 1, 'R', "0.000"}, {ints, 2, 'I', "NULL"}, {ints, 2, 'T', "NULL"},
		{floats, 0, 'I', "-2"}, {floats, 0, 'R', "-2.500"}, {floats, 2, 'I', "3"}, {floats, 2, 'T', "3"},
		{decs, 0, 'I', "-2"}, {decs, 1, 'I', "19"}, {decs, 1, 'R', "19.990"}, {decs, 0, 'R', "-2.500"},
		{strs, 0, 'T', "(empty)"}, {strs, 1, 'T', "a@b"}, {strs, 2, 'I', "12"}, {strs, 1, 'I', "0"},
	} {
		if got := Render(c.col, c.row, c.typ); got != c.want {
			t.Errorf("Render(%s row %d, %c) = %q, want %q", c.col.DataType(), c.row, c.typ, got, c.want)
		}
	}
}

func TestValuesAndCompare(t *testing.T) {
	rows := [][]string{{"2", "a"}, {"10", "b"}, {"2", "(empty)"}}
	vals := Values(rows, "rowsort")
	// strcmp order, as sqllogictest.c sorts: "10" < "2".
	if strings.Join(vals, " ") != "10 b 2 (empty) 2 a" {
		t.Errorf("rowsort: %v", vals)
	}
	if got := Values([][]string{{"b", "a"}, {"c", "1"}}, "valuesort"); strings.Join(got, " ") != "1 a b c" {
		t.Errorf("valuesort: %v", got)
	}
	if !Compare([]string{"1", "2"}, []string{"1", "2"}, 8) || Compare([]string{"1"}, []string{"1", "2"}, 8) {
		t.Error("value comparison")
	}
	// The corpus's own example: select1.test, 30 values hashing to ….
	nine := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if h := Hash(nine); !Compare(nine, []string{h}, 8) || Compare(nine, []string{h}, 0) || !strings.HasPrefix(h, "9 values hashing to ") {
		t.Errorf("hash comparison: %s", h)
	}
	// md5 of "" is the hash of no values.
	if Hash(nil) != "0 values hashing to d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("Hash(nil) = %s", Hash(nil))
	}
}

// TestRunFile runs a small script through gq: keys dropped, indexes
// skipped, every outcome counted.
func TestRunFile(t *testing.T) {
	script := `statement ok
CREATE TABLE t1(pk INTEGER PRIMARY KEY, a INTEGER, b VARCHAR(8), c FLOAT)

statement ok
INSERT INTO t1(a,pk,b,c) VALUES(3,1,'x',1.5),(NULL,2,'',2.25)

statement ok
CREATE INDEX t1a ON t1(a)

query ITR rowsort
SELECT a, b, c FROM t1
----
3
x
1.500
NULL
(empty)
2.250

query I nosort
SELECT a FROM t1 WHERE pk = 1
----
4

query II nosort
SELECT a FROM t1 WHERE pk = 1
----
3

query I nosort
SELECT no_such_column FROM t1
----
0

skipif mysql
query I nosort
SELECT 1
----
2

statement error
SELECT FROM WHERE
`
	path := filepath.Join(t.TempDir(), "x.test")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := RunFile(path, "x.test", Options{Examples: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Queries != 4 || r.Pass != 1 || r.Wrong != 2 || r.Errors != 1 || r.Skipped != 1 ||
		r.Statements != 4 || r.StatementsFailed != 0 || r.KeysDropped != 1 || r.IndexesSkipped != 1 {
		t.Errorf("tally %+v", r)
	}
	if len(r.Wrongs) != 2 || r.Wrongs[0].Got[0] != "3" || r.Wrongs[0].Want[0] != "4" {
		t.Errorf("wrong answers kept: %+v", r.Wrongs)
	}
}

func TestReason(t *testing.T) {
	for _, c := range []struct{ err, want string }{
		{`binding error at line 1, column 47: column "tab2.col2" must appear in GROUP BY`, `column "…" must appear in GROUP BY`},
		{`unsupported: DIV is only supported for integers, not DECIMAL(18,4) and BIGINT`, `DIV is only supported for integers, not DECIMAL(N,N) and BIGINT`},
	} {
		if got := Reason(errors.New(c.err)); !strings.HasSuffix(got, c.want) {
			t.Errorf("Reason(%q) = %q, want …%q", c.err, got, c.want)
		}
	}
}
