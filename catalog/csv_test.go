package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

func writeFile(t testing.TB, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func schemaOf(tb Table) string {
	var parts []string
	for _, f := range tb.Schema().Fields() {
		parts = append(parts, f.Name+" "+f.Type.String())
	}
	return strings.Join(parts, ", ")
}

func TestCSVInferenceAndValues(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "t.csv"),
		"i,f,d,b,s,n\r\n"+
			"1,1.5,2024-02-29,true,plain,\r\n"+
			"-7,2,1970-01-01,FALSE,\"with, comma\",\r\n"+
			",,,,,\n"+
			"\n"+ // blank line: skipped
			"9223372036854775807,-1e3,1969-12-31,false,\"say \"\"hi\"\"\nnext line\",\n"+
			"0,0,2000-01-01,true,\"\",")
	tb, err := OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	want := "i int64, f float64, d date32, b bool, s utf8, n utf8"
	if got := schemaOf(tb); got != want {
		t.Errorf("schema = %s, want %s", got, want)
	}
	if tb.Stats().RowCount != 5 {
		t.Errorf("row count = %d", tb.Stats().RowCount)
	}
	rows := readAll(t, tb, []int{0, 1, 2, 3, 4, 5}, 2)
	wantRows := []string{
		"1|1.5|2024-02-29|true|plain|NULL",
		"-7|2|1970-01-01|false|with, comma|NULL",
		"NULL|NULL|NULL|NULL|NULL|NULL",
		"9223372036854775807|-1000|1969-12-31|false|say \"hi\"\nnext line|NULL",
		"0|0|2000-01-01|true||NULL", // quoted "" is an empty string, not NULL
	}
	if len(rows) != len(wantRows) {
		t.Fatalf("got %d rows: %q", len(rows), rows)
	}
	for i, w := range wantRows {
		if got := strings.Join(rows[i], "|"); got != w {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
	// Column subset in another order.
	rows = readAll(t, tb, []int{4, 0}, 10)
	if got := strings.Join(rows[1], "|"); got != "with, comma|-7" {
		t.Errorf("subset row 1 = %q", got)
	}
}

func TestCSVErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text, want string
	}{
		{"ragged.csv", "a,b\n1,2\n3\n", "ragged.csv:3: expected 2 fields, found 1"},
		{"unterminated.csv", "a,b\n1,\"open\n", "unterminated.csv:2: unterminated quoted field"},
		{"empty.csv", "", "empty CSV file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, filepath.Join(dir, c.name), c.text)
			_, err := OpenFile("t", path)
			if !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want IO error containing %q", err, c.want)
			}
		})
	}

	// A value late in a file that is sniffed whole widens the column.
	var sb strings.Builder
	sb.WriteString("id,x\n")
	for i := 0; i < 5000; i++ {
		if i == 1000 {
			sb.WriteString("1,two\n")
		}
		sb.WriteString("1,2\n")
	}
	path := writeFile(t, filepath.Join(dir, "late.csv"), sb.String())
	tb, err := OpenFile("late", path)
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(tb); got != "id int64, x utf8" {
		t.Errorf("late value: schema %s", got)
	}
	// One between the pieces of a sample: file:line and column, and how
	// to give the type.
	defer func(h, s, c int) { csvHeadBytes, csvSampleBytes, csvSpreadChunks = h, s, c }(csvHeadBytes, csvSampleBytes, csvSpreadChunks)
	csvHeadBytes, csvSampleBytes, csvSpreadChunks = 64, 128, 2
	tb, err = OpenFile("late", path)
	if err != nil {
		t.Fatal(err)
	}
	err = tb.Read(t.Context(), 0, []int{1}, 100, memory.NewGoAllocator(), func(b arrow.RecordBatch) error { b.Release(); return nil })
	want := "late.csv:1002: column x: cannot read \"two\" as BIGINT (the type sniffed from a sample of the file; read_csv's types"
	if !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestCSVGlobWidensAndTSV(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "p1.csv"), "k,v\n1,10\n2,20\n")
	writeFile(t, filepath.Join(dir, "p2.csv"), "k,v\n3,2.5\n4,x\n")
	tb, err := OpenFile("p", filepath.Join(dir, "p*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(tb); got != "k int64, v utf8" {
		t.Errorf("schema = %s", got)
	}
	if tb.NumSplits() != 2 {
		t.Errorf("splits = %d", tb.NumSplits())
	}
	rows := readAll(t, tb, []int{0, 1}, 10)
	if len(rows) != 4 || strings.Join(rows[3], "|") != "4|x" || strings.Join(rows[0], "|") != "1|10" {
		t.Errorf("rows = %q", rows)
	}
	writeFile(t, filepath.Join(dir, "q.csv"), "k,w\n1,2\n")
	if _, err := OpenFile("p", filepath.Join(dir, "[pq]*.csv")); !errors.Is(err, errs.IO) {
		t.Errorf("different headers: %v", err)
	}

	path := writeFile(t, filepath.Join(dir, "t.tsv"), "a\tb\nx,y\t1.25\n")
	tb, err = OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(tb); got != "a utf8, b float64" {
		t.Errorf("tsv schema = %s", got)
	}
	if rows := readAll(t, tb, []int{0, 1}, 10); strings.Join(rows[0], "|") != "x,y|1.25" {
		t.Errorf("tsv rows = %q", rows)
	}
}

func TestParseHelpers(t *testing.T) {
	ints := []struct {
		in string
		v  int64
		ok bool
	}{{"0", 0, true}, {"+12", 12, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false}, {"-", 0, false}, {"1.0", 0, false}, {"", 0, false}, {"99999999999999999999", 0, false}}
	for _, c := range ints {
		if v, ok := parseInt([]byte(c.in)); v != c.v || ok != c.ok {
			t.Errorf("parseInt(%q) = %d, %v", c.in, v, ok)
		}
	}
	dates := []struct {
		in string
		v  int32
		ok bool
	}{{"1970-01-01", 0, true}, {"1992-01-02", 8036, true}, {"1900-02-29", 0, false}, {"2000-02-29", 11016, true},
		{"1969-12-31", -1, true}, {"0001-01-01", -719162, true}, {"2024-13-01", 0, false}, {"2024-1-01x", 0, false}}
	for _, c := range dates {
		if v, ok := parseDate([]byte(c.in)); v != c.v || ok != c.ok {
			t.Errorf("parseDate(%q) = %d, %v", c.in, v, ok)
		}
	}
	for _, s := range []string{"nan", "inf", "1e", "--", "0x10"} {
		if _, ok := parseFloat([]byte(s)); ok {
			t.Errorf("parseFloat(%q) accepted", s)
		}
	}
}

func TestCSVByteRangeSplits(t *testing.T) {
	defer func(old int64) { csvSplitBytes = old }(csvSplitBytes)
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("id,name\n")
	for i := 0; i < 50; i++ {
		sb.WriteString(strings.Repeat("1", i%3+1) + ",n" + strings.Repeat("x", i%7) + "\n")
	}
	body := sb.String()
	plain := writeFile(t, filepath.Join(dir, "plain.csv"), body)
	noEOL := writeFile(t, filepath.Join(dir, "noeol.csv"), strings.TrimSuffix(body, "\n"))
	quoted := writeFile(t, filepath.Join(dir, "quoted.csv"), body+"\"7\",\"a\nb\"\n")
	for size := int64(1); size <= 45; size++ {
		csvSplitBytes = size
		for _, p := range []string{plain, noEOL} {
			tb, err := OpenFile("t", p)
			if err != nil {
				t.Fatal(err)
			}
			if tb.NumSplits() < 2 {
				t.Fatalf("size %d: %d splits", size, tb.NumSplits())
			}
			rows := readAll(t, tb, []int{0, 1}, 7)
			if len(rows) != 50 {
				t.Fatalf("size %d %s: %d rows", size, filepath.Base(p), len(rows))
			}
			for i, r := range rows {
				if want := strings.Repeat("1", i%3+1) + "|n" + strings.Repeat("x", i%7); strings.Join(r, "|") != want {
					t.Fatalf("size %d: row %d = %q, want %q", size, i, r, want)
				}
			}
		}
		if tb, err := OpenFile("q", quoted); err != nil || tb.NumSplits() != 1 {
			t.Fatalf("quoted file: %v splits, %v", tb, err)
		}
	}
	// Errors in later ranges still name the true line (past the sniffing
	// sample, which would refuse the file at open).
	defer func(h, s, c int) { csvHeadBytes, csvSampleBytes, csvSpreadChunks = h, s, c }(csvHeadBytes, csvSampleBytes, csvSpreadChunks)
	csvHeadBytes, csvSampleBytes, csvSpreadChunks = 64, 64, 1
	csvSplitBytes = 64
	big := "id,name\n" + strings.Repeat("1,a\n", 1100) + "1,2,3\n"
	bad := writeFile(t, filepath.Join(dir, "bad.csv"), big)
	tb, err := OpenFile("b", bad)
	if err != nil {
		t.Fatal(err)
	}
	var got error
	for s := 0; s < tb.NumSplits() && got == nil; s++ {
		got = tb.Read(t.Context(), s, []int{0}, 10, memory.NewGoAllocator(), func(b arrow.RecordBatch) error { b.Release(); return nil })
	}
	if !errors.Is(got, errs.IO) || !strings.Contains(got.Error(), "bad.csv:1102: expected 2 fields, found 3") {
		t.Errorf("err = %v", got)
	}
}

func BenchmarkCSVRead(b *testing.B) {
	const rows = 200000
	var sb strings.Builder
	sb.WriteString("k,price,day,comment\n")
	for i := 0; i < rows; i++ {
		sb.WriteString(strconv.Itoa(i) + "," + strconv.Itoa(i%10000) + ".25,1995-03-1" + strconv.Itoa(i%10) + ",some comment text\n")
	}
	path := writeFile(b, filepath.Join(b.TempDir(), "bench.csv"), sb.String())
	tb, err := OpenFile("bench", path)
	if err != nil {
		b.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for s := 0; s < tb.NumSplits(); s++ {
			err := tb.Read(b.Context(), s, []int{0, 1, 2, 3}, 8192, mem, func(r arrow.RecordBatch) error { r.Release(); return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// Integers past BIGINT and decimals past 18 digits read as DECIMAL(38,s),
// exactly, instead of DOUBLE; short decimals stay DOUBLE (as DuckDB's
// sniffer types them), and a column that mixes in text stays VARCHAR.
func TestCSVWideDecimals(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "w.csv"),
		"big,amount,short,mixed\n"+
			"123456789012345678901234,12345678901234567890.12,1.5,1\n"+
			"-5,-0.5,2.25,x\n"+
			",,,\n"+
			"-99999999999999999999999999999999999999,0.001,3,2\n")
	tb, err := OpenFile("w", path)
	if err != nil {
		t.Fatal(err)
	}
	want := "big decimal(38, 0), amount decimal(38, 3), short float64, mixed utf8"
	if got := schemaOf(tb); got != want {
		t.Errorf("schema = %s, want %s", got, want)
	}
	rows := readAll(t, tb, []int{0, 1}, 2)
	wantRows := []string{
		"123456789012345678901234|12345678901234567890.12",
		"-5|-0.5", // arrow's ValueStr drops trailing zeros
		"NULL|NULL",
		"-99999999999999999999999999999999999999|0.001",
	}
	for i, w := range wantRows {
		if got := strings.Join(rows[i], "|"); got != w {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
	// A value past the sampled scale (beyond the sample), an exponent or
	// 39 digits does not parse, and the reader reports the line.
	for _, bad := range []string{"1.2345", "1e5", "123456789012345678901234567890123456789", "-", "1.2.3"} {
		if v, ok := parseDecimal128([]byte(bad), 2); ok {
			t.Errorf("parseDecimal128(%q, 2) = %s", bad, v.ToString(2))
		}
	}
	for in, want := range map[string]string{"-12.5": "-1250", "+0.01": "1", "007": "700", "99999999999999999999999999999999999.99": "9999999999999999999999999999999999999"} {
		if v, ok := parseDecimal128([]byte(in), 2); !ok || v.BigInt().String() != want {
			t.Errorf("parseDecimal128(%q, 2) = %s %v, want %s", in, v.BigInt(), ok, want)
		}
	}
}
