package gpuexec

import (
	"fmt"

	"gq/exec"
)

// WithChildren and the links (exec.Linked) of the device operators, in one
// place. Each returns a copy with new inputs and leaves its node as it
// was. GPUScan's, GPUAggregate's and GPUJoinRows' copies are made field
// by field, not by assignment, because those operators still count their
// figures on the node (atomics): a copy starts them at zero.
// TestWithChildrenKeepsPlanFields fails when a field added to one of them
// is not carried over here.

func arity(n exec.Node, children []exec.Node, want int) {
	if len(children) != want {
		panic(fmt.Sprintf("gpuexec: %s.WithChildren: %d children, want %d", n.Explain(), len(children), want))
	}
}

// clone is a copy of s's plan: its figures start at zero.
func (s *GPUScan) clone() *GPUScan {
	cp := &GPUScan{CPU: s.CPU, GPU: s.GPU, DeviceFilter: s.DeviceFilter, HostFilter: s.HostFilter,
		Warn: s.Warn, Raise: s.Raise, Partition: s.Partition, Source: s.Source}
	cp.noJoinFilters.Store(s.noJoinFilters.Load())
	return cp
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

// clone is a copy of a's plan: its figures start at zero.
func (a *GPUAggregate) clone() *GPUAggregate {
	return &GPUAggregate{Scan: a.Scan, Keys: a.Keys, Aggs: a.Aggs, Out: a.Out, CPU: a.CPU, Final: a.Final,
		Joins: a.Joins, Builds: a.Builds, Having: a.Having, Feed: a.Feed, TopN: a.TopN, Top: a.Top,
		Outer: a.Outer.clone(), Partition: a.Partition, kernel: a.kernel, dictOf: a.dictOf,
		joinStats: make([]gpuJoinStats, len(a.joinStats))}
}

func (o *GPUOuterAggregate) clone() *GPUOuterAggregate {
	if o == nil {
		return nil
	}
	return &GPUOuterAggregate{Keys: o.Keys, Aggs: o.Aggs, Out: o.Out, Inner: o.Inner, cols: o.cols, kernel: o.kernel}
}

// withInputs is a copy of a with the pipeline's inputs c (pipeInputs'
// order: the build sides, then the scan's source when it has one).
func (a *GPUAggregate) withInputs(c []exec.Node) *GPUAggregate {
	cp := a.clone()
	nb := len(a.Builds)
	cp.Builds = append([]exec.Node(nil), c[:nb]...)
	if a.Scan.Source != nil {
		sc := a.Scan.clone()
		sc.Source = c[nb]
		cp.Scan = sc
	}
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

// clone is a copy of r's plan: its figures start at zero.
func (r *GPUJoinRows) clone() *GPUJoinRows {
	return &GPUJoinRows{Pipe: r.Pipe, Exprs: r.Exprs, Out: r.Out, CPU: r.CPU, TopN: r.TopN, Top: r.Top,
		Sort: r.Sort, Partition: r.Partition, fused: r.fused, cpuSort: r.cpuSort}
}

func (r *GPUJoinRows) WithChildren(c []exec.Node) exec.Node {
	arity(r, c, len(r.Pipe.pipeInputs()))
	cp := r.clone()
	cp.Pipe = r.Pipe.withInputs(c)
	return cp
}

// Links of device join rows are its CPU twin and its pipeline's.
func (r *GPUJoinRows) Links() []exec.Node {
	var l []exec.Node
	if r.CPU != nil {
		l = append(l, r.CPU)
	}
	return append(l, r.Pipe.Links()...)
}

func (r *GPUJoinRows) WithLinks(l []exec.Node) exec.Node {
	arity(r, l, len(r.Links()))
	cp := r.clone()
	if r.CPU != nil {
		cp.CPU, l = l[0], l[1:]
	}
	if len(l) > 0 {
		cp.Pipe = r.Pipe.WithLinks(l).(*GPUAggregate)
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
