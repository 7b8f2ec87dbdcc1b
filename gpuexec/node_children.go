package gpuexec

import (
	"fmt"

	"gq/exec"
)

// WithChildren and the links (exec.Linked) of the device operators, in one
// place. Each returns a copy with new inputs and leaves its node as it
// was; what a run counts is the run's (exec.RunState), so a copy is the
// node's fields.

func arity(n exec.Node, children []exec.Node, want int) {
	if len(children) != want {
		panic(fmt.Sprintf("gpuexec: %s.WithChildren: %d children, want %d", n.Explain(), len(children), want))
	}
}

func (s *GPUScan) clone() *GPUScan {
	cp := *s
	return &cp
}

// WithChildren replaces the scan's Source (its one child, when set).
func (s *GPUScan) WithChildren(c []exec.Node) exec.Node {
	if s.Source == nil {
		arity(s, c, 0)
		return s
	}
	arity(s, c, 1)
	cp := s.clone()
	cp.Source = c[0]
	return cp
}

func (a *GPUAggregate) clone() *GPUAggregate {
	cp := *a
	return &cp
}

// withInputs is a copy of a with the pipeline's inputs c (pipeInputs'
// order: the build sides, then the scan's source when it has one).
func (a *GPUAggregate) withInputs(c []exec.Node) *GPUAggregate {
	cp := a.clone()
	nb := a.stages.NumJoins()
	cp.stages = a.stages.withBuilds(c[:nb])
	if s := a.stages.Scan(); s.Source != nil {
		sc := s.clone()
		sc.Source = c[nb]
		cp.stages = cp.stages.withScan(sc)
	}
	return cp
}

// withPlans is a copy of a with builds as its joins' build sides and cpu
// as its CPU twin: placement places the build sides once the device takes
// the pipeline.
func (a *GPUAggregate) withPlans(builds []exec.Node, cpu exec.Node) *GPUAggregate {
	cp := a.clone()
	cp.stages, cp.CPU = a.stages.withBuilds(builds), cpu
	return cp
}

func (a *GPUAggregate) WithChildren(c []exec.Node) exec.Node {
	arity(a, c, len(a.pipeInputs()))
	return a.withInputs(c)
}

// Links of a device aggregation is its CPU twin.
func (a *GPUAggregate) Links() []exec.Node {
	if a.CPU == nil {
		return nil
	}
	return []exec.Node{a.CPU}
}

func (a *GPUAggregate) WithLinks(l []exec.Node) exec.Node {
	arity(a, l, len(a.Links()))
	cp := a.clone()
	if len(l) > 0 {
		cp.CPU = l[0]
	}
	return cp
}

func (r *GPUJoinRows) clone() *GPUJoinRows {
	cp := *r
	return &cp
}

// withPlans is a copy of r with builds as its joins' build sides and cpu
// as its CPU twin (as GPUAggregate.withPlans).
func (r *GPUJoinRows) withPlans(builds []exec.Node, cpu exec.Node) *GPUJoinRows {
	cp := r.with(r.pipe.stages.withBuilds(builds))
	cp.CPU = cpu
	return cp
}

func (r *GPUJoinRows) WithChildren(c []exec.Node) exec.Node {
	arity(r, c, len(r.pipe.pipeInputs()))
	cp := r.clone()
	cp.pipe = r.pipe.withInputs(c)
	return cp
}

// Links of device join rows are its CPU twin and its pipeline's.
func (r *GPUJoinRows) Links() []exec.Node {
	var l []exec.Node
	if r.CPU != nil {
		l = append(l, r.CPU)
	}
	return append(l, r.pipe.Links()...)
}

func (r *GPUJoinRows) WithLinks(l []exec.Node) exec.Node {
	arity(r, l, len(r.Links()))
	cp := r.clone()
	if r.CPU != nil {
		cp.CPU, l = l[0], l[1:]
	}
	if len(l) > 0 {
		cp.pipe = r.pipe.WithLinks(l).(*GPUAggregate)
	}
	return cp
}

// WithChildren replaces the input of the sort (and of its CPU twin, the
// Sort it runs the rows through).
func (s *GPUSort) WithChildren(c []exec.Node) exec.Node {
	arity(s, c, 1)
	cp := *s
	cp.CPU = s.CPU.WithChildren(c).(*exec.Sort)
	return &cp
}

func (l *batchList) WithChildren(c []exec.Node) exec.Node {
	arity(l, c, 0)
	return l
}
