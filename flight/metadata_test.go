package flight

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
)

// strings of column col over batches (nulls as "<null>").
func column(bs []arrow.RecordBatch, col int) []string {
	var out []string
	for _, b := range bs {
		for i := 0; i < int(b.NumRows()); i++ {
			c := b.Column(col)
			if c.IsNull(i) {
				out = append(out, "<null>")
				continue
			}
			out = append(out, c.ValueStr(i))
		}
	}
	return out
}

func TestMetadataAndDDL(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e, Version: "gq-test"})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	get := func(info *flight.FlightInfo, err error) []arrow.RecordBatch {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		_, bs, err := fetch(ctx, t, cl, info)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { release(bs) })
		return bs
	}

	// SqlInfo: the server's identity.
	bs := get(cl.GetSqlInfo(ctx, []flightsql.SqlInfo{flightsql.SqlInfoFlightSqlServerName, flightsql.SqlInfoFlightSqlServerVersion}))
	vals := bs[0].Column(1).(*array.DenseUnion)
	name := vals.Field(vals.ChildID(0)).(*array.String).Value(int(vals.ValueOffset(0)))
	ver := vals.Field(vals.ChildID(1)).(*array.String).Value(int(vals.ValueOffset(1)))
	if name != "gq" || ver != "gq-test" {
		t.Errorf("server name %q version %q", name, ver)
	}

	// DDL through CommandStatementUpdate.
	if _, err := cl.ExecuteUpdate(ctx, "create view big_orders as select o_orderkey, o_totalprice from orders where o_totalprice > 400000"); err != nil {
		t.Fatal(err)
	}
	n, err := cl.ExecuteUpdate(ctx, "create table asia_nations as select n_name from nation, region where n_regionkey = r_regionkey and r_name = 'ASIA'")
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Errorf("CREATE TABLE AS stored %d rows, want 5", n)
	}
	if _, err := cl.ExecuteUpdate(ctx, "select 1"); err == nil {
		t.Error("a query ran as an update")
	}

	// GetTables with include_schema: a table's schema is the catalog's,
	// a view's is its query's.
	bs = get(cl.GetTables(ctx, &flightsql.GetTablesOpts{IncludeSchema: true}))
	names, types := column(bs, 2), column(bs, 3)
	kinds := map[string]string{}
	for i, n := range names {
		kinds[n] = types[i]
	}
	if kinds["lineitem"] != "TABLE" || kinds["big_orders"] != "VIEW" || kinds["asia_nations"] != "TABLE" {
		t.Errorf("GetTables: %v", kinds)
	}
	for i, n := range names {
		raw := bs[0].Column(4).(*array.Binary).Value(i)
		s, err := flight.DeserializeSchema(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch n {
		case "lineitem":
			// The catalog's schema with wire types: DECIMAL as decimal128.
			tbl, _ := e.Catalog().Table("lineitem")
			if want := wireSchema(tbl.Schema(), false); !s.Equal(want) || s.Equal(tbl.Schema()) {
				t.Errorf("lineitem schema %v, want %v", s, want)
			}
		case "big_orders":
			if s.NumFields() != 2 || s.Field(0).Name != "o_orderkey" {
				t.Errorf("view schema %v", s)
			}
		}
	}
	// Filters: name pattern and table type.
	pat := "%ord%"
	bs = get(cl.GetTables(ctx, &flightsql.GetTablesOpts{TableNameFilterPattern: &pat, TableTypes: []string{"TABLE"}}))
	if got := column(bs, 2); len(got) != 1 || got[0] != "orders" {
		t.Errorf("tables like %s of type TABLE: %v", pat, got)
	}
	if bs[0].NumCols() != 4 {
		t.Errorf("GetTables without include_schema has %d columns", bs[0].NumCols())
	}

	// DROP, then the view is gone from the listing and from queries.
	if _, err := cl.ExecuteUpdate(ctx, "drop view big_orders"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ExecuteUpdate(ctx, "drop table asia_nations"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Execute(ctx, "select * from big_orders"); err == nil {
		t.Error("dropped view still queries")
	}

	if got := column(get(cl.GetTableTypes(ctx)), 0); len(got) != 2 || got[0] != "TABLE" || got[1] != "VIEW" {
		t.Errorf("table types %v", got)
	}
	if got := get(cl.GetCatalogs(ctx)); countRows(got) != 0 {
		t.Errorf("catalogs: %d rows", countRows(got))
	}
	if got := get(cl.GetDBSchemas(ctx, &flightsql.GetDBSchemasOpts{})); countRows(got) != 0 {
		t.Errorf("schemas: %d rows", countRows(got))
	}
	ref := flightsql.TableRef{Table: "lineitem"}
	for what, f := range map[string]func() (*flight.FlightInfo, error){
		"primary":  func() (*flight.FlightInfo, error) { return cl.GetPrimaryKeys(ctx, ref) },
		"exported": func() (*flight.FlightInfo, error) { return cl.GetExportedKeys(ctx, ref) },
		"imported": func() (*flight.FlightInfo, error) { return cl.GetImportedKeys(ctx, ref) },
	} {
		if got := get(f()); countRows(got) != 0 {
			t.Errorf("%s keys: %d rows", what, countRows(got))
		}
	}
	types = column(get(cl.GetXdbcTypeInfo(ctx, nil)), 0)
	if len(types) != len(xdbcTypes) {
		t.Errorf("xdbc types %v", types)
	}
	varchar := int32(12)
	if got := column(get(cl.GetXdbcTypeInfo(ctx, &varchar)), 0); len(got) != 1 || got[0] != "VARCHAR" {
		t.Errorf("xdbc type 12: %v", got)
	}

	// Session close answers CLOSED.
	res, err := cl.CloseSession(ctx, &flight.CloseSessionRequest{})
	if err != nil || res.GetStatus() != flight.CloseSessionResultClosed {
		t.Errorf("CloseSession: %v %v", res, err)
	}
}

// TestMetadataADBC lists objects through ADBC's GetObjects and
// GetTableSchema, which a BI tool's tree view uses.
func TestMetadataADBC(t *testing.T) {
	addr, _ := startServer(t, Config{})
	cn, err := adbcConn(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	s, err := cn.GetTableSchema(ctx, nil, nil, "nation")
	if err != nil {
		t.Fatal(err)
	}
	if s.NumFields() != 4 || s.Field(1).Name != "n_name" {
		t.Errorf("nation schema %v", s)
	}
	info, err := cn.GetInfo(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	info.Release()
}
