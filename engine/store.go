package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/planner"
)

// Tables of a store (gq --db DIR, catalog/store.go): DDL writes Parquet
// files instead of keeping rows in memory. A new table's directory is
// written beside its name and renamed into place, and each INSERT adds
// one file renamed into place, so a failed statement leaves nothing and
// a reader never sees half a file.

// partName is the file name of a table's next part: parts sort in the
// order they were written.
func partName() string {
	return fmt.Sprintf("part-%020d.parquet", time.Now().UnixNano())
}

// storeRanks refuses a store under ranks: every rank would write the same
// files.
func (e *Engine) storeRanks(name string) error {
	if e.NRanks() > 1 {
		return errs.NewNear(errs.Unsupported, name, "tables of a --db directory cannot be created or changed under ranks yet")
	}
	return nil
}

// createStored makes table name in the store directory dir: of schema and
// no rows, or with query's rows.
func (e *Engine) createStored(ctx context.Context, cat *catalog.Catalog, name, dir string, schema *arrow.Schema, query sqlparser.Statement) (*Result, error) {
	if err := e.storeRanks(name); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, errs.NewNear(errs.IO, name, "cannot create table %s: %s exists and is not a table", name, dir)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".*.tmp")
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot create table %s", name)
	}
	defer os.RemoveAll(tmp) // gone once renamed
	var rows int64
	if query == nil {
		w, err := catalog.CreateParquet(filepath.Join(tmp, partName()), schema)
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			return nil, err
		}
	} else {
		s, err := e.stream(ctx, query)
		if err != nil {
			return nil, err
		}
		if rows, err = writePart(s, filepath.Join(tmp, partName()), name, nil); err != nil {
			return nil, err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot create table %s", name)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot create table %s", name)
	}
	cat.StoreChanged(name)
	if _, ok := cat.Table(name); !ok {
		return nil, errs.NewNear(errs.Internal, name, "table %s was written to %s but does not open", name, dir)
	}
	return &Result{RowsAffected: rows}, nil
}

// insertStored adds INSERT's rows (p, lowered to root, or planning's
// error) to table name of the store as one more file.
func (e *Engine) insertStored(ctx context.Context, cat *catalog.Catalog, name string, schema *arrow.Schema, p planner.Plan, root exec.Node, err error, ins *sqlparser.Insert) (*Result, error) {
	if err := e.storeRanks(name); err != nil {
		return nil, err
	}
	s, err := e.streamPlan(ctx, p, root, err, ins)
	if err != nil {
		return nil, err
	}
	rows, err := writePart(s, filepath.Join(cat.StoreDir(name), partName()), name, schema)
	if err != nil {
		return nil, err
	}
	cat.StoreChanged(name)
	return &Result{RowsAffected: rows}, nil
}

// writePart writes a stream's rows into the Parquet file path (renamed
// into place when complete), as table name's rows: under schema (nil: the
// stream's), its NOT NULL columns checked. s is closed.
func writePart(s *Stream, path, name string, schema *arrow.Schema) (int64, error) {
	defer s.Close()
	if schema == nil {
		schema = s.Schema
	}
	w, err := catalog.CreateParquet(path, schema)
	if err != nil {
		return 0, err
	}
	return drain(s, w, func(b arrow.RecordBatch) error { return checkNotNull(name, schema, b) })
}
