package catalog

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// memTable is a table over record batches held in memory; each batch is a
// split. Reads slice the batches, copying nothing.
type memTable struct {
	name    string
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	rows    int64
	// holds account the batches' memory while the table is in a catalog
	// (NewHeldMemTable, Append); dropping the table gives it back.
	holds []Holder
}

// Holder is memory accounted for a table: a memory.Reservation.
type Holder interface{ Release() }

// NewHeldMemTable is NewMemTable for a table that outlives its query
// (CREATE TABLE AS): hold accounts its batches' memory under the engine's
// limit, and is released when the table leaves its catalog (dropped,
// replaced, or its session closed).
func NewHeldMemTable(name string, schema *arrow.Schema, batches []arrow.RecordBatch, hold Holder) Table {
	t := NewMemTable(name, schema, batches).(*memTable)
	t.holds = []Holder{hold}
	return t
}

// dropped is called when t leaves its catalog.
func dropped(t Table) {
	if m, ok := t.(*memTable); ok {
		for _, h := range m.holds {
			h.Release()
		}
		m.holds = nil
	}
}

// Append adds batches (of the table's columns) to the table name made by
// CREATE TABLE, hold accounting their memory. The table is replaced by a
// new one holding the old batches and the new: a query already reading
// the old sees the rows it started with.
func (c *Catalog) Append(name string, batches []arrow.RecordBatch, hold Holder) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(name)
	t, ok := c.tables[k]
	if !ok {
		if err := c.sharedName(name); err != nil {
			return err
		}
		return errs.NewNear(errs.Binding, name, "table %s does not exist", name)
	}
	m, ok := t.(*memTable)
	if !ok || m.holds == nil {
		return errs.NewNear(errs.Unsupported, name, "table %s is read from files: INSERT adds rows to tables made by CREATE TABLE", name)
	}
	n := &memTable{name: m.name, schema: m.schema, rows: m.rows, holds: append(append([]Holder(nil), m.holds...), hold)}
	n.batches = append(n.batches, m.batches...)
	for _, b := range n.batches {
		b.Retain()
	}
	for _, b := range batches {
		if b.NumRows() > 0 {
			n.batches = append(n.batches, array.NewRecordBatch(m.schema, b.Columns(), b.NumRows()))
			n.rows += b.NumRows()
		}
	}
	m.holds = nil // n holds them now
	c.tables[k] = n
	return nil
}

// Appendable reports whether INSERT can add rows to t.
func Appendable(t Table) bool {
	m, ok := t.(*memTable)
	return ok && m.holds != nil
}

// NewMemTable is a table over batches already in memory (CREATE TABLE AS).
// It retains the batches (the caller keeps its own references); empty
// batches are dropped. The batches' columns must match schema.
func NewMemTable(name string, schema *arrow.Schema, batches []arrow.RecordBatch) Table {
	t := &memTable{name: name, schema: schema}
	for _, b := range batches {
		if b.NumRows() == 0 {
			continue
		}
		b.Retain()
		t.batches = append(t.batches, b)
		t.rows += b.NumRows()
	}
	return t
}

// ReleaseMemTable drops a table's references to its batches, for a
// table made for one query (a GPU scan's table of an exchange's rows);
// the table must not be read afterwards. Other tables are left alone.
func ReleaseMemTable(t Table) {
	if m, ok := t.(*memTable); ok {
		for _, b := range m.batches {
			b.Release()
		}
		m.batches = nil
	}
}

func (t *memTable) Name() string          { return t.name }
func (t *memTable) Schema() *arrow.Schema { return t.schema }
func (t *memTable) NumSplits() int        { return len(t.batches) }
func (t *memTable) Stats() Stats          { return Stats{RowCount: t.rows} }

func (t *memTable) Read(ctx context.Context, split int, columns []int, batchSize int, _ memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= len(t.batches) {
		return errsSplit(t.name, split, len(t.batches))
	}
	s, err := projectSchema(t.name, t.schema, columns)
	if err != nil {
		return err
	}
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	b := t.batches[split]
	n := b.NumRows()
	cols := make([]arrow.Array, len(columns))
	for off := int64(0); off < n; off += int64(batchSize) {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(n, off+int64(batchSize))
		for i, c := range columns {
			cols[i] = array.NewSlice(b.Column(c), off, end)
		}
		out := array.NewRecordBatch(s, cols, end-off)
		releaseAll(cols)
		if err := emit(out); err != nil {
			return err
		}
	}
	return nil
}
