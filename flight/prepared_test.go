package flight

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/benchmarks/tpch"
)

// paramBatch builds a one-row parameter batch from typed builders.
func paramBatch(fields []arrow.Field, fill func(b *array.RecordBuilder)) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	fill(b)
	return b.NewRecordBatch()
}

// TestPreparedFlightSQL binds parameters of several types through DoPut
// and compares with the same query written with literals.
func TestPreparedFlightSQL(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)

	const sql = `select l_returnflag, count(*) as n, sum(l_extendedprice) as s from lineitem
		where l_shipdate <= ? and l_quantity < ? and l_discount >= ? and l_returnflag <> ? and l_tax < ?
		group by l_returnflag order by l_returnflag`
	const literal = `select l_returnflag, count(*) as n, sum(l_extendedprice) as s from lineitem
		where l_shipdate <= date '1995-06-17' and l_quantity < 24 and l_discount >= 0.05 and l_returnflag <> 'R' and l_tax < 0.07
		group by l_returnflag order by l_returnflag`
	prep, err := cl.Prepare(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(ctx)
	if n := prep.ParameterSchema().NumFields(); n != 5 {
		t.Fatalf("parameter schema has %d fields, want 5", n)
	}
	// Each parameter is typed as the column it is compared with, in wire
	// types (a DECIMAL as decimal128).
	li, _ := e.Catalog().Table("lineitem")
	for i, col := range []string{"l_shipdate", "l_quantity", "l_discount", "l_returnflag", "l_tax"} {
		f, _ := li.Schema().FieldsByName(col)
		want, _ := wireType(f[0].Type)
		if got := prep.ParameterSchema().Field(i).Type; !arrow.TypeEqual(got, want) || got.ID() == arrow.DECIMAL64 {
			t.Errorf("parameter %d typed %v, want %v (%s)", i+1, got, want, col)
		}
	}
	params := paramBatch([]arrow.Field{
		{Name: "d", Type: arrow.FixedWidthTypes.Date32}, {Name: "q", Type: arrow.PrimitiveTypes.Int32},
		{Name: "disc", Type: &arrow.Decimal128Type{Precision: 4, Scale: 2}}, {Name: "f", Type: arrow.BinaryTypes.String},
		{Name: "tax", Type: arrow.PrimitiveTypes.Float64},
	}, func(b *array.RecordBuilder) {
		d := arrow.Date32FromTime(mustDate(t, "1995-06-17"))
		b.Field(0).(*array.Date32Builder).Append(d)
		b.Field(1).(*array.Int32Builder).Append(24)
		b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(5))
		b.Field(3).(*array.StringBuilder).Append("R")
		b.Field(4).(*array.Float64Builder).Append(0.07)
	})
	defer params.Release()
	prep.SetParameters(params)
	info, err := prep.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err := fetch(ctx, t, cl, info)
	defer release(got)
	if err != nil {
		t.Fatal(err)
	}
	want := engineCSV(t, e, literal)
	if err := tpch.CompareCSV(csvOf(t, schema, got), want, true); err != nil {
		t.Error(err)
	}
	if len(got) == 0 {
		t.Fatal("no rows")
	}

	// Rebinding runs the statement again with the new values; a string
	// parameter is one value, never SQL.
	inj := paramBatch([]arrow.Field{
		{Name: "d", Type: arrow.BinaryTypes.String}, {Name: "q", Type: arrow.PrimitiveTypes.Int64},
		{Name: "disc", Type: arrow.PrimitiveTypes.Float64}, {Name: "f", Type: arrow.BinaryTypes.String},
		{Name: "tax", Type: arrow.PrimitiveTypes.Int64},
	}, func(b *array.RecordBuilder) {
		b.Field(0).AppendNull()
		b.Field(1).(*array.Int64Builder).Append(100)
		b.Field(2).(*array.Float64Builder).Append(0)
		b.Field(3).(*array.StringBuilder).Append("x' or 'a'='a")
		b.Field(4).(*array.Int64Builder).Append(1)
	})
	defer inj.Release()
	prep.SetParameters(inj)
	info, err = prep.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, got2, err := fetch(ctx, t, cl, info)
	defer release(got2)
	if err != nil {
		t.Fatal(err)
	}
	if rows := countRows(got2); rows != 0 {
		t.Errorf("l_shipdate <= NULL gave %d rows, want 0", rows)
	}
	if err := prep.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := prep.Execute(ctx); err == nil {
		t.Error("a closed prepared statement still executes")
	}
	waitHeld(t, e)
}

// TestPreparedADBC binds parameters through the ADBC driver.
func TestPreparedADBC(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cn, err := adbcConn(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	st, err := cn.NewStatement()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetSqlQuery("select n_name, n_regionkey from nation where n_regionkey = ? and n_name like ? order by n_name"); err != nil {
		t.Fatal(err)
	}
	if err := st.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		region int64
		like   string
	}{{1, "%A%"}, {3, "%"}, {4, "IRAN"}} {
		params := paramBatch([]arrow.Field{{Name: "r", Type: arrow.PrimitiveTypes.Int64}, {Name: "n", Type: arrow.BinaryTypes.String}},
			func(b *array.RecordBuilder) {
				b.Field(0).(*array.Int64Builder).Append(tc.region)
				b.Field(1).(*array.StringBuilder).Append(tc.like)
			})
		if err := st.Bind(ctx, params); err != nil {
			t.Fatal(err)
		}
		params.Release()
		rdr, _, err := st.ExecuteQuery(ctx)
		if err != nil {
			t.Fatal(err)
		}
		schema, got := readAll(t, rdr)
		want := engineCSV(t, e, "select n_name, n_regionkey from nation where n_regionkey = "+itoa(tc.region)+" and n_name like '"+tc.like+"' order by n_name")
		if err := tpch.CompareCSV(csvOf(t, schema, got), want, true); err != nil {
			t.Errorf("region %d like %q: %v", tc.region, tc.like, err)
		}
		if countRows(got) == 0 {
			t.Errorf("region %d like %q: no rows", tc.region, tc.like)
		}
		release(got)
	}
}

func countRows(bs []arrow.RecordBatch) int64 {
	var n int64
	for _, b := range bs {
		n += b.NumRows()
	}
	return n
}
