package expr

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Test helpers: build columns from Go values (nil = NULL) and render
// results as strings so tables stay readable.

func mkArr(mem memory.Allocator, t arrow.DataType, vals ...any) arrow.Array {
	b := array.NewBuilder(mem, t)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int64Builder:
			bb.Append(int64(v.(int)))
		case *array.Float64Builder:
			bb.Append(v.(float64))
		case *array.Decimal64Builder:
			bb.Append(decimal.Decimal64(int64(v.(int))))
		case *array.Decimal128Builder: // an int, or the unscaled digits as text
			if s, ok := v.(string); ok {
				w, ok := ParseDecimal128(s, 0)
				if !ok {
					panic("bad decimal128 " + s)
				}
				bb.Append(w)
			} else {
				bb.Append(decimal.Decimal128(decimal128.FromI64(int64(v.(int)))))
			}
		case *array.Date32Builder:
			bb.Append(arrow.Date32(v.(int)))
		case *array.BooleanBuilder:
			bb.Append(v.(bool))
		case *array.StringBuilder:
			bb.Append(v.(string))
		}
	}
	return b.NewArray()
}

func mkBatch(mem memory.Allocator, cols ...arrow.Array) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	n := int64(0)
	for i, c := range cols {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: c.DataType(), Nullable: true}
		n = int64(c.Len())
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
}

// render prints an array as "[v1 v2 NULL]".
func render(a arrow.Array) string {
	s := "["
	for i := 0; i < a.Len(); i++ {
		if i > 0 {
			s += " "
		}
		if a.IsNull(i) {
			s += "NULL"
			continue
		}
		switch v := a.(type) {
		case *array.Decimal64:
			s += FormatDecimal(int64(v.Value(i)), v.DataType().(*arrow.Decimal64Type).Scale)
		case *array.Decimal128:
			s += FormatDecimal128(v.Value(i), v.DataType().(*arrow.Decimal128Type).Scale)
		case *array.Date32:
			s += v.Value(i).FormattedString()
		default:
			s += a.ValueStr(i)
		}
	}
	return s + "]"
}

func col(i int, t arrow.DataType) *Column  { return &Column{Index: i, Type: t} }
func lit(v any, t arrow.DataType) *Literal { return &Literal{Value: v, Type: t} }
func call(fn string, t arrow.DataType, args ...Expr) *Call {
	return &Call{Fn: fn, Type: t, Args: args}
}

var (
	dec152 = Decimal(15, 2)
	dec154 = Decimal(15, 4)
)

// evalCase evaluates e over cols and checks the rendering (or the error
// text when want starts with "error").
type evalCase struct {
	name string
	e    Expr
	want string
}

func runEvalCases(t *testing.T, cols func(memory.Allocator) []arrow.Array, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cs := cols(mem)
			b := mkBatch(mem, cs...)
			for _, c := range cs {
				c.Release()
			}
			defer b.Release()
			ev, err := Compile(tc.e)
			if err != nil {
				if got := "error: " + err.Error(); len(tc.want) >= 5 && tc.want[:5] == "error" {
					if !contains(got, tc.want[7:]) {
						t.Fatalf("got %q, want %q", got, tc.want)
					}
					return
				}
				t.Fatalf("compile %s: %v", tc.e, err)
			}
			a, err := ev.Eval(mem, b)
			if err != nil {
				if len(tc.want) >= 5 && tc.want[:5] == "error" && contains(err.Error(), tc.want[7:]) {
					return
				}
				t.Fatalf("eval %s: %v", tc.e, err)
			}
			defer a.Release()
			if !arrow.TypeEqual(a.DataType(), tc.e.DataType()) {
				t.Errorf("type %s, want %s", a.DataType(), tc.e.DataType())
			}
			if got := render(a); got != tc.want {
				t.Errorf("%s = %s, want %s", tc.e, got, tc.want)
			}
			checkSliced(t, mem, ev, b, a)
			if tc.e.DataType().ID() == arrow.BOOL {
				// EvalFilter must agree with Eval.
				sel, err := ev.EvalFilter(mem, b, nil)
				if err != nil {
					t.Fatal(err)
				}
				var want []int32
				ba := a.(*array.Boolean)
				for i := 0; i < ba.Len(); i++ {
					if ba.IsValid(i) && ba.Value(i) {
						want = append(want, int32(i))
					}
				}
				if fmt.Sprint(sel) != fmt.Sprint(want) && !(len(sel) == 0 && len(want) == 0) {
					t.Errorf("filter %v, want %v", sel, want)
				}
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// checkSliced evaluates over the batch's rows 1.. as offset slices and
// expects the matching slice of the full result.
func checkSliced(t *testing.T, mem memory.Allocator, ev *Evaluator, b arrow.RecordBatch, full arrow.Array) {
	t.Helper()
	n := b.NumRows()
	if n < 2 {
		return
	}
	sb := b.NewSlice(1, n)
	defer sb.Release()
	a, err := ev.Eval(mem, sb)
	if err != nil {
		t.Fatalf("sliced eval: %v", err)
	}
	defer a.Release()
	want := array.NewSlice(full, 1, n)
	defer want.Release()
	if render(a) != render(want) {
		t.Errorf("sliced: got %s, want %s", render(a), render(want))
	}
	if a.DataType().ID() == arrow.BOOL {
		sel, err := ev.EvalFilter(mem, sb, nil)
		if err != nil {
			t.Fatal(err)
		}
		var exp []int32
		for i := 0; i < want.Len(); i++ {
			if want.IsValid(i) && want.(*array.Boolean).Value(i) {
				exp = append(exp, int32(i))
			}
		}
		if fmt.Sprint(sel) != fmt.Sprint(exp) && !(len(sel) == 0 && len(exp) == 0) {
			t.Errorf("sliced filter %v, want %v", sel, exp)
		}
	}
}
