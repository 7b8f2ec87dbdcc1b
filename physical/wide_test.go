package physical

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	"gq/gpuexec"
	"gq/planner"
)

// DECIMAL(38) columns are device columns: a sort over one or by one
// runs on the device, as do sums into DECIMAL(38) (which the device adds
// in 128 bits); a grouping by a DECIMAL(38), which the device's tables do
// not hold, stays on the CPU, named with the reason in the fallback
// message.
func TestPlaceWide(t *testing.T) {
	d128 := &arrow.Decimal128Type{Precision: 38, Scale: 2}
	d64 := expr.Decimal(12, 2)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "n", Type: d64}, {Name: "w", Type: d128}}, nil)
	table := catalog.NewMemTable("t", schema, nil)
	scan := func(cols ...int) *exec.Scan {
		var fields []arrow.Field
		for _, c := range cols {
			fields = append(fields, schema.Field(c))
		}
		return &exec.Scan{Table: table, Columns: cols, Out: arrow.NewSchema(fields, nil)}
	}
	agg := func(in *exec.Scan, argCol int, argT, sumT arrow.DataType) *exec.HashAggregate {
		return &exec.HashAggregate{Input: in, GroupBy: []expr.Expr{&expr.Column{Index: 0, Type: expr.Int64}},
			Aggs: []exec.AggFunc{{Fn: "sum", Arg: &expr.Column{Index: argCol, Type: argT}, Type: sumT}},
			Out:  arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "s", Type: sumT, Nullable: true}}, nil)}
	}
	for _, c := range []struct {
		name     string
		root     exec.Node
		gpu      bool   // the root is a device operator
		fallback string // in the fallback message ("": none about DECIMAL(38))
	}{
		{"sum of decimal64 into decimal128", agg(scan(0, 1), 1, d64, d128), true, ""},
		{"avg of decimal64 as decimal128", func() exec.Node {
			a := agg(scan(0, 1), 1, d64, &arrow.Decimal128Type{Precision: 38, Scale: 6})
			a.Aggs[0].Fn = "avg"
			return a
		}(), false, ""}, // AvgCombine (CPU) over the device's sum and count
		{"sum of decimal128", agg(scan(0, 2), 1, d128, d128), true, ""},
		{"grouped by a decimal128", func() exec.Node {
			a := agg(scan(2, 1), 1, d64, d128)
			a.GroupBy[0] = &expr.Column{Index: 0, Type: d128}
			a.Out = arrow.NewSchema([]arrow.Field{{Name: "w", Type: d128}, {Name: "s", Type: d128, Nullable: true}}, nil)
			return a
		}(), false, "HashAggregate (GPU expressions: group key of type decimal(38, 2))"},
		{"sort over a decimal128 column", &exec.Sort{Input: scan(0, 2), Keys: []exec.SortKey{{Expr: &expr.Column{Index: 0, Type: expr.Int64}}}, Limit: -1},
			true, ""},
		{"sort by a decimal128 column", &exec.Sort{Input: scan(0, 2), Keys: []exec.SortKey{{Expr: &expr.Column{Index: 1, Type: d128}, Desc: true}}, Limit: -1},
			true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var msgs []string
			placed, err := PlaceOnGPU(c.root, nil, GPUOptions{FallbackMode: "warn", Warn: func(m string) { msgs = append(msgs, m) }})
			if err != nil {
				t.Fatal(err)
			}
			if got := gpuexec.OnGPU(placed) && gpuexec.DeviceMark(placed) == " [GPU]"; got != c.gpu {
				t.Errorf("root on the device: %v, want %v (%s)", got, c.gpu, placed.Explain())
			}
			if c.fallback == "" && !gpuexec.OnGPU(placed) {
				t.Errorf("nothing on the device: %s", placed.Explain())
			}
			msg := strings.Join(msgs, "\n")
			if c.fallback != "" && !strings.Contains(msg, c.fallback) {
				t.Errorf("fallback message %q lacks %q", msg, c.fallback)
			}
			if c.fallback == "" && strings.Contains(msg, "DECIMAL(38)") {
				t.Errorf("fallback message %q names DECIMAL(38)", msg)
			}
		})
	}
}

// Join keys of DECIMAL(38) beside narrower decimals or integers compare
// as DECIMAL(38) at the larger scale, through key_cast.
func TestKeyTypeWide(t *testing.T) {
	d128 := func(s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: 38, Scale: s} }
	for _, c := range []struct {
		a, b, want arrow.DataType
	}{
		{expr.Decimal(12, 2), d128(4), d128(4)},
		{d128(6), expr.Decimal(18, 3), d128(6)},
		{expr.Int64, d128(0), d128(0)},
		{d128(2), expr.Int64, d128(2)},
		{d128(2), expr.String, nil},
		{expr.Float64, d128(2), nil},
	} {
		got := keyType(c.a, c.b)
		if (got == nil) != (c.want == nil) || got != nil && !arrow.TypeEqual(got, c.want) {
			t.Errorf("keyType(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got != nil {
			e := keyCastTo(&expr.Column{Index: 0, Type: c.a}, got)
			if call, ok := e.(*expr.Call); !arrow.TypeEqual(c.a, got) && (!ok || call.Fn != "key_cast") {
				t.Errorf("keyCastTo(%s → %s) = %s, want key_cast", c.a, got, e)
			}
		}
	}
}

// A window frame offset given as a DECIMAL(38) constant lowers as the
// 64-bit one where it fits, and is a clear error where it does not.
func TestLowerFrameWideOffset(t *testing.T) {
	d := &arrow.Decimal128Type{Precision: 38, Scale: 2}
	f := planner.Frame{Start: planner.FrameBound{Kind: expr.OffsetPreceding, Offset: &planner.Const{Value: decimal128.FromI64(-250), T: d}},
		End: planner.FrameBound{Kind: expr.CurrentRow}}
	got, err := lowerFrame(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Start.Int != -250 || got.Start.Scale != 2 || got.Start.Float != -2.5 || !got.Start.Exact {
		t.Errorf("offset lowered as %+v", got.Start)
	}
	f.Start.Offset.Value = decimal128.New(1, 0) // 2^64
	if _, err := lowerFrame(f); errs.KindOf(err) != errs.Unsupported {
		t.Errorf("a 20-digit offset: %v, want an unsupported error", err)
	}
}
