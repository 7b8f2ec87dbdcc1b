package gpuexec

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// TestPipelineStageOrder: a pipeline grows in the order its stages run —
// scan, joins, one end stage, HAVING, an outer aggregation, then one of
// top-N, sort and partition — and a stage out of that order, or one its
// end stage does not take (a HAVING of rows, a sort of groups), is an
// errs.Unsupported error that leaves the pipeline as it was.
func TestPipelineStageOrder(t *testing.T) {
	scan, join := ScanStage{}, JoinStage{}
	agg, rows := AggStage{Final: true}, RowsStage{}
	having, outer := HavingStage{}, OuterAggStage{}
	topN, sort, part := TopNStage{N: 10}, SortStage{}, PartitionStage{}
	for _, c := range []struct {
		stages []Stage
		bad    string // the error's text; "" when the order is right
	}{
		{[]Stage{scan, agg}, ""},
		{[]Stage{scan, join, join, agg, having, outer, part}, ""},
		{[]Stage{scan, join, agg, having, topN}, ""},
		{[]Stage{scan, rows, sort}, ""},
		{[]Stage{scan, join, rows, topN}, ""},
		{[]Stage{scan, rows, part}, ""},
		{[]Stage{join}, "a join before a scan"},
		{[]Stage{scan, scan}, "a scan after a scan"},
		{[]Stage{scan, agg, join}, "a join after an aggregation"},
		{[]Stage{scan, agg, rows}, "a row output after an aggregation"},
		{[]Stage{scan, agg, topN, having}, "a HAVING after a top-N"},
		{[]Stage{scan, agg, outer, having}, "a HAVING after an outer aggregation"},
		{[]Stage{scan, agg, topN, outer}, "an outer aggregation after a top-N"},
		{[]Stage{scan, agg, outer, topN}, "a top-N after an outer aggregation"},
		{[]Stage{scan, agg, topN, topN}, "a top-N after a top-N"},
		{[]Stage{scan, rows, topN, sort}, "a sort after a top-N"},
		{[]Stage{scan, rows, sort, part}, "a partition after a sort"},
		{[]Stage{scan, rows, having}, "a HAVING without an aggregation"},
		{[]Stage{scan, rows, outer}, "an outer aggregation without an aggregation"},
		{[]Stage{scan, agg, sort}, "a sort without a row output"},
		{[]Stage{scan, join, topN}, "a top-N without an aggregation or a row output"},
		{[]Stage{scan, join, part}, "a partition without an aggregation or a row output"},
	} {
		var p Pipeline
		var err error
		for i, s := range c.stages {
			before := p.String()
			var next Pipeline
			if next, err = p.With(s); err != nil {
				if i != len(c.stages)-1 {
					t.Fatalf("%s: stage %d: %v", Pipeline{Stages: c.stages}, i, err)
				}
				if p.String() != before {
					t.Errorf("%s: the failed With changed its pipeline", Pipeline{Stages: c.stages})
				}
				break
			}
			if len(next.Stages) != len(p.Stages)+1 || next.Stages[len(p.Stages)].Name() != s.Name() {
				t.Errorf("%s: With(%s) gave %s", p, s.Name(), next)
			}
			p = next
		}
		name := Pipeline{Stages: c.stages}.String()
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case c.bad != "" && err == nil:
			t.Errorf("%s: no error, want %q", name, c.bad)
		case c.bad != "" && (!strings.Contains(err.Error(), c.bad) || !errors.Is(err, errs.Unsupported)):
			t.Errorf("%s: error %v, want an unsupported %q", name, err, c.bad)
		}
	}
}

// TestWithStageCopies: the functions that add a stage to a device
// operator (With*) return a new operator and leave theirs as it was, and
// refuse a stage out of order: placement grows pipelines from the plan,
// never the plan another holder has. No GPU needed (kernels are
// generated, not run).
func TestWithStageCopies(t *testing.T) {
	i64 := expr.Int64
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64, Nullable: true}, {Name: "v", Type: i64, Nullable: true}}, nil)
	scan := &exec.Scan{Table: catalog.NewMemTable("t", schema, nil), Columns: []int{0, 1}, Out: schema}
	out := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64, Nullable: true}, {Name: "s", Type: i64, Nullable: true}}, nil)
	ga, err := newAggregate(&GPUScan{CPU: scan}, nil, nil, AggStage{Keys: []expr.Expr{col(0, i64)}, Aggs: []exec.AggFunc{{Fn: "sum", Arg: col(1, i64), Type: i64}}, Final: true}, out, scan)
	if err != nil {
		t.Fatal(err)
	}
	if got := ga.Pipeline().String(); got != "scan → aggregation" {
		t.Errorf("pipeline %s", got)
	}
	pred := &expr.Call{Fn: "gt", Args: []expr.Expr{col(1, i64), &expr.Literal{Value: int64(5), Type: i64}}, Type: expr.Boolean}
	h, err := ga.WithHaving(pred)
	if err != nil {
		t.Fatal(err)
	}
	top, err := h.WithTopN(arrowgpu.OrderKey{Col: 1, Desc: true}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ga.Pipeline().Having().Pred != nil || ga.Pipeline().TopN().N != 0 || ga.CPU != exec.Node(scan) || h.Pipeline().TopN().N != 0 {
		t.Errorf("With changed its operator: pipelines %s, %s", ga.Pipeline(), h.Pipeline())
	}
	if got := top.Pipeline().String(); got != "scan → aggregation → HAVING → top-N" {
		t.Errorf("pipeline %s", got)
	}
	if _, err := top.WithHaving(pred); err == nil {
		t.Error("a HAVING after a top-N was taken")
	}
	if _, err := top.WithOuter([]int{0}, []exec.AggFunc{{Fn: "count_star", Type: i64}}, out, scan); err == nil {
		t.Error("an outer aggregation after a top-N was taken")
	}
	if _, err := top.WithPartition(&DevicePartition{Keys: []int{0}, Parts: 2}); err == nil {
		t.Error("a partition of a top-N was taken")
	}

	rows, err := newJoinRows(&GPUScan{CPU: scan}, nil, nil, []expr.Expr{col(0, i64), col(1, i64)}, schema, scan)
	if err != nil {
		t.Fatal(err)
	}
	sorted, err := rows.WithSort([]arrowgpu.OrderKey{{Col: 0}}, []exec.SortKey{{Expr: col(0, i64)}})
	if err != nil {
		t.Fatal(err)
	}
	if rows.Pipeline().Sort() != nil || rows.CPU != exec.Node(scan) {
		t.Error("WithSort changed its operator")
	}
	if got := sorted.Pipeline().String(); got != "scan → row output → sort" {
		t.Errorf("pipeline %s", got)
	}
	if _, err := sorted.WithPartition(&DevicePartition{Keys: []int{0}, Parts: 2}); err == nil {
		t.Error("a partition of sorted rows was taken")
	}
	if _, err := sorted.WithTopN(arrowgpu.OrderKey{Col: 1}, 3); err == nil {
		t.Error("a top-N of sorted rows was taken")
	}
}

// TestConstructorsTakePipeline: the device operators are built from a
// pipeline — one that is empty, out of order or ends in the other
// operator's end stage is an errs.Unsupported error, not a panic — and
// neither the copies that give a new one its build sides (withPlans,
// WithChildren) nor a change to the stages Pipeline returns touch the
// operator they come from.
func TestConstructorsTakePipeline(t *testing.T) {
	i64 := expr.Int64
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64, Nullable: true}, {Name: "v", Type: i64, Nullable: true}}, nil)
	scan := &exec.Scan{Table: catalog.NewMemTable("t", schema, nil), Columns: []int{0, 1}, Out: schema}
	gs := &GPUScan{CPU: scan}
	count := arrow.NewSchema([]arrow.Field{{Name: "n", Type: i64, Nullable: true}}, nil)
	agg := AggStage{Aggs: []exec.AggFunc{{Fn: "count_star", Type: i64}}, Final: true}
	rows := RowsStage{Exprs: []expr.Expr{col(0, i64)}}
	for _, c := range []struct {
		name   string
		p      Pipeline
		isRows bool
		bad    string
	}{
		{"empty", Pipeline{}, false, "no stages"},
		{"empty rows", Pipeline{}, true, "no stages"},
		{"no scan", Pipeline{Stages: []Stage{agg}}, false, "an aggregation before a scan"},
		{"out of order", Pipeline{Stages: []Stage{ScanStage{Scan: gs}, agg, JoinStage{}}}, false, "a join after an aggregation"},
		{"scan of nothing", Pipeline{Stages: []Stage{ScanStage{}, agg}}, false, "a scan of no table"},
		{"rows to an aggregation", Pipeline{Stages: []Stage{ScanStage{Scan: gs}, rows}}, false, "ending in a row output"},
		{"groups to rows", Pipeline{Stages: []Stage{ScanStage{Scan: gs}, agg}}, true, "ending in an aggregation"},
	} {
		var err error
		if c.isRows {
			_, err = NewGPUJoinRows(c.p, schema, scan)
		} else {
			_, err = NewGPUAggregate(c.p, count, scan)
		}
		if err == nil || !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), c.bad) {
			t.Errorf("%s: error %v, want an unsupported %q", c.name, err, c.bad)
		}
	}

	b1, b2 := &exec.Scan{Table: catalog.NewMemTable("b1", schema, nil), Columns: []int{0, 1}, Out: schema}, &exec.Scan{Table: catalog.NewMemTable("b2", schema, nil), Columns: []int{0, 1}, Out: schema}
	joins := []GPUJoin{{Type: expr.JoinInner, BuildKeys: []int{0}, ProbeKeys: []int{0}, Cols: []int{1}}}
	p, err := NewPipeline(gs, joins, []exec.Node{b1}, agg)
	if err != nil {
		t.Fatal(err)
	}
	ga, err := NewGPUAggregate(p, count, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ga.Pipeline().String(); got != "scan → join → aggregation" {
		t.Errorf("pipeline %s", got)
	}
	view := ga.Pipeline()
	view.Stages[0] = ScanStage{}
	if ga.Pipeline().Scan() != gs {
		t.Error("a change to the stages Pipeline returned changed the operator's")
	}
	cp := ga.WithChildren([]exec.Node{b2}).(*GPUAggregate)
	fin := ga.withPlans([]exec.Node{b2}, scan)
	if ga.Pipeline().Build(0) != exec.Node(b1) || ga.CPU != nil {
		t.Error("a copy changed its operator's build side or CPU twin")
	}
	if cp.Pipeline().Build(0) != exec.Node(b2) || fin.Pipeline().Build(0) != exec.Node(b2) || fin.CPU != exec.Node(scan) {
		t.Error("a copy lacks its new build side or CPU twin")
	}
	jr, err := newJoinRows(gs, joins, nil, rows.Exprs, count, nil)
	if err != nil {
		t.Fatal(err)
	}
	jfin := jr.withPlans([]exec.Node{b1}, scan)
	if jr.Pipeline().Build(0) != nil || jr.CPU != nil || jfin.Pipeline().Build(0) != exec.Node(b1) || jfin.CPU != exec.Node(scan) {
		t.Error("GPUJoinRows.withPlans: wrong build side or CPU twin")
	}
}
