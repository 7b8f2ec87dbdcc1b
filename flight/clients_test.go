package flight

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/engine"
)

// Clients other than arrow-go's read the server's answers; each test
// renders their values in one canonical text form (cell) and compares
// them with the engine's own answer rendered the same way.

// typesQuery returns a column of each gq type, and of each scalar type a
// column with NULLs: negative decimals check the sign of the widened high
// word, DECIMAL(38) values have more than 18 digits, timestamps and times
// have microseconds (and dates before 1970), intervals have months, days
// and nanoseconds of both signs, and the list, struct and map columns come
// from a Parquet file (nested.parquet, with NULLs and empty values at each
// level, and NULL rows from the outer join). It runs on typesEngine.
const typesQuery = `with o as (select *,
		make_timestamp(1960 + o_orderkey % 20, 1 + o_orderkey % 12, 1 + o_orderkey % 28,
			o_orderkey % 24, o_orderkey % 60, o_orderkey % 60 + 0.123457) as ts
	from orders)
select o_orderkey as c_bigint,
	o_totalprice as c_decimal,
	o_totalprice - 150000 as c_decimal_neg,
	cast(o_totalprice as decimal(38,4)) * 12345678901234567 as c_decimal38,
	cast(o_totalprice - 150000 as decimal(38,4)) * 12345678901234567 as c_decimal38_neg,
	cast(o_totalprice as double) / 7 as c_double,
	o_orderdate as c_date,
	ts as c_timestamp,
	cast(ts as timestamptz) as c_timestamptz,
	cast(ts as time) as c_time,
	cast(concat(o_orderkey % 30 - 10, ' months ', o_orderkey % 7 - 3, ' days ', o_orderkey * 3601, '.000123 seconds') as interval) as c_interval,
	o_orderpriority as c_varchar,
	o_orderstatus = 'F' as c_boolean,
	n.tags as c_list,
	n.pt as c_struct,
	n.attrs as c_map,
	case when o_orderkey % 3 = 0 then null else o_custkey end as n_bigint,
	case when o_orderkey % 3 = 1 then null else o_totalprice end as n_decimal,
	case when o_orderkey % 3 = 2 then null else cast(o_totalprice as decimal(38,4)) * -12345678901234567 end as n_decimal38,
	case when o_orderkey % 3 = 0 then null else cast(o_totalprice as double) end as n_double,
	case when o_orderkey % 3 = 1 then null else o_orderdate end as n_date,
	case when o_orderkey % 3 = 2 then null else ts end as n_timestamp,
	case when o_orderkey % 3 = 0 then null else cast(ts as timestamptz) end as n_timestamptz,
	case when o_orderkey % 3 = 1 then null else cast(ts as time) end as n_time,
	case when o_orderkey % 3 = 2 then null else ts - cast(o_orderdate as timestamp) end as n_interval,
	case when o_orderkey % 3 = 0 then null else o_clerk end as n_varchar,
	case when o_orderkey % 3 = 1 then null else o_orderstatus = 'O' end as n_boolean
from o left join nested n on n.id = o_orderkey % 8
where o_orderkey < 600 order by o_orderkey`

// typesEngine is an engine over the TPC-H tables and nested.parquet (as
// table nested), the tables typesQuery reads.
func typesEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e := newEngine(t)
	nt, err := catalog.OpenFile("nested", "../testdata/sql/data/nested.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Catalog().Register(nt, false); err != nil {
		t.Fatal(err)
	}
	return e
}

// gqTypes are the gq types typesQuery's columns must cover, each with
// the test that recognises it in a result schema.
var gqTypes = []struct {
	name string
	is   func(arrow.DataType) bool
}{
	{"BIGINT", idIs(arrow.INT64)},
	{"DECIMAL(18)", idIs(arrow.DECIMAL64)},
	{"DECIMAL(38)", func(t arrow.DataType) bool {
		d, ok := t.(*arrow.Decimal128Type)
		return ok && d.Precision > 18
	}},
	{"DOUBLE", idIs(arrow.FLOAT64)},
	{"DATE", idIs(arrow.DATE32)},
	{"TIMESTAMP", func(t arrow.DataType) bool {
		ts, ok := t.(*arrow.TimestampType)
		return ok && ts.TimeZone == ""
	}},
	{"TIMESTAMPTZ", func(t arrow.DataType) bool {
		ts, ok := t.(*arrow.TimestampType)
		return ok && ts.TimeZone != ""
	}},
	{"TIME", idIs(arrow.TIME64)},
	{"INTERVAL", idIs(arrow.INTERVAL_MONTH_DAY_NANO)},
	{"VARCHAR", idIs(arrow.STRING)},
	{"BOOLEAN", idIs(arrow.BOOL)},
	{"LIST", idIs(arrow.LIST)},
	{"STRUCT", idIs(arrow.STRUCT)},
	{"MAP", idIs(arrow.MAP)},
}

func idIs(id arrow.Type) func(arrow.DataType) bool {
	return func(t arrow.DataType) bool { return t.ID() == id }
}

// cellNull is a NULL's canonical text.
const cellNull = "NULL"

// cell is value i of arr in canonical text: integers and decimals in
// digits (a decimal with its scale's fraction digits), doubles in Go's
// shortest form, dates as days since the epoch, timestamps and times as
// their integer in the type's unit (gq's: microseconds), intervals as
// intervalText, booleans true/false, nested values as nestedText.
func cell(t *testing.T, arr arrow.Array, i int) string {
	t.Helper()
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return cellNull
	}
	switch a := arr.(type) {
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Decimal64:
		return decimalText(big.NewInt(int64(a.Value(i))), a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.Decimal128:
		return decimalText(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Float64:
		return floatText(a.Value(i))
	case *array.Date32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.String:
		return a.Value(i)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Timestamp:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Time64:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.MonthDayNanoInterval:
		return intervalText(a.Value(i))
	case *array.Map, *array.List, *array.Struct:
		return nestedText(t, arr, i, false)
	}
	t.Fatalf("no canonical form for %s", arr.DataType())
	return ""
}

// intervalText is an interval's canonical text, "months/days/nanoseconds".
func intervalText(v arrow.MonthDayNanoInterval) string {
	return fmt.Sprintf("%d/%d/%d", v.Months, v.Days, v.Nanoseconds)
}

// nestedText is nested value i of arr as the compact JSON text of its
// canonical form: a list an array of its values, a struct an object of its
// fields in order, a map an array of [key, value] pairs in order, and
// each scalar inside its cell text (NULL null). asDriver renders it as
// ADBC's database/sql driver can return it (arrow-go's arreflect turns a
// list or map into a Go slice or map of non-pointer values): a NULL list
// element or map value as its type's zero value, map pairs in key order.
func nestedText(t *testing.T, arr arrow.Array, i int, asDriver bool) string {
	t.Helper()
	var b strings.Builder
	writeNested(t, &b, arr, i, asDriver)
	return b.String()
}

func writeNested(t *testing.T, b *strings.Builder, arr arrow.Array, i int, asDriver bool) {
	t.Helper()
	if arr.IsNull(i) {
		b.WriteString("null")
		return
	}
	switch a := arr.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		pairs := make([]string, 0, end-start)
		for j := int(start); j < int(end); j++ {
			var p strings.Builder
			p.WriteByte('[')
			writeNested(t, &p, a.Keys(), j, asDriver)
			p.WriteByte(',')
			writeElem(t, &p, a.Items(), j, asDriver)
			p.WriteByte(']')
			pairs = append(pairs, p.String())
		}
		if asDriver {
			slices.Sort(pairs)
		}
		b.WriteString("[" + strings.Join(pairs, ",") + "]")
	case *array.List:
		start, end := a.ValueOffsets(i)
		b.WriteByte('[')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b.WriteByte(',')
			}
			writeElem(t, b, a.ListValues(), j, asDriver)
		}
		b.WriteByte(']')
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		b.WriteByte('{')
		for k := range a.NumField() {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(st.Field(k).Name) + ":")
			writeNested(t, b, a.Field(k), i, asDriver)
		}
		b.WriteByte('}')
	default:
		b.WriteString(jsonString(cell(t, arr, i)))
	}
}

// writeElem writes a list element or map value: with asDriver, a NULL as
// its type's zero value.
func writeElem(t *testing.T, b *strings.Builder, arr arrow.Array, j int, asDriver bool) {
	t.Helper()
	if asDriver && arr.IsNull(j) {
		switch arr.DataType().ID() {
		case arrow.INT64, arrow.FLOAT64:
			b.WriteString(`"0"`)
		case arrow.STRING:
			b.WriteString(`""`)
		case arrow.BOOL:
			b.WriteString(`"false"`)
		default:
			t.Fatalf("no zero value for a NULL %s element", arr.DataType())
		}
		return
	}
	writeNested(t, b, arr, j, asDriver)
}

// jsonString is s as a JSON string, escaped as JavaScript's JSON.stringify
// escapes it (no HTML escapes).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func floatText(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// decimalText is an unscaled decimal with scale fraction digits.
func decimalText(v *big.Int, scale int32) string {
	neg := v.Sign() < 0
	s := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(s) <= int(scale) {
			s = strings.Repeat("0", int(scale)-len(s)+1) + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// engineRows is the engine's answer to sql: its schema and its rows in
// canonical text.
func engineRows(t *testing.T, e *engine.Engine, sql string) (*arrow.Schema, [][]string) {
	t.Helper()
	return engineRowsAs(t, e, sql, false)
}

// engineRowsAs is engineRows, with nested values rendered as ADBC's
// database/sql driver can return them when asDriver (nestedText).
func engineRowsAs(t *testing.T, e *engine.Engine, sql string, asDriver bool) (*arrow.Schema, [][]string) {
	t.Helper()
	res, err := e.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	defer res.Release()
	var rows [][]string
	for _, b := range res.Batches {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for c, col := range b.Columns() {
				if _, nested := col.DataType().(arrow.NestedType); nested && asDriver && col.IsValid(r) {
					row[c] = nestedText(t, col, r, true)
				} else {
					row[c] = cell(t, col, r)
				}
			}
			rows = append(rows, row)
		}
	}
	return res.Schema, rows
}

// compareRows reports the first differences between got and want, rows
// in the same order.
func compareRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
	}
	bad := 0
	for r := range min(len(got), len(want)) {
		if fmt.Sprint(got[r]) != fmt.Sprint(want[r]) {
			if bad++; bad <= 5 {
				t.Errorf("%s: row %d\n got  %q\n want %q", what, r, got[r], want[r])
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d rows differ in all", what, bad)
	}
}

// coversTypes fails unless schema has a column of each gq type.
func coversTypes(t *testing.T, schema *arrow.Schema) {
	t.Helper()
	for _, g := range gqTypes {
		found := false
		for _, f := range schema.Fields() {
			found = found || g.is(f.Type)
		}
		if !found {
			t.Errorf("the query has no %s column: %v", g.name, schema)
		}
	}
}

// checkQ01 compares q01's rows as a client read them (canonical text, in
// schema's columns) with DuckDB's answer over the data the tests serve
// (tpchDir): the repository's SF 0.1 set, or the SF 0.01 set generated
// when it is absent. testdata/q01-sf0.01.csv was made as the SF 0.1
// answers were (testdata/tpch/README.md), over `gq gen tpch --sf 0.01`.
func checkQ01(t *testing.T, client string, schema *arrow.Schema, rows [][]string) {
	t.Helper()
	file := "testdata/q01-sf0.01.csv"
	if tpchDir(t) == sf01Dir {
		file = "../testdata/tpch/sf0.1/q01.csv"
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	w := csv.NewWriter(&got)
	header := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		header[i] = f.Name
	}
	w.Write(header)
	for _, r := range rows {
		w.Write(r)
	}
	w.Flush()
	if err := tpch.CompareCSV(got.Bytes(), want, true); err != nil {
		t.Errorf("%s: q01 differs from DuckDB's answer (%s): %v", client, file, err)
	}
}
