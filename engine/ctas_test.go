package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"gq/catalog"
	"gq/errs"
	gqmem "gq/memory"
)

// TestCreateTableAsMemoryLimit: tables made by CREATE TABLE AS count under
// the engine's memory limit while they exist. A flood of them stops with
// ResourcesExhausted before the tables pass the limit (they were outside
// it: 24 tables held 2.6 GB under a 2 GiB limit), dropping one gives its
// memory back, and a session's tables are given back when it closes.
func TestCreateTableAsMemoryLimit(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	const limit = 64 << 20
	e := testNew(cat, Options{MemoryLimit: limit})
	defer e.Close()
	ctx := context.Background()
	exec := func(ctx context.Context, sql string) error {
		return e.Exec(ctx, sql, func(r *Result) error { r.Release(); return nil })
	}
	// About 12 MiB a table: lineitem's 600K order keys and quantities.
	made := 0
	var err error
	for ; made < 20; made++ {
		if err = exec(ctx, fmt.Sprintf("create table t%d as select l_orderkey, l_quantity from lineitem", made)); err != nil {
			break
		}
		if held := e.Memory().Reserved(gqmem.Host); held > limit {
			t.Fatalf("%d tables hold %s, past the %s limit", made+1, gqmem.FormatBytes(held), gqmem.FormatBytes(limit))
		}
	}
	if !errors.Is(err, errs.ResourcesExhausted) {
		t.Fatalf("after %d tables: %v (want a ResourcesExhausted error)", made, err)
	}
	if made < 2 {
		t.Fatalf("only %d tables fit under %s", made, gqmem.FormatBytes(limit))
	}
	t.Logf("%d tables, then: %v", made, err)
	checkNoHeldMemory(t, e, "after the CTAS flood")
	before := e.Memory().Reserved(gqmem.Host)
	if err := exec(ctx, "drop table t0"); err != nil {
		t.Fatal(err)
	}
	if after := e.Memory().Reserved(gqmem.Host); after >= before {
		t.Fatalf("dropping a table gave back nothing: %d -> %d bytes reserved", before, after)
	}
	if err := exec(ctx, "create table t0 as select l_orderkey, l_quantity from lineitem"); err != nil {
		t.Fatalf("after a drop, a table fits again: %v", err)
	}
	for i := range made {
		if err := exec(ctx, fmt.Sprintf("drop table t%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.Memory().Reserved(gqmem.Host); n != 0 {
		t.Fatalf("%d bytes reserved with every table dropped", n)
	}

	sess := cat.Session()
	if err := exec(WithCatalog(ctx, sess), "create table mine as select l_orderkey from lineitem"); err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Table("mine"); ok {
		t.Fatal("a session's table is in the shared catalog")
	}
	if e.Memory().Reserved(gqmem.Host) == 0 {
		t.Fatal("a session's table holds no memory")
	}
	sess.Close()
	if n := e.Memory().Reserved(gqmem.Host); n != 0 {
		t.Fatalf("%d bytes reserved after the session closed", n)
	}
}
