package physical

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/exec/expr"
)

// GPUOptions say how PlaceOnGPU treats what cannot run on the GPU, as
// cudf-polars' fallback_mode: "warn" (run it on the CPU and tell Warn),
// "raise" (fail the query, errs.Unsupported naming the operator) or
// "silent" (run it on the CPU).
type GPUOptions struct {
	FallbackMode string
	Warn         func(string)
}

// FallbackModes are the accepted GPUOptions.FallbackMode values.
var FallbackModes = []string{"warn", "raise", "silent"}

// PlaceOnGPU replaces the operators of a lowered plan that have GPU twins
// with them: table scans become GPUScans over the device table cache, with
// the filter's conjuncts that the kernel generator handles evaluated on the
// device. Every other operator stays on the CPU; under "warn" they are
// named in one message per query, under "raise" the query fails.
func PlaceOnGPU(root exec.Node, g *exec.GPU, o GPUOptions) (exec.Node, error) {
	if g != nil && g.Err() != nil {
		if err := o.fallback(fmt.Sprintf("GPU disabled after a device fault (%v): operators run on the CPU", g.Err())); err != nil {
			return nil, err
		}
		return root, nil
	}
	p := placer{g: g, o: o}
	root = p.place(root)
	if len(p.onCPU) > 0 {
		slices.Sort(p.onCPU)
		p.onCPU = slices.Compact(p.onCPU)
		if err := o.fallback("GPU: these operators run on the CPU: " + strings.Join(p.onCPU, "; ")); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// fallback reports what runs on the CPU as the mode says: an
// errs.Unsupported error under raise, msg to Warn under warn, nothing
// under silent.
func (o GPUOptions) fallback(msg string) error {
	switch o.FallbackMode {
	case "raise":
		return errs.New(errs.Unsupported, "%s (fallback_mode=raise)", msg)
	case "silent":
	default:
		if o.Warn != nil {
			o.Warn(msg)
		}
	}
	return nil
}

type placer struct {
	g     *exec.GPU
	o     GPUOptions
	onCPU []string // "operator (reason)"
}

func (p *placer) place(n exec.Node) exec.Node {
	switch x := n.(type) {
	case *exec.Scan:
		gs, reason := p.scan(x)
		if gs != nil {
			return gs
		}
		p.onCPU = append(p.onCPU, fmt.Sprintf("Scan %s (%s)", x.Table.Name(), reason))
		return n
	case *exec.HashAggregate:
		if s, ok := x.Input.(*exec.Scan); ok {
			top, reason := p.aggregate(x, s)
			if top != nil {
				return top
			}
			p.onCPU = append(p.onCPU, "HashAggregate ("+reason+")")
			x.Input = p.place(s)
			return n
		}
	case *exec.Values, *exec.GPUScan, *exec.GPUAggregate:
		return n
	}
	name := strings.SplitN(n.Explain(), " ", 2)[0]
	p.onCPU = append(p.onCPU, name+" (no GPU operator yet)")
	return rewriteChildren(n, p.place)
}

// scan returns the GPU twin of s, or nil and why it has none.
func (p *placer) scan(s *exec.Scan) (*exec.GPUScan, string) {
	for _, o := range s.Columns {
		f := s.Table.Schema().Field(o)
		if !arrowgpu.DeviceType(f.Type) {
			return nil, fmt.Sprintf("column %s has type %s", f.Name, f.Type)
		}
	}
	dev, host := splitForDevice(s.Filter)
	return &exec.GPUScan{
		CPU: s, GPU: p.g, DeviceFilter: dev, HostFilter: host,
		Warn:  p.warn(),
		Raise: p.o.FallbackMode == "raise",
	}, ""
}

// aggregate returns the plan computing x over s with its aggregation on
// the device (GPUAggregate; the CPU finishes avg), or nil and why the
// device cannot.
func (p *placer) aggregate(x *exec.HashAggregate, s *exec.Scan) (exec.Node, string) {
	gs, reason := p.scan(s)
	if gs == nil {
		return nil, reason
	}
	partial, top, final, ok := splitAggregate(x, gs)
	if !ok {
		return nil, "aggregates without a partial form"
	}
	// The aggregate reads the scan's output columns; the device kernel
	// reads the scan's Columns positions.
	at := map[int]int{}
	for i := range s.Out.NumFields() {
		at[i] = i
		if s.Emit != nil {
			at[i] = s.Emit[i]
		}
	}
	keys := make([]expr.Expr, len(partial.GroupBy))
	for i, k := range partial.GroupBy {
		keys[i] = exec.RenumberColumns(k, at)
	}
	aggs := make([]exec.AggFunc, len(partial.Aggs))
	for j, f := range partial.Aggs {
		aggs[j] = f
		if f.Arg != nil {
			aggs[j].Arg = exec.RenumberColumns(f.Arg, at)
		}
	}
	ga, err := exec.NewGPUAggregate(gs, keys, aggs, partial.Out, partial)
	if err != nil {
		return nil, strings.TrimPrefix(err.Error(), "unsupported: ")
	}
	if !sameTypes(partial.Out, final.Out) {
		final.Input = ga
		return top, ""
	}
	// The device's rows are final (GPUAggregate.Final): the CPU merge
	// goes, and becomes the fallback's second step.
	final.Input = partial
	ga.Out, ga.CPU, ga.Final = final.Out, final, true
	if top == exec.Node(final) {
		return ga, ""
	}
	top.(*exec.AvgCombine).Input = ga
	return top, ""
}

// sameTypes reports whether a and b have the same column types.
func sameTypes(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		if !arrow.TypeEqual(a.Field(i).Type, b.Field(i).Type) {
			return false
		}
	}
	return true
}

func (p *placer) warn() func(string) {
	if p.o.FallbackMode == "silent" {
		return nil
	}
	return p.o.Warn
}

// splitForDevice splits a filter's conjuncts into those a fused kernel can
// evaluate and the rest.
func splitForDevice(f expr.Expr) (dev, host expr.Expr) {
	if f == nil {
		return nil, nil
	}
	conj := []expr.Expr{f}
	if c, ok := f.(*expr.Call); ok && c.Fn == "and" {
		conj = c.Args
	}
	var d, h []expr.Expr
	for _, e := range conj {
		if _, err := arrowgpu.GenerateFused(nil, e); err == nil {
			d = append(d, e)
		} else {
			h = append(h, e)
		}
	}
	return conjunction(d), conjunction(h)
}

func conjunction(es []expr.Expr) expr.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &expr.Call{Fn: "and", Args: es, Type: expr.Boolean}
}

// onGPU reports whether any operator of the plan runs on the GPU (EXPLAIN
// then marks every line with its device).
func onGPU(n exec.Node) bool {
	if a, ok := n.(*exec.Analyzed); ok {
		n = a.Inner
	}
	switch n.(type) {
	case *exec.GPUScan, *exec.GPUAggregate:
		return true
	}
	return slices.ContainsFunc(n.Children(), onGPU)
}

// deviceMark is the EXPLAIN suffix naming where n runs.
func deviceMark(n exec.Node) string {
	if a, ok := n.(*exec.Analyzed); ok {
		n = a.Inner
	}
	switch n.(type) {
	case *exec.GPUScan, *exec.GPUAggregate:
		return " [GPU]"
	}
	return " [CPU]"
}
