package gpuexec

import (
	"strings"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// A fused device pipeline (a GPUAggregate, a GPUJoinRows) is a list of
// stages in the order they run: a scan, a join per build side, one end
// stage (the aggregation, or the rows it emits), then optional stages over
// what the end stage made — a HAVING over the groups, an aggregation of
// the groups, and one of a top-N, an order or a partition of what comes
// back. Placement grows a pipeline one stage at a time (Pipeline.With),
// each time a new operator: a stage out of order is an error, never a
// pipeline that runs them in another order than the plan says.

// Stage is one step of a pipeline.
type Stage interface {
	// Name is the stage's name in an error ("join", "top-N").
	Name() string
}

// ScanStage reads a table (or an exchange's rows) and filters it.
type ScanStage struct{ Scan *GPUScan }

// JoinStage probes the device table of one build side.
type JoinStage struct{ Join *GPUJoin }

// AggStage groups the pipeline's rows and aggregates them.
type AggStage struct {
	Keys  []expr.Expr
	Aggs  []exec.AggFunc
	Final bool // the output is the final aggregation (GPUAggregate.Final)
}

// RowsStage emits expressions over the pipeline's columns per row.
type RowsStage struct{ Exprs []expr.Expr }

// OuterAggStage aggregates the groups of the AggStage before it, on the
// device (GPUAggregate.Outer).
type OuterAggStage struct{ Outer *GPUOuterAggregate }

// HavingStage filters the groups before they come back; Feed, when set,
// gives the values of a scalar subquery's columns the predicate reads.
type HavingStage struct {
	Pred expr.Expr
	Feed *exec.ScalarFeed
}

// TopNStage brings back only what a top-N by Top.Col can keep.
type TopNStage struct {
	Top arrowgpu.OrderKey
	N   int
}

// SortStage orders the rows on the device.
type SortStage struct{ Keys []arrowgpu.OrderKey }

// PartitionStage brings back what the end stage made grouped by a hash
// exchange's partition.
type PartitionStage struct{ Partition *DevicePartition }

func (ScanStage) Name() string      { return "scan" }
func (JoinStage) Name() string      { return "join" }
func (AggStage) Name() string       { return "aggregation" }
func (RowsStage) Name() string      { return "row output" }
func (OuterAggStage) Name() string  { return "outer aggregation" }
func (HavingStage) Name() string    { return "HAVING" }
func (TopNStage) Name() string      { return "top-N" }
func (SortStage) Name() string      { return "sort" }
func (PartitionStage) Name() string { return "partition" }

// Pipeline is a pipeline's stages, in the order they run.
type Pipeline struct {
	Stages []Stage
}

// step is where a stage may stand: stages come in increasing steps, a
// join's the one step that repeats.
func step(s Stage) int {
	switch s.(type) {
	case ScanStage:
		return 0
	case JoinStage:
		return 1
	case AggStage, RowsStage:
		return 2
	case HavingStage:
		return 3
	case OuterAggStage:
		return 4
	default: // TopNStage, SortStage, PartitionStage: one of them, last
		return 5
	}
}

// With returns the pipeline followed by s (p is unchanged), or an
// errs.Unsupported error when s cannot follow p's stages: the scan comes
// first, then the joins, one end stage, a HAVING (of an aggregation), an
// outer aggregation (of an aggregation, without a top-N after it), and at
// most one of a top-N, a sort (of rows) and a partition.
func (p Pipeline) With(s Stage) (Pipeline, error) {
	bad := func(why string) (Pipeline, error) {
		return Pipeline{}, errs.New(errs.Unsupported, "GPU pipeline: %s %s (stages: %s)", aName(s), why, p)
	}
	if len(p.Stages) == 0 {
		if _, ok := s.(ScanStage); !ok {
			return bad("before a scan")
		}
		return Pipeline{Stages: []Stage{s}}, nil
	}
	last := p.Stages[len(p.Stages)-1]
	switch {
	case step(s) < step(last):
		return bad("after " + aName(last))
	case step(s) == step(last) && step(s) != 1:
		return bad("after " + aName(last))
	}
	end := p.end()
	switch s.(type) {
	case ScanStage:
		return bad("after the first")
	case HavingStage, OuterAggStage:
		if _, ok := end.(AggStage); !ok {
			return bad("without an aggregation")
		}
	case SortStage:
		if _, ok := end.(RowsStage); !ok {
			return bad("without a row output")
		}
	case TopNStage:
		if end == nil {
			return bad("without an aggregation or a row output")
		}
		if _, ok := last.(OuterAggStage); ok {
			return bad("after an outer aggregation")
		}
	case PartitionStage:
		if end == nil {
			return bad("without an aggregation or a row output")
		}
	}
	return Pipeline{Stages: append(p.Stages[:len(p.Stages):len(p.Stages)], s)}, nil
}

// aName is s's name after "a" or "an".
func aName(s Stage) string {
	if strings.ContainsRune("aeiou", rune(s.Name()[0])) {
		return "an " + s.Name()
	}
	return "a " + s.Name()
}

// end is the pipeline's end stage (an AggStage or a RowsStage), nil when
// it has none yet.
func (p Pipeline) end() Stage {
	for _, s := range p.Stages {
		switch s.(type) {
		case AggStage, RowsStage:
			return s
		}
	}
	return nil
}

func (p Pipeline) String() string {
	names := make([]string, len(p.Stages))
	for i, s := range p.Stages {
		names[i] = s.Name()
	}
	return strings.Join(names, " → ")
}

// Pipeline is a's stages.
func (a *GPUAggregate) Pipeline() Pipeline {
	st := a.front()
	st = append(st, AggStage{Keys: a.Keys, Aggs: a.Aggs, Final: a.Final})
	if a.Having != nil {
		st = append(st, HavingStage{Pred: a.Having, Feed: a.Feed})
	}
	if a.Outer != nil {
		st = append(st, OuterAggStage{Outer: a.Outer})
	}
	if a.TopN > 0 {
		st = append(st, TopNStage{Top: a.Top, N: a.TopN})
	}
	if a.Partition != nil {
		st = append(st, PartitionStage{Partition: a.Partition})
	}
	return Pipeline{Stages: st}
}

// front is the scan and join stages of a's pipeline.
func (a *GPUAggregate) front() []Stage {
	st := []Stage{ScanStage{Scan: a.Scan}}
	for i := range a.Joins {
		st = append(st, JoinStage{Join: &a.Joins[i]})
	}
	return st
}

// Pipeline is r's stages.
func (r *GPUJoinRows) Pipeline() Pipeline {
	st := append(r.Pipe.front(), RowsStage{Exprs: r.Exprs})
	if r.TopN > 0 {
		st = append(st, TopNStage{Top: r.Top, N: r.TopN})
	}
	if len(r.Sort) > 0 {
		st = append(st, SortStage{Keys: r.Sort})
	}
	if r.Partition != nil {
		st = append(st, PartitionStage{Partition: r.Partition})
	}
	return Pipeline{Stages: st}
}
