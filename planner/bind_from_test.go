package planner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/exec/expr"
)

// halfTable is a file table with columns gq cannot read.
type halfTable struct {
	fakeTable
	bad []catalog.UnreadableColumn
}

func (h *halfTable) Unreadable() []catalog.UnreadableColumn { return h.bad }

func TestBindUnreadableColumns(t *testing.T) {
	cat := tpchCatalog(t)
	tab := &halfTable{
		fakeTable: fakeTable{name: "events", schema: arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: expr.Int64}, {Name: "name", Type: expr.String},
		}, nil)},
		bad: []catalog.UnreadableColumn{
			{Name: "ts", Type: "timestamp[us]", File: "/d/events.parquet", Why: "gq has no timestamp or time type yet"},
			{Name: "tags", Type: "list<element: utf8>", File: "/d/events.parquet", Why: "nested columns are not supported yet"},
		},
	}
	if err := cat.Register(tab, false); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"select * from events",
		"select e.* from events e where id > 1",
		"select count(*) from events",
		"select name from events natural join events e2",
	} {
		p, err := bindSQL(cat, q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		for _, c := range p.Columns() {
			if c.Name == "ts" || c.Name == "tags" {
				t.Errorf("%s: output has unreadable column %s", q, c.Name)
			}
		}
	}
	if p, _ := bindSQL(cat, "select * from events"); p != nil && len(p.Columns()) != 2 {
		t.Errorf("select * has %d columns, want 2", len(p.Columns()))
	}
	for _, q := range []string{
		"select ts from events",
		"select id from events where ts is null",
		"select e.tags from events e",
		"select id from events order by ts",
		"select count(*) from events group by tags",
		"select id from events join nation on ts = n_nationkey",
	} {
		_, err := bindSQL(cat, q)
		var ge *errs.Error
		if !errors.Is(err, errs.Unsupported) || !errors.As(err, &ge) || (ge.Near != "ts" && ge.Near != "tags") ||
			!strings.Contains(err.Error(), "/d/events.parquet") || !strings.Contains(err.Error(), "has type") {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// The grammar parses no table function in FROM yet: the arguments come
// from a function call in a select list, as a grammar would hand them.
func TestBindTableFunc(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.csv")
	if err := os.WriteFile(path, []byte("a;b\n1;2\n3;4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Parse("select read_csv('" + path + "', delim = ';', header = true, all_varchar = false)")
	if err != nil {
		t.Fatal(err)
	}
	call := st.(*sqlparser.Select).SelectExprs.Exprs[0].(*sqlparser.AliasedExpr).Expr.(*sqlparser.FuncExpr)
	args, err := tableFuncArgs("read_csv", call.Exprs)
	if err != nil {
		t.Fatal(err)
	}
	b := &binder{ctx: context.Background(), cat: catalog.New()}
	plan, cols, err := b.bindTableFunc(call.Name.String(), args, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 2 || cols[0].name != "a" || cols[0].table != "read_csv" || plan.(*Scan).Table.Stats().RowCount != 2 {
		t.Errorf("cols %+v", cols)
	}
	if _, _, err := b.bindTableFunc("read_json", args, "", nil); !errors.Is(err, errs.Binding) {
		t.Errorf("read_json: %v", err)
	}
}
