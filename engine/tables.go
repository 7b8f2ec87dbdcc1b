package engine

import (
	"context"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
	gqmem "gq/memory"
	"gq/planner"
)

// Tables made by statements: CREATE TABLE (with columns, or AS a query)
// and INSERT. Their rows live in memory and count under the engine's
// memory limit until the table is dropped.

func (e *Engine) createTable(ctx context.Context, s *sqlparser.CreateTable) (*Result, error) {
	name := s.Table.Name.String()
	cat := e.catalog(ctx)
	if s.OptLike != nil {
		return nil, errs.NewNear(errs.Unsupported, name, "CREATE TABLE … LIKE is not supported")
	}
	if _, ok := cat.Table(name); ok {
		if s.IfNotExists {
			return &Result{}, nil
		}
		return nil, errs.NewNear(errs.Binding, name, "table %s already exists", name)
	}
	if s.Select == nil {
		schema, err := tableSchema(name, s.TableSpec)
		if err != nil {
			return nil, err
		}
		if dir := cat.StoreDir(name); dir != "" {
			return e.createStored(ctx, cat, name, dir, schema, nil)
		}
		hold, _ := e.mem.br.Reserve(gqmem.Host, 0, false)
		if err := cat.Register(catalog.NewHeldMemTable(name, schema, nil, hold), false); err != nil {
			hold.Release()
			return nil, err
		}
		return &Result{}, nil
	}
	if dir := cat.StoreDir(name); dir != "" {
		return e.createStored(ctx, cat, name, dir, nil, s.Select)
	}
	res, err := e.query(everywhere(ctx), s.Select)
	if err != nil {
		return nil, err
	}
	n := res.NumRows()
	batches, hold, err := e.keep(name, res)
	if err != nil {
		return nil, err
	}
	t := catalog.NewHeldMemTable(name, res.Schema, batches, hold)
	releaseAll(batches) // the table holds its own references
	if err := cat.Register(t, false); err != nil {
		catalog.ReleaseMemTable(t)
		hold.Release()
		return nil, err
	}
	return &Result{RowsAffected: n}, nil
}

// keep moves a result's batches out of its query's accounting into memory
// a table may keep, reserving their bytes under the engine's limit (a
// table outlives its query: tables cannot grow past the limit). res is
// released.
func (e *Engine) keep(name string, res *Result) ([]arrow.RecordBatch, *gqmem.Reservation, error) {
	batches, err := detach(res.Schema, res.Batches)
	res.Batches = nil
	if err != nil {
		return nil, nil, err
	}
	var bytes int64
	for _, b := range batches {
		bytes += gqmem.BatchBytes(b)
	}
	hold, err := e.mem.br.Reserve(gqmem.Host, bytes, false)
	if err != nil {
		releaseAll(batches)
		return nil, nil, errs.NewNear(errs.ResourcesExhausted, name, "table %s: its new %s do not fit under the memory limit (%v)", name, gqmem.FormatBytes(bytes), err)
	}
	return batches, hold, nil
}

func releaseAll(batches []arrow.RecordBatch) {
	for _, b := range batches {
		b.Release()
	}
}

// tableSchema is the schema CREATE TABLE's column definitions give.
// Constraints gq cannot keep (keys, defaults, generated columns) are
// refused rather than accepted and ignored; NOT NULL is kept and checked
// by INSERT.
func tableSchema(name string, spec *sqlparser.TableSpec) (*arrow.Schema, error) {
	if spec == nil || len(spec.Columns) == 0 {
		return nil, errs.NewNear(errs.Binding, name, "CREATE TABLE %s needs columns or AS SELECT", name)
	}
	if len(spec.Indexes) > 0 || len(spec.Constraints) > 0 {
		return nil, errs.NewNear(errs.Unsupported, name, "CREATE TABLE %s: keys, indexes and constraints are not supported (gq keeps no keys)", name)
	}
	if spec.PartitionOption != nil {
		return nil, errs.NewNear(errs.Unsupported, name, "CREATE TABLE %s: partitions are not supported", name)
	}
	fields := make([]arrow.Field, len(spec.Columns))
	seen := map[string]bool{}
	for i, c := range spec.Columns {
		col := c.Name.String()
		if seen[c.Name.Lowered()] {
			return nil, errs.NewNear(errs.Binding, col, "column %s is defined twice", col)
		}
		seen[c.Name.Lowered()] = true
		t, err := planner.SQLType(c.Type.Type, c.Type.Length, c.Type.Scale, true)
		if err != nil {
			return nil, errs.Within(err, col, "column "+col)
		}
		nullable := true
		if o := c.Type.Options; o != nil {
			switch {
			case o.Default != nil, o.As != nil, o.OnUpdate != nil, o.Autoincrement:
				return nil, errs.NewNear(errs.Unsupported, col, "column %s: DEFAULT, AUTO_INCREMENT, ON UPDATE and generated columns are not supported", col)
			case o.KeyOpt != sqlparser.ColKeyNone, o.Reference != nil:
				return nil, errs.NewNear(errs.Unsupported, col, "column %s: keys are not supported (gq keeps no keys)", col)
			}
			// gq compares strings byte by byte: a binary collation is that,
			// any other (NOCASE, MySQL's *_ci) would be ignored silently.
			if cl := strings.ToLower(o.Collate); cl != "" && cl != "binary" && !strings.HasSuffix(cl, "_bin") {
				return nil, errs.NewNear(errs.Unsupported, col, "column %s: COLLATE %s is not supported (gq compares strings byte by byte, as the binary collations do)", col, o.Collate)
			}
			if o.Null != nil && !*o.Null {
				nullable = false
			}
		}
		fields[i] = arrow.Field{Name: col, Type: t, Nullable: nullable}
	}
	return arrow.NewSchema(fields, nil), nil
}

// insert runs INSERT INTO t … VALUES / SELECT: every rank computes the
// rows (each keeps a whole copy of the table, as CREATE TABLE AS does).
func (e *Engine) insert(ctx context.Context, s *sqlparser.Insert) (*Result, error) {
	tn, err := s.Table.TableName()
	if err != nil {
		return nil, errs.New(errs.Unsupported, "INSERT into %s is not supported", sqlparser.String(s.Table))
	}
	name := tn.Name.String()
	if !tn.Qualifier.IsEmpty() {
		return nil, errs.NewNear(errs.Unsupported, tn.Qualifier.String(), "database qualifier %s is not supported", tn.Qualifier.String())
	}
	cat := e.catalog(ctx)
	t, ok := cat.Table(name)
	if !ok {
		return nil, errs.NewNear(errs.Binding, name, "table %s does not exist", name)
	}
	stored := cat.Stored(name)
	if !stored && !catalog.Appendable(t) {
		return nil, errs.NewNear(errs.Unsupported, name, "table %s is read from files: INSERT adds rows to tables made by CREATE TABLE", name)
	}
	schema := t.Schema()
	p, err := planner.BindInsert(ctx, cat, s, schema)
	var root exec.Node
	if err == nil {
		p, root, err = e.lower(p)
	}
	if stored {
		return e.insertStored(ctx, cat, name, schema, p, root, err, s)
	}
	res, err := e.collect(everywhere(ctx), p, root, err, s)
	if err != nil {
		return nil, err
	}
	for _, b := range res.Batches {
		if err := checkNotNull(name, schema, b); err != nil {
			res.Release()
			return nil, err
		}
	}
	n := res.NumRows()
	batches, hold, err := e.keep(name, res)
	if err != nil {
		return nil, err
	}
	err = cat.Append(name, batches, hold)
	releaseAll(batches)
	if err != nil {
		hold.Release()
		return nil, err
	}
	return &Result{RowsAffected: n}, nil
}

// checkNotNull is the error for a batch of rows for table name holding a
// NULL in one of its NOT NULL columns.
func checkNotNull(name string, schema *arrow.Schema, b arrow.RecordBatch) error {
	for i, f := range schema.Fields() {
		if !f.Nullable && b.Column(i).NullN() > 0 {
			return errs.New(errs.Execution, "column %s of %s cannot be NULL", f.Name, name)
		}
	}
	return nil
}

// dropTable is DROP TABLE of one name; a table of the store loses its
// files too.
func (e *Engine) dropTable(ctx context.Context, name string, ifExists bool) error {
	cat := e.catalog(ctx)
	stored := cat.Stored(name)
	if err := cat.DropTable(name, ifExists); err != nil {
		return err
	}
	if stored && e.Rank() == 0 {
		if err := os.RemoveAll(cat.StoreDir(name)); err != nil {
			return errs.Wrap(errs.IO, err, "removing table %s's files", name)
		}
	}
	return nil
}
