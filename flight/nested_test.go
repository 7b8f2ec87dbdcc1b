package flight

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/engine"
	"gq/format"
)

// Nested columns reach a Flight SQL client as Arrow lists, structs and maps
// with their values, the FlightInfo's schema naming the same types.
func TestNestedFlightSQL(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{})
	t.Cleanup(func() { e.Close() })
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	info, err := cl.Execute(ctx, "select id, tags, pt, attrs, deep, pt.y from nested where id > 3 order by id")
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err := fetch(ctx, t, cl, info)
	defer release(got)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []arrow.Type{arrow.INT64, arrow.LIST, arrow.STRUCT, arrow.MAP, arrow.LIST, arrow.FLOAT64} {
		if schema.Field(i).Type.ID() != id {
			t.Errorf("column %s has type %s, want %s", schema.Field(i).Name, schema.Field(i).Type, id)
		}
	}
	var rows []string
	for _, b := range got {
		for r := 0; r < int(b.NumRows()); r++ {
			var cells []string
			for _, c := range b.Columns() {
				if format.IsNull(c, r) {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, format.Value(c, r))
				}
			}
			rows = append(rows, strings.Join(cells, " | "))
		}
	}
	want := "4 | [x y, 'c,d'] | {'x': 4, 'y': -2.25, 'name': 'it\\'s'} | {z=NULL} | [{'k': NULL, 'vs': NULL}, NULL] | -2.25\n" +
		"5 | [NULL] | {'x': 5, 'y': 0.0, 'name': p5} | {a=5} | [{'k': k5, 'vs': []}] | 0\n" +
		"6 | [e] | {'x': NULL, 'y': NULL, 'name': NULL} | {c=6, d=7, e=8} | [{'k': k6, 'vs': [6]}, {'k': k7, 'vs': [7, NULL]}] | NULL"
	if g := strings.Join(rows, "\n"); g != want {
		t.Errorf("rows\n%s\nwant\n%s", g, want)
	}
}
