package flight

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWireBatch: decimal64 columns, top level and nested, become
// decimal128 of the same precision, scale and values (negative ones, NULLs
// and sliced arrays included); other columns are shared untouched.
func TestWireBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	d64 := &arrow.Decimal64Type{Precision: 18, Scale: 3}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: d64, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "l", Type: arrow.ListOf(d64), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "x", Type: d64, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String})},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	vals := []int64{0, -1, 1, 999999999999999999, -999999999999999999, 12345, -12345, 7, -7, 100}
	for i, v := range vals {
		null := i%4 == 3
		if null {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Decimal64Builder).Append(decimal.Decimal64(v))
		}
		b.Field(1).(*array.Int64Builder).Append(v)
		lb := b.Field(2).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Decimal64Builder).Append(decimal.Decimal64(v))
		lb.ValueBuilder().(*array.Decimal64Builder).AppendNull()
		sb := b.Field(3).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Decimal64Builder).Append(decimal.Decimal64(-v))
		sb.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprint(v))
	}
	full := b.NewRecordBatch()
	defer full.Release()
	for _, c := range []struct{ lo, hi int64 }{{0, 10}, {3, 9}, {5, 6}} {
		in := full.NewSlice(c.lo, c.hi)
		ws := wireSchema(in.Schema(), false)
		if got := wireSchema(in.Schema(), true); got != in.Schema() {
			t.Errorf("decimal64 on the wire changed the schema: %v", got)
		}
		in.Retain()
		out := wireBatch(in, ws)
		if !out.Schema().Equal(ws) {
			t.Fatalf("schema %v, want %v", out.Schema(), ws)
		}
		if id := out.Column(0).DataType().ID(); id != arrow.DECIMAL128 {
			t.Errorf("column d is %v", out.Column(0).DataType())
		}
		for col := range in.Columns() {
			for r := range int(in.NumRows()) {
				want, got := in.Column(col).ValueStr(r), out.Column(col).ValueStr(r)
				if want != got {
					t.Errorf("slice %v column %d row %d: %s, want %s", c, col, r, got, want)
				}
			}
		}
		if out.Column(1) != in.Column(1) && out.Column(1).Data().Buffers()[1] != in.Column(1).Data().Buffers()[1] {
			t.Error("the int64 column was copied")
		}
		out.Release()
		in.Release()
	}
	// A batch without decimal64 is the same batch.
	plain := full.NewSlice(0, 1)
	ints, _ := plain.Schema().FieldsByName("i")
	ps := arrow.NewSchema(ints, nil)
	pb := array.NewRecordBatch(ps, []arrow.Array{plain.Column(1)}, 1)
	plain.Release()
	if got := wireBatch(pb, wireSchema(ps, false)); got != pb {
		t.Error("a batch without decimals was rebuilt")
	}
	pb.Release()
}

// TestWireSchemas: every schema the server sends carries decimal128 for
// gq's DECIMAL (FlightInfo, DoGet, GetSchema, prepared statements'
// dataset and parameter schemas, GetTables' include_schema), and
// decimal64 when the server or the session asks for it.
func TestWireSchemas(t *testing.T) {
	e := newEngine(t)
	const sql = "select l_orderkey, l_quantity, sum(l_extendedprice) as s from lineitem where l_orderkey < 100 group by l_orderkey, l_quantity"
	check := func(t *testing.T, cl *flightsql.Client, want arrow.Type) {
		t.Helper()
		ctx := testCtx(t)
		isWant := func(what string, s *arrow.Schema) {
			t.Helper()
			n := 0
			for _, f := range s.Fields() {
				switch f.Type.ID() {
				case arrow.DECIMAL64, arrow.DECIMAL128:
					n++
					w := want
					if f.Type.(arrow.DecimalType).GetPrecision() > 18 {
						w = arrow.DECIMAL128 // DECIMAL(19..38) is decimal128 on any wire
					}
					if f.Type.ID() != w {
						t.Errorf("%s: %s is %v, want %v", what, f.Name, f.Type, w)
					}
				}
			}
			if n == 0 {
				t.Errorf("%s: no decimal field in %v", what, s)
			}
		}
		info, err := cl.Execute(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		schema, got, err := fetch(ctx, t, cl, info) // checks DoGet's schema is FlightInfo's
		if err != nil {
			t.Fatal(err)
		}
		isWant("FlightInfo", schema)
		if got, want := csvOf(t, schema, got), engineCSV(t, e, sql); string(got) != string(want) && len(got) == 0 {
			t.Errorf("no rows")
		}
		release(got)
		sr, err := cl.GetExecuteSchema(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		s, err := flight.DeserializeSchema(sr.Schema, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		isWant("GetSchema", s)
		prep, err := cl.Prepare(ctx, "select l_quantity from lineitem where l_discount = ?")
		if err != nil {
			t.Fatal(err)
		}
		isWant("prepared dataset", prep.DatasetSchema())
		isWant("prepared parameters", prep.ParameterSchema())
		prep.Close(ctx)
		bs, err := cl.GetTables(ctx, &flightsql.GetTablesOpts{IncludeSchema: true, TableNameFilterPattern: ptr("lineitem")})
		if err != nil {
			t.Fatal(err)
		}
		_, tables, err := fetch(ctx, t, cl, bs)
		if err != nil || len(tables) != 1 || tables[0].NumRows() != 1 {
			t.Fatalf("GetTables: %v", err)
		}
		ts, err := flight.DeserializeSchema(tables[0].Column(4).(*array.Binary).Value(0), memory.DefaultAllocator)
		release(tables)
		if err != nil {
			t.Fatal(err)
		}
		isWant("GetTables", ts)
	}
	t.Run("default", func(t *testing.T) {
		addr, _ := startServer(t, Config{Engine: e})
		check(t, newClient(t, addr), arrow.DECIMAL128)
	})
	t.Run("server", func(t *testing.T) {
		addr, _ := startServer(t, Config{Engine: e, WireDecimal64: true})
		check(t, newClient(t, addr), arrow.DECIMAL64)
	})
	t.Run("session", func(t *testing.T) {
		addr, _ := startServer(t, Config{Engine: e})
		cl := newClient(t, addr)
		ctx := testCtx(t)
		set := func(v any) *flight.SetSessionOptionsResult {
			opts, err := flight.NewSessionOptionValues(map[string]any{optWireDecimal64: v})
			if err != nil {
				t.Fatal(err)
			}
			res, err := cl.SetSessionOptions(ctx, &flight.SetSessionOptionsRequest{SessionOptions: opts})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		set(true)
		check(t, cl, arrow.DECIMAL64)
		got, err := cl.GetSessionOptions(ctx, &flight.GetSessionOptionsRequest{})
		if err != nil || !got.GetSessionOptions()[optWireDecimal64].GetBoolValue() {
			t.Errorf("GetSessionOptions: %v %v", got, err)
		}
		// Another client (another session) keeps decimal128.
		check(t, newClient(t, addr), arrow.DECIMAL128)
		set("false")
		check(t, cl, arrow.DECIMAL128)
		if res := set("maybe"); res.GetErrors()[optWireDecimal64] == nil {
			t.Error("a bad value set without an error")
		}
		opts, _ := flight.NewSessionOptionValues(map[string]any{"no.such.option": true})
		if res, err := cl.SetSessionOptions(ctx, &flight.SetSessionOptionsRequest{SessionOptions: opts}); err != nil || res.GetErrors()["no.such.option"] == nil {
			t.Errorf("an unknown option: %v %v", res, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// BenchmarkWireBatch measures the decimal64 → decimal128 conversion on
// the columns TPC-H q01 and q06 read from lineitem (four DECIMAL, one
// DATE, two VARCHAR), one engine batch at a time. Compare with
// BenchmarkWireFlight for what the conversion costs a whole query.
func BenchmarkWireBatch(b *testing.B) {
	e := newEngine(b)
	res, err := e.Query(context.Background(), wireBenchSQL)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Release()
	ws := wireSchema(res.Schema, false)
	var rows, bytes int64
	for _, bt := range res.Batches {
		rows += bt.NumRows()
		bytes += 4 * 8 * bt.NumRows() // the decimal64 bytes read
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		for _, bt := range res.Batches {
			bt.Retain()
			wireBatch(bt, ws).Release()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*rows), "ns/row")
}

// wireBenchSQL is the lineitem columns of q01 and q06.
const wireBenchSQL = "select l_quantity, l_extendedprice, l_discount, l_tax, l_shipdate, l_returnflag, l_linestatus from lineitem"

// BenchmarkWireFlight streams wireBenchSQL, q01 and q06 through the
// server with decimal128 (the default) and decimal64 on the wire.
func BenchmarkWireFlight(b *testing.B) {
	e := newEngine(b)
	for _, q := range []struct{ name, sql string }{{"lineitem", wireBenchSQL}, {"q01", tpchQuery(b, 1)}, {"q06", tpchQuery(b, 6)}} {
		for _, dec64 := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/decimal64=%v", q.name, dec64), func(b *testing.B) {
				addr, _ := startServer(b, Config{Engine: e, WireDecimal64: dec64})
				cl := newClient(b, addr)
				ctx := context.Background()
				for range b.N {
					info, err := cl.Execute(ctx, q.sql)
					if err != nil {
						b.Fatal(err)
					}
					rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
					if err != nil {
						b.Fatal(err)
					}
					for rdr.Next() {
					}
					if err := rdr.Err(); err != nil {
						b.Fatal(err)
					}
					rdr.Release()
				}
			})
		}
	}
}
