package arrowgpu

import (
	_ "embed"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fusedGolden is embedded so that the test binary carried to a GPU machine
// needs no source tree.
//
//go:embed testdata/fused.golden.cu
var fusedGolden string

// The generated source is compared with a golden file so that any change
// to the generator is reviewed as CUDA text; compiling it needs NVRTC and
// is done by the GPU tests.
func TestFusedGolden(t *testing.T) {
	f, err := GenerateFused(fusedFixtures(), q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/fused.golden.cu"
	if *update {
		if err := os.WriteFile(golden, []byte(f.Source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *update {
		return // the embedded copy is stale until the next build
	}
	if f.Source != fusedGolden {
		t.Errorf("generated source differs from %s (run with -update after checking):\n%s", golden, f.Source)
	}
	if got := f.Inputs; len(got) != 8 || got[0] != 0 || got[7] != 7 {
		t.Errorf("inputs %v, want 0..7", got)
	}
	if len(f.Outputs) != len(fusedFixtures()) || !f.Mask {
		t.Errorf("outputs %d, mask %v", len(f.Outputs), f.Mask)
	}
	if strings.Count(f.Source, "{") != strings.Count(f.Source, "}") {
		t.Error("unbalanced braces")
	}
	// Every failing site is reported by the expression text.
	if len(f.Sites) == 0 || !strings.Contains(strings.Join(f.Sites, "\n"), "mul(price#1, discount#2)") {
		t.Errorf("sites %q", f.Sites)
	}
	full := f.fullSource()
	if !strings.Contains(full, "gq_div_scaled") || !strings.Contains(full, "gq_put_bits") || !strings.HasSuffix(full, f.Source) {
		t.Error("full source lacks the helper headers")
	}
}

// The kernel name is a hash of the kernel: the same expressions give the
// same name (module cache hits), different ones a different name.
func TestFusedNameStable(t *testing.T) {
	a, _ := GenerateFused([]expr.Expr{q1Charge()}, nil)
	b, _ := GenerateFused([]expr.Expr{q1Charge()}, nil)
	c, _ := GenerateFused([]expr.Expr{q1Charge()}, q6Pred())
	if a.Name != b.Name || a.Source != b.Source || a.Name == c.Name {
		t.Errorf("names %s %s %s", a.Name, b.Name, c.Name)
	}
	if a.Mask || !c.Mask {
		t.Error("mask flag")
	}
}

func TestFusedUnsupported(t *testing.T) {
	str := &expr.Column{Index: 9, Type: expr.String, Name: "s"}
	longIn := []expr.Expr{colQty}
	for i := range maxInList + 1 {
		longIn = append(longIn, &expr.Literal{Value: int64(i * 100), Type: colQty.Type})
	}
	for _, c := range []struct {
		e    expr.Expr
		want string
	}{
		{str, "utf8"},
		{call("like", expr.Boolean, str, &expr.Literal{Value: "a_%", Type: expr.String}), "'_'"},
		{call("like", expr.Boolean, str, str), "not a constant"},
		{call("lt", expr.Boolean, str, &expr.Literal{Value: "a", Type: expr.String}), "function lt of strings"},
		{call("upper", expr.String, str), "utf8"},
		{call("eq", expr.Boolean, call("upper", expr.String, str), &expr.Literal{Value: "A", Type: expr.String}), "upper"},
		{call("sqrt", expr.Decimal(15, 2), colQty), "sqrt"},
		{call("mod", expr.Float64, colRat, colRat), "float mod"},
		{call("date_add_months", expr.Date, colDay, intLit(1)), "date_add_months"},
		{call("in", expr.Boolean, longIn...), "IN list of 257 values"},
		{call("not_in", expr.Boolean, longIn...), "IN list of 257 values"},
	} {
		_, err := GenerateFused([]expr.Expr{c.e}, nil)
		if !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want Unsupported naming %q, got %v", c.e, c.want, err)
		}
	}
	// An expression too large to compile in good time: 3,000 additions.
	sum := expr.Expr(colQty)
	for range 3000 {
		sum = call("add", colQty.Type, sum, colQty)
	}
	if _, err := GenerateFused([]expr.Expr{sum}, nil); !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "KiB of kernel source") {
		t.Errorf("a 3,000-term sum: want Unsupported naming its kernel source, got %v", err)
	}
	if _, err := GenerateFused(nil, colQty); !errors.Is(err, errs.Internal) {
		t.Errorf("non-boolean predicate: got %v", err)
	}
}

func TestLiteralRendering(t *testing.T) {
	for _, c := range []struct {
		l    *expr.Literal
		want string
	}{
		{intLit(-5), "-5LL"},
		{&expr.Literal{Value: int64(-1 << 63), Type: expr.Int64}, "(-9223372036854775807LL - 1)"},
		{&expr.Literal{Value: 1.5, Type: expr.Float64}, "__longlong_as_double(0x3ff8000000000000LL)"},
		{&expr.Literal{Value: -2.0, Type: expr.Float64}, "__longlong_as_double((i64)0xc000000000000000ULL)"},
		{dateLit(9131), "((i32)9131)"},
		{&expr.Literal{Value: true, Type: expr.Boolean}, "true"},
	} {
		v, err := literal(c.l)
		if err != nil || v.val != c.want || v.null != "false" {
			t.Errorf("%s: got %q %q %v, want %q", c.l, v.val, v.null, err, c.want)
		}
	}
	v, err := literal(&expr.Literal{Type: arrow.Null})
	if err != nil || v.null != "true" {
		t.Errorf("NULL literal: %v %v", v, err)
	}
}

// TestFusedMemo: GenerateFused remembers kernels, and a kernel is shared
// only by equal expressions of the same text: the same positions and
// types under other column names get their own Sites (error messages
// name this query's columns), other literals their own kernel.
func TestFusedMemo(t *testing.T) {
	sum := func(a, b string, lit int64) expr.Expr {
		return &expr.Call{Fn: "add", Type: expr.Int64, Args: []expr.Expr{
			&expr.Call{Fn: "add", Type: expr.Int64, Args: []expr.Expr{
				&expr.Column{Index: 0, Type: expr.Int64, Name: a}, &expr.Column{Index: 1, Type: expr.Int64, Name: b}}},
			&expr.Literal{Value: lit, Type: expr.Int64}}}
	}
	gen := func(e expr.Expr) *Fused {
		f, err := GenerateFused([]expr.Expr{e}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f1 := gen(sum("a", "b", 1))
	if f2 := gen(sum("a", "b", 1)); f2 != f1 {
		t.Error("the same expressions generated again instead of remembered")
	}
	f3 := gen(sum("x", "y", 1))
	if f3 == f1 || !strings.Contains(strings.Join(f3.Sites, " "), "x#0") {
		t.Errorf("other column names share a kernel: sites %q", f3.Sites)
	}
	if f4 := gen(sum("a", "b", 2)); f4 == f1 || f4.Source == f1.Source {
		t.Error("another literal shares a kernel")
	}
	if p, _ := GenerateFused(nil, sum("a", "b", 1)); p == f1 {
		t.Error("a predicate shares an output expression's kernel")
	}
}
