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
	ga, err := NewGPUAggregate(&GPUScan{CPU: scan}, []expr.Expr{col(0, i64)}, []exec.AggFunc{{Fn: "sum", Arg: col(1, i64), Type: i64}}, out, scan, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ga.Final = true
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
	if ga.Having != nil || ga.TopN != 0 || ga.CPU != exec.Node(scan) || h.TopN != 0 {
		t.Errorf("With changed its operator: having %v, top-N %d, %d", ga.Having, ga.TopN, h.TopN)
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

	rows, err := NewGPUJoinRows(&GPUScan{CPU: scan}, nil, nil, []expr.Expr{col(0, i64), col(1, i64)}, schema, scan)
	if err != nil {
		t.Fatal(err)
	}
	sorted, err := rows.WithSort([]arrowgpu.OrderKey{{Col: 0}}, []exec.SortKey{{Expr: col(0, i64)}})
	if err != nil {
		t.Fatal(err)
	}
	if rows.Sort != nil || rows.CPU != exec.Node(scan) {
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
