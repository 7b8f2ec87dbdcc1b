package engine

import (
	"context"
	"testing"

	"gq/catalog"
)

// TestStreamClose: a stream closed after its first batch stops its query
// and frees every byte the query allocated.
func TestStreamClose(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"select * from lineitem",
		"select a.l_orderkey, a.l_comment, b.l_comment from lineitem a join lineitem b on a.l_orderkey = b.l_orderkey",
	} {
		e := testNew(cat, Options{BatchSize: 4096})
		st, err := e.QueryStream(context.Background(), sql)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := st.Next()
		if !ok {
			t.Fatalf("%s: no batch: %v", sql, st.Err())
		}
		if !b.Schema().Equal(st.Schema) {
			t.Errorf("%s: batch schema %v, stream schema %v", sql, b.Schema(), st.Schema)
		}
		b.Release()
		st.Close()
		if live := st.Mem.Live(); live != 0 {
			t.Errorf("%s: %d bytes live after Close", sql, live)
		}
		e.Close()
	}
}

// TestStreamSchema: Schema plans without running, and agrees with the
// stream's schema for queries and metadata statements alike.
func TestStreamSchema(t *testing.T) {
	cat := catalog.New()
	e := testNew(cat, Options{})
	defer e.Close()
	ctx := context.Background()
	if _, err := e.QueryStream(ctx, "create table t as select 1 as a, 'x' as b"); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{"select a, b from t", "describe t", "explain select a from t", "explain analyze select a from t", "show tables", "drop table if exists nothing"} {
		want, err := e.Schema(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		st, err := e.QueryStream(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		for b, ok := st.Next(); ok; b, ok = st.Next() {
			b.Release()
		}
		if err := st.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		st.Close()
		if !st.Schema.Equal(want) {
			t.Errorf("%s: stream schema %v, Schema() %v", sql, st.Schema, want)
		}
	}
	if _, err := e.QueryStream(ctx, "select 1; select 2"); err == nil {
		t.Error("two statements streamed")
	}
}
