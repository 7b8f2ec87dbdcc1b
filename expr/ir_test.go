package expr

import (
	"strings"
	"testing"
	"time"
)

// An expression's text: casts name their type; a deep one is written in
// time linear in its size (a 1,000-term sum took seconds when each level
// joined its arguments' strings), and Abbreviate cuts it.
func TestExprString(t *testing.T) {
	col := &Column{Index: 0, Type: Int64, Name: "x"}
	c := &Call{Fn: "cast", Args: []Expr{col}, Type: Float64}
	if got, want := (&Call{Fn: "add", Args: []Expr{c, &Literal{Value: int64(1), Type: Int64}}, Type: Float64}).String(), "add(cast(x#0 as float64), 1)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	sum := Expr(col)
	for range 20000 {
		sum = &Call{Fn: "add", Args: []Expr{sum, col}, Type: Int64}
	}
	start := time.Now()
	s := sum.String()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a 20,000-term sum named in %v", d)
	}
	if !strings.HasPrefix(s, "add(add(") || strings.Count(s, "x#0") != 20001 {
		t.Errorf("String of the sum: %.40q…", s)
	}
	a := Abbreviate(sum, 50)
	if len(a) > 60 || !strings.HasSuffix(a, "…") || !strings.HasPrefix(s, strings.TrimSuffix(a, "…")) {
		t.Errorf("Abbreviate(sum, 50) = %q", a)
	}
	if got := Abbreviate(c, 50); got != c.String() {
		t.Errorf("Abbreviate of a short expression = %q, want %q", got, c.String())
	}
}
