package exec

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
)

// Scan reads Columns of Table, splits in parallel, applying Filter (over
// the output columns; may be nil) to each batch as it is read.
type Scan struct {
	Table   catalog.Table
	Columns []int
	Filter  expr.Expr
	Out     *arrow.Schema
	// JoinFilters drop rows that joins above cannot match (joinfilter.go).
	JoinFilters []ScanJoinFilter
	// Emit, when set, are the positions in Columns that Out holds: the
	// other columns are read for Filter and JoinFilters only.
	Emit []int
}

func (s *Scan) Schema() *arrow.Schema { return s.Out }
func (s *Scan) Children() []Node      { return nil }
func (s *Scan) Explain() string       { return "Scan " + s.Table.Name() }

// Open starts c.Threads workers that claim split numbers from a shared
// counter, so a slow split never holds up the others. Output order is
// unspecified.
func (s *Scan) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	// A table that filters while it decodes gets the predicate, its
	// one-string-column conjuncts apart (scan_columntest.go); the others are
	// filtered batch by batch below.
	ft, _ := s.Table.(catalog.FilteredTable)
	filter := s.Filter
	var tests []catalog.ColumnTest
	if ft != nil && filter != nil {
		var conj []expr.Expr
		var cols []*expr.Column
		conj, cols, filter = splitColumnTests(filter)
		for i, e := range conj {
			t, err := columnTest(c, e, cols[i], len(s.Columns))
			if err != nil {
				return failed(c, out, err)
			}
			tests = append(tests, t)
		}
	}
	var pred *compiledExpr
	if filter != nil {
		ce, err := compileExpr(filter)
		if err != nil {
			return failed(c, out, err)
		}
		pred = &ce
	}
	var jfs []*RunningJoinFilter // joinfilter.go
	if ft != nil {
		for _, f := range s.JoinFilters {
			jf, err := NewRunningJoinFilter(c, f)
			if err != nil {
				return failed(c, out, err)
			}
			jfs = append(jfs, jf)
		}
	}
	var rf *catalog.RowFilter
	if (pred != nil || len(jfs) > 0 || len(tests) > 0) && ft != nil {
		var cols []int
		if filter != nil {
			cols = exprColumns(filter, nil)
		}
		for _, f := range s.JoinFilters {
			for _, k := range f.Keys {
				cols = exprColumns(k, cols)
			}
		}
		rf = &catalog.RowFilter{
			Columns: cols,
			Select: func(b arrow.RecordBatch, cand, sel []int32) ([]int32, error) {
				var err error
				switch {
				case pred != nil:
					if sel, err = pred.filterFrom(c.Alloc, b, cand, sel); err != nil {
						return nil, err
					}
				case cand != nil:
					sel = cand
				default:
					sel = slices.Grow(sel[:0], int(b.NumRows()))
					for i := range int32(b.NumRows()) {
						sel = append(sel, i)
					}
				}
				for _, jf := range jfs {
					if sel, err = jf.Apply(c, b, sel); err != nil {
						return nil, err
					}
				}
				return sel, nil
			},
			Emit:  s.Emit,
			Tests: tests,
		}
	}
	if s.Emit != nil && rf == nil {
		return failed(c, out, errs.New(errs.Internal, "scan of %s: Emit without a filtering read", s.Table.Name()))
	}
	skip := s.prunedSplits()
	nsplits := s.Table.NumSplits()
	workers := min(c.Threads, nsplits)
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		c.Go(func() error {
			defer wg.Done()
			awaitJoinFilters(c, jfs) // joinfilter.go
			var sel []int32
			emit := func(b arrow.RecordBatch) error {
				b, err := conform(b, s.Out)
				if err != nil {
					return err
				}
				if pred != nil && rf == nil {
					b, sel, err = applyFilter(c, *pred, b, sel)
					if err != nil {
						return err
					}
					if b == nil {
						return nil
					}
				}
				if !Send(c, out, b) {
					return c.Err()
				}
				return nil
			}
			for {
				split := int(next.Add(1) - 1)
				if split >= nsplits {
					return nil
				}
				if skip != nil && skip[split] {
					continue
				}
				var err error
				if rf != nil {
					err = ft.ReadFiltered(c, split, s.Columns, c.BatchSize, c.Alloc, rf, emit)
				} else {
					err = s.Table.Read(c, split, s.Columns, c.BatchSize, c.Alloc, emit)
				}
				if err != nil {
					if c.Err() != nil {
						return c.Err()
					}
					return err
				}
			}
		})
	}
	c.Go(func() error {
		wg.Wait()
		close(out)
		return nil
	})
	return out
}

// exprColumns appends the distinct column indexes that e reads to dst.
func exprColumns(e expr.Expr, dst []int) []int {
	switch e := e.(type) {
	case *expr.Column:
		if !slices.Contains(dst, e.Index) {
			dst = append(dst, e.Index)
		}
	case *expr.Call:
		for _, a := range e.Args {
			dst = exprColumns(a, dst)
		}
	}
	return dst
}

// applyFilter keeps the rows of b where pred is true. It consumes b and
// returns the filtered batch (b itself when every row passes), or nil when
// no row does. sel is scratch space, returned for reuse.
func applyFilter(c *Context, pred compiledExpr, b arrow.RecordBatch, sel []int32) (arrow.RecordBatch, []int32, error) {
	sel, err := pred.filter(c.Alloc, b, sel[:0])
	if err != nil {
		b.Release()
		return nil, sel, err
	}
	return keepRows(c, b, sel), sel, nil
}

// keepRows returns the rows sel (ascending) of b, consuming b: b itself
// when sel holds every row, nil when it holds none.
func keepRows(c *Context, b arrow.RecordBatch, sel []int32) arrow.RecordBatch {
	switch {
	case len(sel) == 0:
		b.Release()
		return nil
	case len(sel) == int(b.NumRows()):
		return b
	}
	f := TakeBatch(c.Alloc, b, sel)
	b.Release()
	return f
}

// conform returns b under schema (consuming b) when only field names,
// nullability or metadata differ, so every batch a node emits carries the
// node's schema. Different column types are an Internal error (a planner
// bug), reported instead of the panic arrow would raise.
func conform(b arrow.RecordBatch, schema *arrow.Schema) (arrow.RecordBatch, error) {
	if b.Schema() == schema || b.Schema().Equal(schema) {
		return b, nil
	}
	cols, err := fitColumns(b.Columns(), schema, int(b.NumRows()), nil)
	if err != nil {
		b.Release()
		return nil, err
	}
	out := array.NewRecordBatch(schema, cols, b.NumRows())
	b.Release()
	return out, nil
}

// fitColumns checks that cols have schema's types. With mem set, an
// untyped NULL column (type Null) is replaced in place by a NULL column of
// the wanted type (the old one released); otherwise a type mismatch is an
// Internal error.
func fitColumns(cols []arrow.Array, schema *arrow.Schema, n int, mem memory.Allocator) ([]arrow.Array, error) {
	if len(cols) != schema.NumFields() {
		return nil, errs.New(errs.Internal, "%d columns for a schema of %d", len(cols), schema.NumFields())
	}
	for i, c := range cols {
		want := schema.Field(i).Type
		if arrow.TypeEqual(c.DataType(), want) {
			continue
		}
		if c.DataType().ID() == arrow.NULL && mem != nil {
			cols[i] = array.MakeArrayOfNull(mem, want, n)
			c.Release()
			continue
		}
		return nil, errs.New(errs.Internal, "column %s is %s, want %s", schema.Field(i).Name, c.DataType(), want)
	}
	return cols, nil
}

// failed returns out after arranging for err to fail the query and out to
// be closed: the Open of a node that cannot start.
func failed(c *Context, out chan arrow.RecordBatch, err error) <-chan arrow.RecordBatch {
	c.Go(func() error {
		close(out)
		return err
	})
	return out
}

// Values emits Rows (literals of Out's column types) as one batch.
type Values struct {
	Rows [][]*expr.Literal
	Out  *arrow.Schema
}

func (v *Values) Schema() *arrow.Schema { return v.Out }
func (v *Values) Children() []Node      { return nil }
func (v *Values) Explain() string       { return "Values" }

func (v *Values) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, 1)
	c.Go(func() error {
		defer close(out)
		b, err := literalBatch(c.Alloc, v.Out, v.Rows)
		if err != nil {
			return err
		}
		if !Send(c, out, b) {
			return c.Err()
		}
		return nil
	})
	return out
}
