package physical

import (
	"gq/exec"
	"gq/expr"
	"gq/gpuexec"
)

// GPUOptions say how PlaceOnGPU treats what cannot run on the GPU
// (gpuexec.PlaceOptions).
type GPUOptions = gpuexec.PlaceOptions

// FallbackModes are the accepted GPUOptions.FallbackMode values.
var FallbackModes = gpuexec.FallbackModes

// PlaceOnGPU replaces the operators of a lowered plan that have GPU twins
// with them. The rules are gpuexec's (gpuexec.Place); physical lends them
// what they ask of the planner: EXPLAIN's text for a node and an
// expression, and the partial and final steps of an aggregation.
func PlaceOnGPU(root exec.Node, g *gpuexec.GPU, o GPUOptions) (exec.Node, error) {
	return gpuexec.Place(root, g, o, plans{})
}

// plans is physical's side of gpuexec.Plans.
type plans struct{}

func (plans) Describe(n exec.Node) string { return Describe(n) }
func (plans) Show(e expr.Expr) string     { return show(e) }
func (plans) SplitAggregate(x *exec.HashAggregate, in exec.Node) (*exec.HashAggregate, exec.Node, *exec.HashAggregate, bool) {
	return splitAggregate(x, in)
}
