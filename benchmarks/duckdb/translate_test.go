package duckdb

import (
	"math/big"
	"reflect"
	"testing"
)

func TestTranslate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"select `a` from t where s = 'x`y'", `select "a" from t where s = 'x` + "`" + `y'`},
		{"select date_add(d, interval 3 month) from t", "select (d + interval 3 month) from t"},
		{"select DATE_SUB(date '1998-12-01', interval '90' day)", "select (date '1998-12-01' - interval '90' day)"},
		{"select date_add(date_add(d, interval 1 day), interval 2 day)", "select ((d + interval 1 day) + interval 2 day)"},
		{"select my_date_add(x) from t", "select my_date_add(x) from t"},
		{"select 'date_add(x, y)'", "select 'date_add(x, y)'"},
	}
	for _, tc := range tests {
		if got := Translate(tc.in); got != tc.want {
			t.Errorf("Translate(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	got := SplitStatements("create view v as select 1;\n-- note; here\nselect ';' from v;\n\ndrop view v;\n")
	want := []string{"create view v as select 1", "-- note; here\nselect ';' from v", "drop view v"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !IsQuery(want[1]) || IsQuery(want[0]) || !IsQuery("with x as (select 1) select * from x") {
		t.Error("IsQuery misclassifies")
	}
}

func TestFormatDecimal(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		scale int
		want  string
	}{{5, 2, "0.05"}, {-150, 2, "-1.50"}, {12345, 0, "12345"}, {-5, 4, "-0.0005"}, {0, 2, "0.00"}} {
		if got := formatDecimal(big.NewInt(tc.v), tc.scale); got != tc.want {
			t.Errorf("formatDecimal(%d, %d) = %q, want %q", tc.v, tc.scale, got, tc.want)
		}
	}
}
