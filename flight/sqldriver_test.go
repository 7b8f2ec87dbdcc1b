package flight

import (
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/apache/arrow-adbc/go/adbc/sqldriver/flightsql" // registers "flightsql"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sqlRows runs sql with args through database/sql and renders the rows
// in canonical text (cell): a decimal128 with the scale the driver
// reports for its column, a date as days since the epoch.
func sqlRows(t *testing.T, db *sql.DB, query string, args ...any) ([][]string, error) {
	t.Helper()
	// A prepared statement: ADBC's database/sql driver runs a query with
	// arguments only that way (DB.Query with arguments binds them to an
	// unprepared statement, which it then refuses to run).
	st, err := db.PrepareContext(testCtx(t), query)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	rows, err := st.QueryContext(testCtx(t), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				row[i] = cellNull
			case int64:
				row[i] = strconv.FormatInt(v, 10)
			case float64:
				row[i] = floatText(v)
			case string:
				row[i] = v
			case bool:
				row[i] = strconv.FormatBool(v)
			case time.Time:
				// The driver returns DATE, TIMESTAMP and TIME alike;
				// the column's Arrow type tells which.
				switch typ := cts[i].DatabaseTypeName(); {
				case typ == "date32":
					row[i] = strconv.FormatInt(v.Unix()/86400, 10)
				case typ == "time64[us]" || strings.HasPrefix(typ, "timestamp[us"):
					row[i] = strconv.FormatInt(v.UnixMicro(), 10)
				default:
					t.Fatalf("column %s: a time.Time of type %s", cts[i].Name(), typ)
				}
			case arrow.MonthDayNanoInterval:
				row[i] = intervalText(v)
			case decimal128.Num:
				_, scale, ok := cts[i].DecimalSize()
				if !ok {
					t.Fatalf("column %s: a decimal128 without a decimal size", cts[i].Name())
				}
				row[i] = decimalText(v.BigInt(), int32(scale))
			default:
				k := reflect.ValueOf(v).Kind()
				if k != reflect.Slice && k != reflect.Struct && k != reflect.Map {
					t.Fatalf("column %s: value %v of Go type %T", cts[i].Name(), v, v)
				}
				var b strings.Builder
				writeDriverNested(t, &b, reflect.ValueOf(v))
				row[i] = b.String()
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// writeDriverNested writes a nested value as ADBC's driver returns it (a
// Go slice, map or struct that arrow-go's arreflect builds, a nullable
// struct field a pointer) in nestedText's form.
func writeDriverNested(t *testing.T, b *strings.Builder, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		writeDriverNested(t, b, v.Elem())
	case reflect.Slice:
		b.WriteByte('[')
		for j := range v.Len() {
			if j > 0 {
				b.WriteByte(',')
			}
			writeDriverNested(t, b, v.Index(j))
		}
		b.WriteByte(']')
	case reflect.Map:
		var pairs []string
		for it := v.MapRange(); it.Next(); {
			var p strings.Builder
			p.WriteByte('[')
			writeDriverNested(t, &p, it.Key())
			p.WriteByte(',')
			writeDriverNested(t, &p, it.Value())
			p.WriteByte(']')
			pairs = append(pairs, p.String())
		}
		slices.Sort(pairs)
		b.WriteString("[" + strings.Join(pairs, ",") + "]")
	case reflect.Struct:
		b.WriteByte('{')
		for k := range v.NumField() {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(v.Type().Field(k).Tag.Get("arrow")) + ":")
			writeDriverNested(t, b, v.Field(k))
		}
		b.WriteByte('}')
	case reflect.Int64:
		b.WriteString(jsonString(strconv.FormatInt(v.Int(), 10)))
	case reflect.Float64:
		b.WriteString(jsonString(floatText(v.Float())))
	case reflect.String:
		b.WriteString(jsonString(v.String()))
	case reflect.Bool:
		b.WriteString(jsonString(strconv.FormatBool(v.Bool())))
	default:
		t.Fatalf("a nested value holds a %s", v.Type())
	}
}

// TestADBCDatabaseSQL runs TPC-H q01 and a query with each gq type
// (NULLs of each among its values) through ADBC's database/sql driver
// with Go int parameters (and parameters of the other Go types
// database/sql passes), and compares every value with the engine's answer
// to the query written with literals (q01's also with DuckDB's,
// checkQ01). The driver returns DATE, TIMESTAMP, TIMESTAMPTZ and TIME as
// time.Time, INTERVAL as arrow.MonthDayNanoInterval and nested values as
// Go slices, maps and structs, in which a NULL list element or map value
// cannot be told from its type's zero value: the client's limit, which
// the comparison allows for (nestedText). A nil argument the driver itself
// cannot bind ("unsupported type <nil>"); NULL parameters are tested
// through arrow-go (TestParamWidths). The driver checks arguments against the parameter schema a
// server sends and refuses an int for an int64 parameter; gq sends it
// none (adbcGoClient), as arrow-go's example server does.
func TestADBCDatabaseSQL(t *testing.T) {
	e := typesEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	db, err := sql.Open("flightsql", "uri=grpc://"+addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	q01 := tpchQuery(t, 1)
	q01Param := strings.Replace(q01, "interval '90' day", "interval ? day", 1)
	if q01Param == q01 {
		t.Fatal("q01 has no interval '90' day to make a parameter of")
	}
	typesParam := strings.Replace(typesQuery, "o_orderkey < 600", "o_orderkey < ? and o_orderkey >= ? and o_totalprice > ? and o_orderpriority <> ? and o_shippriority = ?", 1)
	typesLiteral := strings.Replace(typesQuery, "o_orderkey < 600", "o_orderkey < 600 and o_orderkey >= 0 and o_totalprice > 1000.5 and o_orderpriority <> 'x' and o_shippriority = 0", 1)
	for _, tc := range []struct {
		name, param, literal string
		args                 []any
	}{
		{"q01", q01Param, q01, []any{90}},
		{"types", typesParam, typesLiteral, []any{600, int8(0), 1000.5, "x", uint(0)}},
		{"widths", "select n_nationkey, n_name from nation where n_nationkey >= ? and n_nationkey < ? and n_regionkey <> ? and n_regionkey < ? order by n_nationkey",
			"select n_nationkey, n_name from nation where n_nationkey >= 2 and n_nationkey < 20 and n_regionkey <> 3 and n_regionkey < 9 order by n_nationkey",
			[]any{int16(2), uint32(20), uint8(3), float32(9)}},
		{"dates", "select count(*) as n, min(l_shipdate) as d from lineitem where l_shipdate >= ? and l_quantity < ?",
			"select count(*) as n, min(l_shipdate) as d from lineitem where l_shipdate >= date '1998-09-02' and l_quantity < 24",
			[]any{"1998-09-02", int64(24)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sqlRows(t, db, tc.param, tc.args...)
			if err != nil {
				t.Fatalf("database/sql with parameters %v: %v", tc.args, err)
			}
			schema, want := engineRowsAs(t, e, tc.literal, true)
			if tc.name == "types" {
				coversTypes(t, schema)
			}
			if len(want) == 0 {
				t.Fatal("the query has no rows")
			}
			compareRows(t, tc.name, got, want)
			if tc.name == "q01" {
				checkQ01(t, "ADBC database/sql", schema, got)
			}
		})
	}

	// An unsigned value past BIGINT's range is refused by the driver
	// already (database/sql's conversion); through Flight SQL the server
	// refuses it too (TestParamWidths).
	if _, err := sqlRows(t, db, "select ? as x", uint64(1)<<63); err == nil {
		t.Error("uint64 1<<63 bound without an error")
	}
}

// TestParamWidths binds every integer width, float32, decimal128 and
// NULLs through arrow-go's client: values within range bind as the
// literals they are, a decimal of 20 digits exactly; an unsigned value
// past BIGINT's range is InvalidArgument.
func TestParamWidths(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	prep, err := cl.Prepare(ctx, "select ? as i8, ? as i16, ? as i32, ? as u8, ? as u16, ? as u32, ? as u64, ? as f32, ? as d, ? as n")
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(ctx)
	bind := func(u64 uint64, dec decimal128.Num, wantDec string) error {
		b := paramBatch([]arrow.Field{
			{Name: "a", Type: arrow.PrimitiveTypes.Int8}, {Name: "b", Type: arrow.PrimitiveTypes.Int16},
			{Name: "c", Type: arrow.PrimitiveTypes.Int32}, {Name: "d", Type: arrow.PrimitiveTypes.Uint8},
			{Name: "e", Type: arrow.PrimitiveTypes.Uint16}, {Name: "f", Type: arrow.PrimitiveTypes.Uint32},
			{Name: "g", Type: arrow.PrimitiveTypes.Uint64}, {Name: "h", Type: arrow.PrimitiveTypes.Float32},
			{Name: "i", Type: &arrow.Decimal128Type{Precision: 38, Scale: 20}}, {Name: "j", Type: arrow.PrimitiveTypes.Int32},
		}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int8Builder).Append(-128)
			b.Field(1).(*array.Int16Builder).Append(-32768)
			b.Field(2).(*array.Int32Builder).Append(-2147483648)
			b.Field(3).(*array.Uint8Builder).Append(255)
			b.Field(4).(*array.Uint16Builder).Append(65535)
			b.Field(5).(*array.Uint32Builder).Append(4294967295)
			b.Field(6).(*array.Uint64Builder).Append(u64)
			b.Field(7).(*array.Float32Builder).Append(0.1)
			b.Field(8).(*array.Decimal128Builder).Append(dec)
			b.Field(9).AppendNull()
		})
		defer b.Release()
		prep.SetParameters(b)
		info, err := prep.Execute(ctx)
		if err != nil {
			return err
		}
		schema, got, err := fetch(ctx, t, cl, info)
		defer release(got)
		if err != nil {
			return err
		}
		if len(got) != 1 || got[0].NumRows() != 1 {
			t.Fatalf("%d batches", len(got))
		}
		var row []string
		for c := range got[0].Columns() {
			row = append(row, schema.Field(c).Name+"="+cell(t, got[0].Column(c), 0))
		}
		want := fmt.Sprintf("[i8=-128 i16=-32768 i32=-2147483648 u8=255 u16=65535 u32=4294967295 u64=%d f32=0.1 d=%s n=NULL]", u64, wantDec)
		if s := "[" + strings.Join(row, " ") + "]"; s != want {
			t.Errorf("bound %s, want %s", s, want)
		}
		return nil
	}
	// 0.05 at scale 20: 5 followed by 18 zeros.
	five, _ := decimal128.FromString("0.05", 38, 20)
	if err := bind(1<<63-1, five, "0.05"); err != nil {
		t.Fatal(err)
	}
	if err := bind(1<<63, five, "0.05"); status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "range") {
		t.Errorf("uint64 1<<63: %v, want InvalidArgument (out of range)", err)
	}
	big, _ := decimal128.FromString("1234567890.1234567891", 38, 20)
	if err := bind(1, big, "1234567890.1234567891"); err != nil {
		t.Errorf("a decimal of 20 digits: %v", err)
	}
}
