package planner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
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

// A table function in FROM binds to the catalog's table function with its
// arguments as constants: positional, name = value, name => value, and a
// struct literal as a list of fields.
func TestBindTableFunc(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.csv")
	if err := os.WriteFile(path, []byte("a;b\n1;2\n3;4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	for _, c := range []struct{ from, cols string }{
		{"read_csv('" + path + "', delim = ';', header = true, all_varchar => false)", "a bigint, b bigint"},
		{"READ_CSV_AUTO('" + path + "', sep => ';', types = {'b': 'VARCHAR'}) as t", "a bigint, b varchar"},
		{"read_csv('" + path + "', delim = ';', header = false, columns = {'x': 'VARCHAR', y: 'DOUBLE'}) t(p, q)", "p varchar, q double"},
	} {
		p, err := bindSQL(cat, "select * from "+c.from)
		if err != nil {
			t.Errorf("%s: %v", c.from, err)
			continue
		}
		var cols []string
		for _, col := range p.Columns() {
			cols = append(cols, col.Name+" "+strings.ToLower(expr.TypeName(col.Type)))
		}
		if got := strings.Join(cols, ", "); got != c.cols {
			t.Errorf("%s: columns %s, want %s", c.from, got, c.cols)
		}
	}
	for _, c := range []struct{ sql, want string }{
		{"select * from read_json('" + path + "')", "table function read_json does not exist"},
		{"select * from read_csv('" + path + "', delim = ';', header = b)", "not a constant"},
		{"select * from read_csv('" + path + "', nope = 1)", "read_csv has no option nope"},
		{"select * from read_csv(delim = ';')", "needs a file path"},
		{"select * from read_csv('" + path + "', delim = ';') t(a)", "2 columns but 1 names"},
	} {
		if _, err := bindSQL(cat, c.sql); !errors.Is(err, errs.Binding) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.sql, err, c.want)
		}
	}
}
