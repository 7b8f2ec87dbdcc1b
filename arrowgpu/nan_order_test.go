package arrowgpu

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// Doubles compare, and min/max pick, in expr.CompareFloat's order on the
// device as on the CPU: NaN equals NaN and is above every number, +Inf
// included; -0 equals 0. The fused kernels (gq_dcmp), the constant
// comparison and min/max reduction kernels and the aggregation kernel's
// accumulators (gq_less) run on the host (g++) and on the device (a GPU,
// or gqemu), each checked against the CPU evaluator.

// nanDoubles are the values every pair of which the batch holds.
var nanDoubles = []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, 2.5}

// nanBatch has columns g (BIGINT: the pair's first value's index), x and
// y (DOUBLE): every pair of nanDoubles, then rows with a NULL x or y.
func nanBatch() arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	gb, xb, yb := array.NewInt64Builder(mem), array.NewFloat64Builder(mem), array.NewFloat64Builder(mem)
	defer gb.Release()
	defer xb.Release()
	defer yb.Release()
	for i, a := range nanDoubles {
		for _, b := range nanDoubles {
			gb.Append(int64(i))
			xb.Append(a)
			yb.Append(b)
		}
		gb.Append(int64(i))
		xb.AppendNull()
		yb.Append(a)
		gb.Append(int64(i))
		xb.Append(a)
		yb.AppendNull()
	}
	cols := []arrow.Array{gb.NewArray(), xb.NewArray(), yb.NewArray()}
	schema := arrow.NewSchema([]arrow.Field{{Name: "g", Type: arrow.PrimitiveTypes.Int64}, {Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

var (
	nanG = &expr.Column{Index: 0, Type: expr.Int64, Name: "g"}
	nanX = &expr.Column{Index: 1, Type: expr.Float64, Name: "x"}
	nanY = &expr.Column{Index: 2, Type: expr.Float64, Name: "y"}
)

func dbl(v float64) *expr.Literal { return &expr.Literal{Value: v, Type: expr.Float64} }

// nanComparisons is every operator over x and y, x and a constant, a
// constant and x; IN lists with NaN.
func nanComparisons() []expr.Expr {
	var es []expr.Expr
	for _, fn := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		es = append(es, call(fn, expr.Boolean, nanX, nanY))
		for _, v := range []float64{math.NaN(), math.Inf(1), 1, math.Copysign(0, -1)} {
			es = append(es, call(fn, expr.Boolean, nanX, dbl(v)), call(fn, expr.Boolean, dbl(v), nanX))
		}
		es = append(es, call(fn, expr.Boolean, nanX, call("cast", expr.Float64, intLit(1))))
	}
	return append(es,
		call("in", expr.Boolean, nanX, dbl(1), dbl(math.NaN())),
		call("not_in", expr.Boolean, nanX, dbl(math.NaN()), dbl(0)),
	)
}

// TestNaNOrderCPU pins the CPU answers the device is compared with to the
// order itself, so that both agreeing on IEEE's answers fails.
func TestNaNOrderCPU(t *testing.T) {
	rec := nanBatch()
	defer rec.Release()
	mem := memory.NewGoAllocator()
	xs, ys := rec.Column(1).(*array.Float64), rec.Column(2).(*array.Float64)
	holds := map[string]func(int) bool{
		"eq": func(c int) bool { return c == 0 }, "ne": func(c int) bool { return c != 0 },
		"lt": func(c int) bool { return c < 0 }, "le": func(c int) bool { return c <= 0 },
		"gt": func(c int) bool { return c > 0 }, "ge": func(c int) bool { return c >= 0 },
	}
	for fn, h := range holds {
		ev, err := expr.Compile(call(fn, expr.Boolean, nanX, nanY))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ev.Eval(mem, rec)
		if err != nil {
			t.Fatal(err)
		}
		got := a.(*array.Boolean)
		for i := range got.Len() {
			if xs.IsNull(i) || ys.IsNull(i) {
				continue
			}
			x, y := xs.Value(i), ys.Value(i)
			c := 0 // NaN and NaN, or x == y
			switch xn, yn := x != x, y != y; {
			case xn && yn:
			case xn:
				c = 1
			case yn:
				c = -1
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
			if want := h(c); got.Value(i) != want {
				t.Errorf("%s(%v, %v) = %v, want %v", fn, x, y, got.Value(i), want)
			}
		}
		a.Release()
	}
}

func TestNaNOrderFused(t *testing.T) {
	rec := nanBatch()
	defer rec.Release()
	calls := nanComparisons()
	pred := call("or", expr.Boolean, call("ge", expr.Boolean, nanX, nanY), call("eq", expr.Boolean, nanY, dbl(math.NaN())))
	t.Run("host", func(t *testing.T) {
		if kept := checkOnHost(t, calls, pred, rec); kept == 0 {
			t.Error("the predicate keeps no row: the test checks nothing")
		}
	})
	t.Run("device", func(t *testing.T) {
		q := needKernels(t)
		db, err := q.Upload(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Free()
		checkOnDevice(t, q, calls, db, rec)
		// The comparison of a column with a constant (ops.go).
		mem := memory.NewGoAllocator()
		for op, fn := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
			for _, v := range []float64{math.NaN(), math.Inf(1), 1} {
				m, err := q.compareConst(db.Cols[1], cmpOp(op), v)
				if err != nil {
					t.Fatal(err)
				}
				gotM := download(t, q, m).(*array.Boolean)
				m.Free()
				ev, err := expr.Compile(call(fn, expr.Boolean, nanX, dbl(v)))
				if err != nil {
					t.Fatal(err)
				}
				want, err := ev.Eval(mem, rec)
				if err != nil {
					t.Fatal(err)
				}
				wb := want.(*array.Boolean)
				for i := range wb.Len() {
					if w := wb.IsValid(i) && wb.Value(i); gotM.Value(i) != w {
						t.Errorf("compareConst %s %v row %d: %v, want %v", fn, v, i, gotM.Value(i), w)
					}
				}
				want.Release()
				gotM.Release()
			}
		}
	})
}

// min and max of x and y: per g (each group's x is one value, NaN groups
// all NaN; y every value), per g % 3 over the rows whose y is at least
// 2.5 (NaN included), and over every row; on the host through each path
// of the kernel (warp-uniform, per peer, block-local), on the device
// straight to the table and block-local, and by the reduction kernel.
func TestNaNOrderAgg(t *testing.T) {
	rec := nanBatch()
	defer rec.Release()
	ops := []AggOp{{Fn: "count", Arg: nanX}, {Fn: "min", Arg: nanX}, {Fn: "max", Arg: nanX}, {Fn: "min", Arg: nanY}, {Fn: "max", Arg: nanY}}
	keys := [][]expr.Expr{{nanG}, {call("mod", expr.Int64, nanG, intLit(3))}, nil}
	preds := []expr.Expr{nil, call("ge", expr.Boolean, nanY, dbl(2.5)), nil}
	for c, ks := range keys {
		want := aggOnCPU(t, ks, ops, preds[c], rec)
		k, err := GenerateAgg(ks, ops, preds[c])
		if err != nil {
			t.Fatal(err)
		}
		if c == 2 {
			// Every value: min -Inf, max NaN, for x and y alike.
			w := "110 110:-Inf 110:NaN 110:-Inf 110:NaN"
			if want[""] != w {
				t.Errorf("CPU, no key: %q, want %q", want[""], w)
			}
		}
		t.Run(fmt.Sprintf("host %d", c), func(t *testing.T) { checkAggPaths(t, k, rec, 64, want) })
		t.Run(fmt.Sprintf("device %d", c), func(t *testing.T) {
			q := needKernels(t)
			db, err := q.Upload(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Free()
			for _, local := range []bool{false, true} {
				tb, err := q.NewAggTable(k, 64)
				if err != nil {
					t.Fatal(err)
				}
				tb.Local = local
				if full, err := tb.Add(db); err != nil || full {
					tb.Free()
					t.Fatal(full, err)
				}
				res, err := tb.Result(memory.NewGoAllocator(), 0, nil)
				tb.Free()
				if err != nil {
					t.Fatal(err)
				}
				if res.Rows != len(want) {
					t.Errorf("local=%v: %d groups, CPU %d", local, res.Rows, len(want))
				}
				for r := range res.Rows {
					key := ""
					if len(ks) > 0 {
						key = fmt.Sprint(res.Keys[0].Value(r))
					}
					var vs []string
					for j, acc := range res.Ops {
						v := fmt.Sprint(acc[0].Value(r))
						if j > 0 {
							if acc[0].Value(r) == 0 {
								v += ":NULL"
							} else {
								v += fmt.Sprintf(":%.9g", math.Float64frombits(uint64(acc[1].Value(r))))
							}
						}
						vs = append(vs, v)
					}
					if got := strings.Join(vs, " "); got != want[key] {
						t.Errorf("local=%v: group %s: got %s, want %s", local, key, got, want[key])
					}
				}
				res.Release()
			}
		})
	}
	t.Run("device reduction", func(t *testing.T) {
		q := needKernels(t)
		db, err := q.Upload(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Free()
		for c, want := range map[int][2]float64{1: {math.Inf(-1), math.NaN()}, 2: {math.Inf(-1), math.NaN()}} {
			a, err := q.minMax(db.Cols[c], nil)
			if err != nil {
				t.Fatal(err)
			}
			if expr.CompareFloat(a.MinFloat, want[0]) != 0 || expr.CompareFloat(a.MaxFloat, want[1]) != 0 {
				t.Errorf("minMax(column %d) = %v..%v, want %v..%v", c, a.MinFloat, a.MaxFloat, want[0], want[1])
			}
		}
	})
}
