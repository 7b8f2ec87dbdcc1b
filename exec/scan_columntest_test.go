package exec

import (
	"testing"

	"gq/expr"
)

// TestSplitColumnTests checks which conjuncts a scan hands over as column
// tests: one string column, functions that cannot fail.
func TestSplitColumnTests(t *testing.T) {
	mode := &expr.Column{Index: 0, Type: expr.String, Name: "mode"}
	other := &expr.Column{Index: 1, Type: expr.String, Name: "other"}
	qty := &expr.Column{Index: 2, Type: expr.Int64, Name: "qty"}
	str := func(s string) expr.Expr { return &expr.Literal{Value: s, Type: expr.String} }
	num := func(v int64) expr.Expr { return &expr.Literal{Value: v, Type: expr.Int64} }
	call := func(fn string, typ any, args ...expr.Expr) expr.Expr {
		if typ != nil {
			return &expr.Call{Fn: fn, Args: args, Type: expr.Int64}
		}
		return &expr.Call{Fn: fn, Args: args, Type: expr.Boolean}
	}
	cases := []struct {
		name  string
		e     expr.Expr
		tests int
		rest  bool
	}{
		{"eq", call("eq", nil, mode, str("AIR")), 1, false},
		{"in and like", call("and", nil, call("in", nil, mode, str("A"), str("B")), call("like", nil, other, str("%x%"))), 2, false},
		{"int column stays", call("lt", nil, qty, num(24)), 0, true},
		{"two columns stay", call("eq", nil, mode, other), 0, true},
		{"cast may fail: stays", call("gt", nil, &expr.Call{Fn: "cast", Args: []expr.Expr{mode}, Type: expr.Int64}, num(3)), 0, true},
		{"mixed", call("and", nil, call("ne", nil, mode, str("")), call("lt", nil, qty, num(24)), call("gt", nil, call("length", 1, other), num(3))), 2, true},
	}
	for _, tc := range cases {
		tests, cols, rest := splitColumnTests(tc.e)
		if len(tests) != tc.tests || len(cols) != tc.tests || (rest != nil) != tc.rest {
			t.Errorf("%s: %d tests, rest %v; want %d tests, rest %v", tc.name, len(tests), rest, tc.tests, tc.rest)
		}
	}
}
