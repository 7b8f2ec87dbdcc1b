package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/expr"
)

// tTable is a catalog.Table with a schema and statistics only.
type tTable struct {
	name   string
	schema *arrow.Schema
	rows   int64
}

func (t *tTable) Name() string          { return t.name }
func (t *tTable) Schema() *arrow.Schema { return t.schema }
func (t *tTable) Stats() catalog.Stats  { return catalog.Stats{RowCount: t.rows} }
func (t *tTable) NumSplits() int        { return 1 }
func (t *tTable) Read(context.Context, int, []int, int, memory.Allocator, func(arrow.RecordBatch) error) error {
	return nil
}

// newScan returns a scan of a fake table with rows rows and the named
// Int64 columns (a name "x:s" makes a String column).
func tScan(name string, rows int64, cols ...string) *Scan {
	var fields []arrow.Field
	s := &Scan{}
	for i, c := range cols {
		typ := arrow.DataType(expr.Int64)
		if n, ok := strings.CutSuffix(c, ":s"); ok {
			c, typ = n, expr.String
		}
		fields = append(fields, arrow.Field{Name: c, Type: typ, Nullable: true})
		s.Cols = append(s.Cols, Column{ID: NewColumnID(), Name: c, Table: name, Type: typ, Nullable: true})
		s.Ordinals = append(s.Ordinals, i)
	}
	s.Table = &tTable{name: name, schema: arrow.NewSchema(fields, nil), rows: rows}
	return s
}

// col finds the column called name among p's outputs.
func tCol(t *testing.T, p Plan, name string) *ColRef {
	t.Helper()
	for _, c := range p.Columns() {
		if c.Name == name {
			return &ColRef{ID: c.ID, Name: c.Name, T: c.Type}
		}
	}
	t.Fatalf("no column %s", name)
	return nil
}

func tI64(v int64) *Const { return &Const{Value: v, T: expr.Int64} }

func tCall(name string, t arrow.DataType, args ...Expr) *Func {
	return &Func{Name: name, Args: args, T: t}
}

func tEq(a, b Expr) *Func   { return tCall("eq", expr.Boolean, a, b) }
func tGt(a, b Expr) *Func   { return tCall("gt", expr.Boolean, a, b) }
func tAnd(es ...Expr) *Func { return tCall("and", expr.Boolean, es...) }

// scanOf finds the scan of table name in p.
func tScanOf(p Plan, name string) *Scan {
	if s, ok := p.(*Scan); ok && s.Table.Name() == name {
		return s
	}
	for _, c := range p.Inputs() {
		if s := tScanOf(c, name); s != nil {
			return s
		}
	}
	return nil
}

// joins lists every join of p, pre-order.
func tJoins(p Plan) []*Join {
	var out []*Join
	if j, ok := p.(*Join); ok {
		out = append(out, j)
	}
	for _, c := range p.Inputs() {
		out = append(out, tJoins(c)...)
	}
	return out
}

func tStr(e Expr) string {
	if e == nil {
		return "<nil>"
	}
	return e.String()
}
