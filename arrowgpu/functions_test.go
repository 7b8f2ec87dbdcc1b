package arrowgpu

import (
	"fmt"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// Every registered function with a device code generator must agree with
// its CPU kernel. The calls are not listed here: each function's own type
// rule binds it over every choice of arguments from a pool of the test
// batch's columns and a few literals, so that a function added in one
// file is checked here without a line of this test changing. Each call
// the device accepts runs on the host (g++, one thread) and on the device
// (a GPU, or gqemu under make test-emu), both compared with the CPU.

// testBinder is expr.Binder over expr's IR, for calls built by a test.
type testBinder struct{}

func (testBinder) Cast(o expr.Operand, t arrow.DataType) (expr.Operand, error) {
	e := o.(expr.Expr)
	if arrow.TypeEqual(e.DataType(), t) {
		return o, nil
	}
	return operand{&expr.Call{Fn: "cast", Args: []expr.Expr{e}, Type: t}}, nil
}

func (testBinder) Constant(o expr.Operand) (any, bool) {
	if l, ok := o.(operand).Expr.(*expr.Literal); ok {
		return l.Value, true
	}
	return nil, false
}

func (testBinder) Literal(v any, t arrow.DataType) expr.Operand {
	return operand{&expr.Literal{Value: v, Type: t}}
}

func (testBinder) Call(fn string, args []expr.Operand, t arrow.DataType) expr.Operand {
	es := make([]expr.Expr, len(args))
	for i, a := range args {
		es[i] = a.(operand).Expr
	}
	return operand{&expr.Call{Fn: fn, Args: es, Type: t}}
}

func (testBinder) Op(name string, _ ...expr.Operand) (expr.Operand, error) {
	return nil, fmt.Errorf("operator %s: not in this test", name)
}

func (testBinder) Unify(what string, args []expr.Operand) (arrow.DataType, []expr.Operand, error) {
	t := args[0].Type()
	for _, a := range args[1:] {
		if !arrow.TypeEqual(a.Type(), t) {
			return nil, nil, fmt.Errorf("%s: mixed types", what)
		}
	}
	return t, args, nil
}

func (testBinder) Truth(o expr.Operand, clause string) (expr.Operand, error) {
	return nil, fmt.Errorf("%s: not in this test", clause)
}

// operand is an expr.Expr as an expr.Operand.
type operand struct{ expr.Expr }

func (o operand) Type() arrow.DataType { return o.DataType() }

// registryCalls binds every registered function that has a device code
// generator over every choice of up to three arguments from pool, keeping
// the calls the device generator accepts.
func registryCalls(t *testing.T) []expr.Expr {
	pool := []expr.Expr{colQty, colDay, colID, colRat, intLit(1), &expr.Literal{Value: -2.5, Type: expr.Float64}}
	var calls []expr.Expr
	seen := map[string]bool{}
	names := map[string]bool{}
	// By IR name, so that the functions only the planner calls (the bit
	// operators) are checked too.
	for _, sql := range expr.Functions {
		f := expr.Lookup(sql)
		if f == nil || f.GPU == nil || f.Bind == nil || names[f.Name] {
			continue
		}
		names[f.Name] = true
		for n := f.MinArgs; n <= min(f.MaxArgs, 3); n++ {
			idx := make([]int, n)
			for {
				args := make([]expr.Operand, n)
				for i, k := range idx {
					args[i] = operand{pool[k]}
				}
				if r, err := f.Bind(testBinder{}, sql, args); err == nil {
					e := r.(operand).Expr
					if c, ok := e.(*expr.Call); ok && c.Fn == f.Name && !seen[e.String()] {
						if _, err := GenerateFused([]expr.Expr{e}, nil); err == nil {
							seen[e.String()] = true
							calls = append(calls, e)
						}
					}
				}
				i := 0
				for ; i < n; i++ {
					if idx[i]++; idx[i] < len(pool) {
						break
					}
					idx[i] = 0
				}
				if i == n {
					break
				}
			}
		}
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].String() < calls[j].String() })
	var fns []string
	for n := range names {
		fns = append(fns, n)
	}
	sort.Strings(fns)
	t.Logf("%d calls of %d functions with device code: %v", len(calls), len(fns), fns)
	if len(calls) == 0 {
		t.Fatal("no registered function generated device code")
	}
	return calls
}

func TestFunctionsCPUvsDevice(t *testing.T) {
	calls := registryCalls(t)
	rec := testBatch(3001, 7)
	defer rec.Release()
	t.Run("host", func(t *testing.T) { checkOnHost(t, calls, nil, rec) })
	t.Run("device", func(t *testing.T) {
		q := needKernels(t)
		db, err := q.Upload(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Free()
		checkOnDevice(t, q, calls, db, rec)
	})
}

// checkOnDevice runs the fused kernel of exprs over db, rec uploaded, and
// checks each output against the CPU evaluator.
func checkOnDevice(t *testing.T, q *Queue, exprs []expr.Expr, db *Batch, rec arrow.RecordBatch) {
	t.Helper()
	f, err := GenerateFused(exprs, nil)
	if err != nil {
		t.Fatal(err)
	}
	outs, _, err := q.RunFused(f, db)
	if err != nil {
		t.Fatalf("%v\nsource:\n%s", err, f.Source)
	}
	got := make([]arrow.Array, len(outs))
	for k, o := range outs {
		got[k] = download(t, q, o)
		o.Free()
	}
	wantCPUResults(t, exprs, rec, got)
}
