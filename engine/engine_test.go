package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gq/errs"
)

func TestExecOrderAndResults(t *testing.T) {
	e := newTestEngine(t, Options{})
	var got []string
	err := e.Exec(context.Background(), "create table t as select id from people where id < 3;\nselect count(*) from t;  drop table t; select 'x' as s", func(r *Result) error {
		defer r.Release()
		got = append(got, r.Statement+"="+strings.Join(resultLines(r), ","))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"select count(*) from t=2", "select 'x' as s=x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestErrorsCarryKindAndPosition(t *testing.T) {
	e := newTestEngine(t, Options{})
	tests := []struct {
		sql       string
		kind      *errs.Kind
		line, col int
		msg       string
	}{
		{"select 1;\nselect nosuch from people", errs.Binding, 2, 8, "nosuch"},
		{"select 1;\n\n  selec 2", errs.Syntax, 3, 3, "selec"},
		{"select 1; insert into people values (1)", errs.Unsupported, 0, 0, "INSERT"},
		{"select 1; show databases", errs.Unsupported, 0, 0, "SHOW"},
		{"select 1;\nselect (select id from people)", errs.Execution, 0, 0, ""},
	}
	for _, tc := range tests {
		err := e.Exec(context.Background(), tc.sql, func(r *Result) error { r.Release(); return nil })
		var ge *errs.Error
		if !errors.As(err, &ge) || ge.Kind != tc.kind {
			t.Errorf("%q: got %v, want kind %v", tc.sql, err, tc.kind)
			continue
		}
		if tc.line > 0 && (ge.Line != tc.line || ge.Col != tc.col) {
			t.Errorf("%q: at %d:%d, want %d:%d", tc.sql, ge.Line, ge.Col, tc.line, tc.col)
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %q lacks %q", tc.sql, err, tc.msg)
		}
	}
}

func TestQueryWantsOneStatement(t *testing.T) {
	e := newTestEngine(t, Options{})
	if _, err := e.Query(context.Background(), "select 1; select 2"); err == nil {
		t.Error("two statements: no error")
	}
	res, err := e.Query(context.Background(), "select id from people order by id limit 4")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if res.NumRows() != 4 || res.Schema.Field(0).Name != "id" {
		t.Errorf("got %d rows, schema %v", res.NumRows(), res.Schema)
	}
}

func TestCancelled(t *testing.T) {
	e := newTestEngine(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Query(ctx, "select count(*) from people a, people b, people c")
	if !errors.Is(err, errs.Cancelled) {
		t.Errorf("got %v, want cancelled", err)
	}
}
