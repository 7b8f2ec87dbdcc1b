package gpuexec

import (
	"iter"
	"slices"
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

// ScanStage reads a table (or an exchange's rows) and filters it: the
// table, its columns and the device filter (no host filter).
type ScanStage struct{ Scan *GPUScan }

// JoinStage probes the device table of Build, one build side (a plan
// run on the CPU, or by its own GPU operators).
type JoinStage struct {
	Join  *GPUJoin
	Build exec.Node
}

// AggStage groups the pipeline's rows by Keys and computes Aggs, partial
// aggregates (sum, count, count_star, min, max), both over the pipeline's
// columns. Final says the output is the final aggregation, with no CPU
// merge above (GPUAggregate).
type AggStage struct {
	Keys  []expr.Expr
	Aggs  []exec.AggFunc
	Final bool
}

// RowsStage emits expressions over the pipeline's columns per row.
type RowsStage struct{ Exprs []expr.Expr }

// OuterAggStage aggregates the groups of the AggStage before it, on the
// device from its table in place (GPUAggregate.WithOuter): the operator's
// output is then Outer's, and only its groups come back.
type OuterAggStage struct{ Outer *GPUOuterAggregate }

// HavingStage filters the groups before they come back, a predicate over
// the aggregation's output evaluated per group (GPUAggregate.WithHaving).
// Feed, when set, gives the values of a scalar subquery's columns the
// predicate reads past the output's: the join above attaches that row,
// and the Filter above the join applies the predicate too.
type HavingStage struct {
	Pred expr.Expr
	Feed *exec.ScalarFeed
}

// TopNStage brings back only what a top-N above (a Sort with a limit,
// which still orders the rows) by output column Top.Col can keep.
type TopNStage struct {
	Top arrowgpu.OrderKey
	N   int
}

// SortStage orders the rows on the device by output columns: every
// chunk's rows stay there until the last is in, and come back in order
// (ties in chunk order, as the stable CPU sort over a scan in order). The
// Sort above is gone; the CPU twin sorts for a fallback.
type SortStage struct{ Keys []arrowgpu.OrderKey }

// PartitionStage brings back what the end stage made grouped by the
// partition of a hash exchange right above (under ranks): each batch
// holds one partition's rows, which the exchange sends whole.
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

// check returns an errs.Unsupported error when p's stages are not in an
// order With grows: the pipeline an operator runs is one of those.
func (p Pipeline) check() error {
	if len(p.Stages) == 0 {
		return errs.New(errs.Unsupported, "GPU pipeline: no stages")
	}
	var q Pipeline
	for _, s := range p.Stages {
		var err error
		if q, err = q.With(s); err != nil {
			return err
		}
	}
	if s := p.Scan(); s == nil || s.CPU == nil {
		return errs.New(errs.Unsupported, "GPU pipeline: a scan of no table")
	}
	return nil
}

// last is p's last stage (p has one: check).
func (p Pipeline) last() Stage { return p.Stages[len(p.Stages)-1] }

// The accessors below read a pipeline's stages as the run code and
// EXPLAIN want them: the zero value of what a stage holds when the
// pipeline has no such stage.

// stageOf is p's stage of type S, and whether it has one.
func stageOf[S Stage](p Pipeline) (S, bool) {
	for _, s := range p.Stages {
		if x, ok := s.(S); ok {
			return x, true
		}
	}
	var zero S
	return zero, false
}

// Scan is the pipeline's scan (its first stage).
func (p Pipeline) Scan() *GPUScan {
	s, _ := stageOf[ScanStage](p)
	return s.Scan
}

// NumJoins is the number of the pipeline's joins.
func (p Pipeline) NumJoins() int {
	n := 0
	for _, s := range p.Stages {
		if _, ok := s.(JoinStage); ok {
			n++
		}
	}
	return n
}

// Join is the pipeline's k-th join (the joins follow the scan).
func (p Pipeline) Join(k int) *GPUJoin { return p.Stages[1+k].(JoinStage).Join }

// Build is the build side of the pipeline's k-th join.
func (p Pipeline) Build(k int) exec.Node { return p.Stages[1+k].(JoinStage).Build }

// Joins yields the pipeline's joins with their positions.
func (p Pipeline) Joins() iter.Seq2[int, *GPUJoin] {
	return func(yield func(int, *GPUJoin) bool) {
		for k := range p.NumJoins() {
			if !yield(k, p.Join(k)) {
				return
			}
		}
	}
}

// Builds are the build sides of the pipeline's joins, in their order.
func (p Pipeline) Builds() []exec.Node {
	builds := make([]exec.Node, p.NumJoins())
	for k := range builds {
		builds[k] = p.Build(k)
	}
	return builds
}

// Keys are what the end stage reads per row: an aggregation's group
// keys, a row output's expressions.
func (p Pipeline) Keys() []expr.Expr {
	if r, ok := stageOf[RowsStage](p); ok {
		return r.Exprs
	}
	a, _ := stageOf[AggStage](p)
	return a.Keys
}

// Aggs are the aggregation's aggregates (none for a row output).
func (p Pipeline) Aggs() []exec.AggFunc {
	a, _ := stageOf[AggStage](p)
	return a.Aggs
}

// Final says the end stage's output is final: a final aggregation (no
// CPU merge above), or rows.
func (p Pipeline) Final() bool {
	if _, ok := stageOf[RowsStage](p); ok {
		return true
	}
	a, _ := stageOf[AggStage](p)
	return a.Final
}

// Having is the pipeline's HAVING (Pred nil without one).
func (p Pipeline) Having() HavingStage {
	h, _ := stageOf[HavingStage](p)
	return h
}

// Outer is the pipeline's outer aggregation, nil without one.
func (p Pipeline) Outer() *GPUOuterAggregate {
	o, _ := stageOf[OuterAggStage](p)
	return o.Outer
}

// TopN is the pipeline's top-N (N 0 without one).
func (p Pipeline) TopN() TopNStage {
	t, _ := stageOf[TopNStage](p)
	return t
}

// Sort is the keys of the pipeline's sort, nil without one.
func (p Pipeline) Sort() []arrowgpu.OrderKey {
	s, _ := stageOf[SortStage](p)
	return s.Keys
}

// Partition is the pipeline's partition, nil without one.
func (p Pipeline) Partition() *DevicePartition {
	s, _ := stageOf[PartitionStage](p)
	return s.Partition
}

// withBuilds is p with builds as its joins' build sides.
func (p Pipeline) withBuilds(builds []exec.Node) Pipeline {
	st := slices.Clone(p.Stages)
	for k, b := range builds {
		j := st[1+k].(JoinStage)
		j.Build = b
		st[1+k] = j
	}
	return Pipeline{Stages: st}
}

// withScan is p with s as its scan.
func (p Pipeline) withScan(s *GPUScan) Pipeline {
	st := slices.Clone(p.Stages)
	st[0] = ScanStage{Scan: s}
	return Pipeline{Stages: st}
}

// NewPipeline is the pipeline of scan, then the joins (their build
// sides: builds, nil for none placed yet), then end; an errs.Unsupported
// error when end is not an end stage.
func NewPipeline(scan *GPUScan, joins []GPUJoin, builds []exec.Node, end Stage) (Pipeline, error) {
	joins = slices.Clone(joins) // the stages point into it
	p, err := Pipeline{}.With(ScanStage{Scan: scan})
	for k := range joins {
		if err != nil {
			break
		}
		var b exec.Node
		if k < len(builds) {
			b = builds[k]
		}
		p, err = p.With(JoinStage{Join: &joins[k], Build: b})
	}
	if err == nil {
		p, err = p.With(end)
	}
	return p, err
}
