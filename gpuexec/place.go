package gpuexec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// PlaceOptions say how Place treats what cannot run on the GPU, as
// cudf-polars' fallback_mode: "warn" (run it on the CPU and tell Warn),
// "raise" (fail the query, errs.Unsupported naming the operator) or
// "silent" (run it on the CPU).
type PlaceOptions struct {
	FallbackMode string
	Warn         func(string)
	// Ranks says the plan is one rank's, exchanges placed: a join
	// pipeline's build side that holds an exchange is read through a
	// SharedSource (replayable), since a fallback would otherwise run
	// the exchange again, waiting for messages its peers sent once.
	Ranks bool
}

// Plans is what placement asks of the physical planner, which gpuexec
// must not import: the text EXPLAIN gives a node (a device join is named
// after the CPU join it stands for) and an expression (a column named
// after it), and a grouped aggregation split into a partial and a final
// step (splitAggregate in physical/distribute.go: the device takes the
// partial one).
type Plans interface {
	Describe(exec.Node) string
	Show(expr.Expr) string
	SplitAggregate(x *exec.HashAggregate, in exec.Node) (partial *exec.HashAggregate, top exec.Node, final *exec.HashAggregate, ok bool)
}

// FallbackModes are the accepted GPUOptions.FallbackMode values.
var FallbackModes = []string{"warn", "raise", "silent"}

// Place replaces the operators of a lowered plan that have GPU twins
// with them: table scans become GPUScans over the device table cache, with
// the filter's conjuncts that the kernel generator handles evaluated on the
// device. Every other operator stays on the CPU; under "warn" they are
// named in one message per query, under "raise" the query fails.
func Place(root exec.Node, g *GPU, o PlaceOptions, plans Plans) (exec.Node, error) {
	if g != nil && g.Err() != nil {
		if err := o.fallback(fmt.Sprintf("GPU disabled after a device fault (%v): operators run on the CPU", g.Err())); err != nil {
			return nil, err
		}
		return root, nil
	}
	p := placer{g: g, o: o, plans: plans, shared: new(int), sources: map[*exec.Scan]*exec.SharedSource{}, exScans: map[*exec.Exchange]*exec.Scan{},
		copies: map[exec.Node]exec.Node{}}
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
func (o PlaceOptions) fallback(msg string) error {
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
	g     *GPU
	o     PlaceOptions
	plans Plans
	onCPU []string // "operator (reason)"
	// shared numbers the SharedSources of replayable build sides; sources
	// are those of exchanges' rows scanned on the device, by the Scan that
	// stands for them (exScans: those Scans by exchange).
	shared  *int
	sources map[*exec.Scan]*exec.SharedSource
	exScans map[*exec.Exchange]*exec.Scan
	// copies are the nodes place left on the CPU, by the node they copy.
	copies map[exec.Node]exec.Node
}

func (p *placer) place(n exec.Node) exec.Node {
	switch n.(type) {
	case *exec.Project, *exec.Filter, *exec.HashJoin:
		if r := p.joinRows(n); r != nil {
			return r
		}
	}
	switch x := n.(type) {
	case *exec.Scan:
		gs, reason := p.scan(x)
		if gs != nil {
			return gs
		}
		p.onCPU = append(p.onCPU, fmt.Sprintf("Scan %s (%s)", x.Table.Name(), reason))
		return n
	case *exec.HashAggregate:
		if n := p.mixedDistinct(x); n != nil {
			return n
		}
		if inner, outer := p.splitDistinct(x); inner != nil {
			// The device finds the distinct values per group, and
			// aggregates them when it can; else the CPU does.
			outer = withInput(outer, p.place(inner))
			if n := p.outerOnDevice(outer); n != nil {
				return n
			}
			p.onCPU = append(p.onCPU, "HashAggregate (of the distinct values)")
			return outer
		}
		if s, ok := x.Input.(*exec.Scan); ok {
			top, reason := p.aggregate(x, s)
			if top != nil {
				return top
			}
			p.onCPU = append(p.onCPU, "HashAggregate ("+reason+")")
			return withInput(x, p.place(s))
		}
		if ex, ok := x.Input.(*exec.Exchange); ok && ex.Kind == exec.ExchangeHash && p.o.Ranks {
			// Under ranks the merge of the partial aggregates an
			// exchange brought runs over its rows on the device.
			if top, _ := p.aggregate(x, p.exchangeScan(ex)); top != nil {
				return top
			}
		}
		if top := p.joinAggregate(x); top != nil {
			return top
		}
		x = withInput(x, p.place(x.Input))
		if n := p.outerOnDevice(x); n != nil {
			return n
		}
		p.onCPU = append(p.onCPU, "HashAggregate (no GPU operator yet)")
		return x
	case *exec.Filter:
		// A HAVING over a grouped aggregation that runs on the device is
		// evaluated there, before the groups are read back.
		in := p.place(x.Input)
		if ga, ok := in.(*GPUAggregate); ok {
			if h, err := ga.WithHaving(x.Pred); err == nil {
				return h
			}
		}
		if j, ok := in.(*exec.NestedLoopJoin); ok {
			in = havingByScalar(x.Pred, j)
		}
		p.onCPU = append(p.onCPU, "Filter (no GPU operator yet)")
		return withInput(x, in)
	case *exec.Sort:
		x = withInput(x, p.place(x.Input))
		if in, ok := topNOnDevice(x); ok {
			x = withInput(x, in)
			p.onCPU = append(p.onCPU, "Sort (of the device's top-N groups)")
			return x
		}
		if n := p.sortOnDevice(x); n != nil {
			return n
		}
		if n := p.gpuSort(x); n != nil {
			return n
		}
		p.onCPU = append(p.onCPU, "Sort (no GPU operator yet)")
		return x
	case *exec.Exchange:
		x = withInput(x, p.place(x.Input))
		if in, ok := partitionOnDevice(x); ok {
			return withInput(x, in)
		}
		p.onCPU = append(p.onCPU, "Exchange (no GPU operator yet)")
		return x
	case *exec.Values, *GPUScan, *GPUAggregate, *GPUJoinRows, *GPUSort:
		return n
	}
	// The rest stay on the CPU, over their inputs placed: a copy of n
	// (RewriteChildren), the same one each time n is reached (a shared
	// source's reads).
	if m, ok := p.copies[n]; ok {
		return m
	}
	name := strings.SplitN(n.Explain(), " ", 2)[0]
	p.onCPU = append(p.onCPU, name+" (no GPU operator yet)")
	m := exec.RewriteChildren(n, p.place)
	p.copies[n] = m
	return m
}

// outerOnDevice hands x, an aggregation over (Projects of columns of) a
// final grouped aggregation on the device, to that aggregation to compute
// from its table in place (GPUAggregate.WithOuter: q13's, q16's second
// aggregation); it returns what replaces x (the GPUAggregate, or the
// AvgCombine finishing an avg over it), or nil. The CPU twin is x's
// aggregation over the inner aggregation's twin.
func (p *placer) outerOnDevice(x *exec.HashAggregate) exec.Node {
	var projs []*exec.Project
	in := x.Input
	for pr, ok := in.(*exec.Project); ok; pr, ok = in.(*exec.Project) {
		projs = append(projs, pr)
		in = pr.Input
	}
	g, ok := in.(*GPUAggregate)
	if !ok || !g.stages.Final() || g.stages.Outer() != nil || g.stages.TopN().N > 0 {
		return nil
	}
	// inner is the inner aggregation's output column that column e of
	// x's input is.
	inner := func(e expr.Expr) (int, bool) {
		c, ok := e.(*expr.Column)
		for _, pr := range projs {
			if !ok {
				break
			}
			c, ok = pr.Exprs[c.Index].(*expr.Column)
		}
		if !ok {
			return 0, false
		}
		return c.Index, true
	}
	partial, top, final, ok := p.plans.SplitAggregate(x, x.Input)
	if !ok || !sameTypes(partial.Out, final.Out) {
		return nil
	}
	keys := make([]int, len(partial.GroupBy))
	for i, k := range partial.GroupBy {
		if keys[i], ok = inner(k); !ok {
			return nil
		}
	}
	aggs := slices.Clone(partial.Aggs)
	for j, f := range aggs {
		if f.Arg == nil {
			continue
		}
		col, ok := inner(f.Arg)
		if !ok {
			return nil
		}
		aggs[j].Arg = &expr.Column{Index: col, Type: g.Out.Field(col).Type, Name: g.Out.Field(col).Name}
	}
	twin := exec.Node(g.CPU)
	for i := len(projs) - 1; i >= 0; i-- {
		twin = withInput(projs[i], twin)
	}
	g, err := g.WithOuter(keys, aggs, final.Out, withInput(final, exec.Node(withInput(partial, twin))))
	if err != nil {
		return nil
	}
	return finalOver(top, final, g)
}

// topNOnDevice hands a top-N (x, a Sort with a limit) over a grouped
// aggregation or a join pipeline on the device — through Projects — its
// first key, when that is an output column of theirs: the device then
// reads back only the groups, or each chunk's rows, that can be among the
// first Limit+Offset (GPUAggregate and GPUJoinRows WithTopN), and x orders
// them. It returns x's new input (copies down to the device operator).
func topNOnDevice(x *exec.Sort) (exec.Node, bool) {
	n := x.Limit + x.Offset
	if x.Limit < 0 || len(x.Keys) == 0 || n <= 0 || n > 1<<20 {
		return nil, false
	}
	return topNBelow(x.Input, x.Keys[0].Expr, x.Keys[0], int(n))
}

// topNBelow is topNOnDevice's walk down from in, key k's expression key
// over in's output.
func topNBelow(in exec.Node, key expr.Expr, k exec.SortKey, n int) (exec.Node, bool) {
	col, ok := key.(*expr.Column)
	if !ok {
		return nil, false
	}
	top := arrowgpu.OrderKey{Col: col.Index, Desc: k.Desc, NullsFirst: k.NullsFirst}
	switch y := in.(type) {
	case *exec.Project:
		below, ok := topNBelow(y.Input, y.Exprs[col.Index], k, n)
		if !ok {
			return nil, false
		}
		return withInput(y, below), true
	case *GPUAggregate:
		t, err := y.WithTopN(top, n)
		return t, err == nil
	case *GPUJoinRows:
		t, err := y.WithTopN(top, n)
		return t, err == nil
	}
	return nil, false
}

// sortOnDevice hands x, a sort without a limit over a join pipeline on
// the device or a scan there — through Projects, its keys bare columns —
// to the device: the pipeline's rows (a scan's: a pipeline of no joins)
// are ordered there and come back in order (GPUJoinRows.WithSort), and x
// goes, the Projects keeping their input's order. It returns what
// replaces x, or nil.
func (p *placer) sortOnDevice(x *exec.Sort) exec.Node {
	if x.Limit >= 0 || x.Offset > 0 || len(x.Keys) == 0 {
		return nil
	}
	var projs []*exec.Project
	in := x.Input
	for pr, ok := in.(*exec.Project); ok; pr, ok = in.(*exec.Project) {
		projs = append(projs, pr)
		in = pr.Input
	}
	var r *GPUJoinRows
	absorbed := false
	switch y := in.(type) {
	case *GPUJoinRows:
		r = y
	case *GPUScan:
		// The Project right above the scan is evaluated on the device
		// when it can be (sort keys computed there: ORDER BY a * 2).
		cols := scanCols(y.CPU, 0)
		if len(projs) > 0 {
			pr := projs[len(projs)-1]
			exprs := make([]expr.Expr, len(pr.Exprs))
			for k, e := range pr.Exprs {
				exprs[k] = substituteColumns(e, cols)
			}
			if r, _ = newJoinRows(y, nil, nil, exprs, pr.Out, pr); r != nil {
				projs = projs[:len(projs)-1]
				absorbed = true
				break
			}
		}
		var err error
		if r, err = newJoinRows(y, nil, nil, cols, y.Schema(), y); err != nil {
			return nil
		}
	default:
		return nil
	}
	keys := make([]arrowgpu.OrderKey, len(x.Keys))
	cpuKeys := make([]exec.SortKey, len(x.Keys))
	for i, k := range x.Keys {
		e := k.Expr
		for _, pr := range projs {
			col, ok := e.(*expr.Column)
			if !ok {
				return nil
			}
			e = pr.Exprs[col.Index]
		}
		col, ok := e.(*expr.Column)
		if !ok {
			return nil
		}
		keys[i] = arrowgpu.OrderKey{Col: col.Index, Desc: k.Desc, NullsFirst: k.NullsFirst}
		cpuKeys[i] = exec.SortKey{Expr: col, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	r, err := r.WithSort(keys, cpuKeys)
	if err != nil {
		return nil
	}
	if absorbed { // placed as a CPU operator before
		if i := slices.Index(p.onCPU, "Project (no GPU operator yet)"); i >= 0 {
			p.onCPU = slices.Delete(p.onCPU, i, i+1)
		}
	}
	// The Projects above keep the order (copies: they may be reached
	// from elsewhere too).
	var top exec.Node = r
	for i := len(projs) - 1; i >= 0; i-- {
		pr := withInput(projs[i], top)
		pr.KeepOrder = true
		top = pr
	}
	return top
}

// gpuSort returns x, a sort without a limit over rows from the host (an
// aggregation's groups, CPU operators' rows), as a GPUSort, which orders
// them on the device when they are many; nil when a column or a key has
// no device form.
func (p *placer) gpuSort(x *exec.Sort) exec.Node {
	if x.Limit >= 0 || x.Offset > 0 || len(x.Keys) == 0 {
		return nil
	}
	for _, f := range x.Schema().Fields() {
		if !arrowgpu.DeviceType(f.Type) {
			return nil
		}
	}
	keys := make([]arrowgpu.OrderKey, len(x.Keys))
	for i, k := range x.Keys {
		col, ok := k.Expr.(*expr.Column)
		if !ok || !arrowgpu.SortKeyType(col.Type) {
			return nil
		}
		keys[i] = arrowgpu.OrderKey{Col: col.Index, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return &GPUSort{CPU: x, GPU: p.g, Keys: keys, Warn: p.warn(), Raise: p.o.FallbackMode == "raise"}
}

// partitionOnDevice has a GPU scan, aggregation or join pipeline right
// below x, a hash exchange (through a Project, which keeps a batch's
// partition, its keys bare columns there), partition its rows on the
// device by x's keys (GPUScan.Partition, GPUAggregate and GPUJoinRows
// WithPartition): x then sends each batch whole. It returns x's new input
// (copies down to the device operator), and whether it did.
func partitionOnDevice(x *exec.Exchange) (exec.Node, bool) {
	if x.Kind != exec.ExchangeHash || x.Comm == nil {
		return nil, false
	}
	in := x.Input
	pr, _ := in.(*exec.Project)
	if pr != nil {
		in = pr.Input
	}
	switch in.(type) {
	case *GPUScan, *GPUAggregate, *GPUJoinRows:
	default:
		return nil, false
	}
	var keys []int // the partition keys as columns of in's output
	for _, k := range x.Keys {
		c, ok := k.(*expr.Column)
		if ok && pr != nil {
			c, ok = pr.Exprs[c.Index].(*expr.Column)
		}
		if !ok || !arrowgpu.PartitionKeyType(c.Type) {
			return nil, false
		}
		keys = append(keys, c.Index)
	}
	p := &DevicePartition{Keys: keys, Parts: x.Comm.NRanks()}
	var dev exec.Node
	var err error
	switch y := in.(type) {
	case *GPUScan:
		if y.Partition != nil {
			return nil, false
		}
		cp := y.clone()
		cp.Partition = p
		dev = cp
	case *GPUAggregate:
		dev, err = y.WithPartition(p)
	case *GPUJoinRows:
		dev, err = y.WithPartition(p)
	}
	if err != nil {
		return nil, false
	}
	if pr != nil {
		return withInput(pr, dev), true
	}
	return dev, true
}

// mixedDistinct returns x, an aggregation over a scan with DISTINCT and
// plain aggregates (count(DISTINCT a), sum(b)), as two aggregations of
// the scan that the device can run — the plain aggregates, and the
// DISTINCT ones (splitDistinct) — whose rows, each with NULLs for the
// other's aggregates, a CPU aggregation by the same keys combines with
// max: every group is in both (the same rows grouped by the same keys,
// NULL keys one group), and each aggregate is non-NULL in one of them at
// most. nil when x is not of that form or no part of it fits the device.
func (p *placer) mixedDistinct(x *exec.HashAggregate) exec.Node {
	s, ok := x.Input.(*exec.Scan)
	if !ok || !slices.ContainsFunc(x.Aggs, func(f exec.AggFunc) bool { return f.Distinct }) ||
		!slices.ContainsFunc(x.Aggs, func(f exec.AggFunc) bool { return !f.Distinct }) {
		return nil
	}
	nk := len(x.GroupBy)
	var plainAggs, distAggs []exec.AggFunc
	var plainFields, distFields []arrow.Field
	for i := range nk {
		plainFields = append(plainFields, x.Out.Field(i))
		distFields = append(distFields, x.Out.Field(i))
	}
	for j, f := range x.Aggs {
		if f.Distinct {
			distAggs, distFields = append(distAggs, f), append(distFields, x.Out.Field(nk+j))
		} else {
			plainAggs, plainFields = append(plainAggs, f), append(plainFields, x.Out.Field(nk+j))
		}
	}
	scan2 := *s // the scan twice: a Scan's fields are not changed by placement
	branch := func(in exec.Node, aggs []exec.AggFunc, fields []arrow.Field, distinct bool) exec.Node {
		agg := &exec.HashAggregate{Input: in, GroupBy: x.GroupBy, Aggs: aggs, Out: arrow.NewSchema(fields, nil)}
		// The union's columns: the keys, then x's aggregates, NULL where
		// the other branch computes them.
		exprs := make([]expr.Expr, 0, x.Out.NumFields())
		for i := range nk {
			f := x.Out.Field(i)
			exprs = append(exprs, &expr.Column{Index: i, Type: agg.Out.Field(i).Type, Name: f.Name})
		}
		next := nk
		for j, f := range x.Aggs {
			t := x.Out.Field(nk + j).Type
			if f.Distinct != distinct {
				exprs = append(exprs, &expr.Literal{Value: nil, Type: t})
				continue
			}
			exprs = append(exprs, &expr.Column{Index: next, Type: t, Name: x.Out.Field(nk + j).Name})
			next++
		}
		return &exec.Project{Input: p.place(agg), Exprs: exprs, Out: x.Out}
	}
	plain := branch(s, plainAggs, plainFields, false)
	dist := branch(&scan2, distAggs, distFields, true)
	if !OnGPU(plain) && !OnGPU(dist) {
		return nil
	}
	keys := make([]expr.Expr, nk)
	for i := range nk {
		f := x.Out.Field(i)
		keys[i] = &expr.Column{Index: i, Type: f.Type, Name: f.Name}
	}
	aggs := make([]exec.AggFunc, len(x.Aggs))
	for j := range x.Aggs {
		f := x.Out.Field(nk + j)
		aggs[j] = exec.AggFunc{Fn: "max", Arg: &expr.Column{Index: nk + j, Type: f.Type, Name: f.Name}, Type: f.Type}
	}
	p.onCPU = append(p.onCPU, "HashAggregate (combining DISTINCT and plain aggregates)")
	return &exec.HashAggregate{Input: &exec.UnionAll{Inputs: []exec.Node{plain, dist}, Out: x.Out}, GroupBy: keys, Aggs: aggs, Out: x.Out}
}

// splitDistinct returns, for an aggregation whose aggregates are all
// DISTINCT over one argument v (TPC-H q16's count(DISTINCT ps_suppkey)),
// the aggregation as two: inner groups x's input by x's keys and v, with
// no aggregates — the device aggregation finds the distinct values of
// each group — and outer computes x's aggregates, without DISTINCT, over
// inner's rows grouped by the keys. (NULL values of v are one group of
// inner that the aggregates skip, as with DISTINCT; an empty input gives
// outer's one row without keys.) nil when x is not of that form.
func (p *placer) splitDistinct(x *exec.HashAggregate) (inner, outer *exec.HashAggregate) {
	if len(x.Aggs) == 0 {
		return nil, nil
	}
	v := x.Aggs[0].Arg
	for _, f := range x.Aggs {
		if !f.Distinct || f.Arg == nil || f.Arg.String() != v.String() || !arrow.TypeEqual(f.Arg.DataType(), v.DataType()) {
			return nil, nil
		}
	}
	nk := len(x.GroupBy)
	fields := make([]arrow.Field, 0, nk+1)
	keys := make([]expr.Expr, nk)
	for i, k := range x.GroupBy {
		f := x.Out.Field(i)
		fields = append(fields, arrow.Field{Name: f.Name, Type: k.DataType(), Nullable: true})
		keys[i] = &expr.Column{Index: i, Type: k.DataType(), Name: f.Name}
	}
	fields = append(fields, arrow.Field{Name: p.plans.Show(v), Type: v.DataType(), Nullable: true})
	inner = &exec.HashAggregate{Input: x.Input, GroupBy: append(slices.Clone(x.GroupBy), v), Out: arrow.NewSchema(fields, nil)}
	value := &expr.Column{Index: nk, Type: v.DataType(), Name: p.plans.Show(v)}
	aggs := make([]exec.AggFunc, len(x.Aggs))
	for j, f := range x.Aggs {
		aggs[j] = f
		aggs[j].Distinct, aggs[j].Arg = false, value
	}
	return inner, &exec.HashAggregate{Input: inner, GroupBy: keys, Aggs: aggs, Out: x.Out}
}

// scan returns the GPU twin of s, or nil and why it has none.
func (p *placer) scan(s *exec.Scan) (*GPUScan, string) {
	for _, o := range s.Columns {
		f := s.Table.Schema().Field(o)
		if !arrowgpu.DeviceType(f.Type) {
			return nil, fmt.Sprintf("column %s has type %s", f.Name, f.Type)
		}
	}
	dev, host := splitForDevice(s.Filter)
	gs := &GPUScan{
		CPU: s, GPU: p.g, DeviceFilter: dev, HostFilter: host,
		Warn:  p.warn(),
		Raise: p.o.FallbackMode == "raise",
	}
	if src, ok := p.sources[s]; ok {
		gs.Source = src
	}
	return gs, ""
}

// aggregate returns the plan computing x over s with its aggregation on
// the device (GPUAggregate; the CPU finishes avg), or nil and why the
// device cannot.
func (p *placer) aggregate(x *exec.HashAggregate, s *exec.Scan) (exec.Node, string) {
	gs, reason := p.scan(s)
	if gs == nil {
		return nil, reason
	}
	partial, top, final, ok := p.plans.SplitAggregate(x, gs)
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
		keys[i] = RenumberColumns(k, at)
	}
	aggs := make([]exec.AggFunc, len(partial.Aggs))
	for j, f := range partial.Aggs {
		aggs[j] = f
		if f.Arg != nil {
			aggs[j].Arg = RenumberColumns(f.Arg, at)
		}
	}
	// When the device's rows are final (AggStage.Final) the CPU merge
	// goes, and becomes the fallback's second step; else it stays above.
	isFinal := sameTypes(partial.Out, final.Out)
	out, twin := partial.Out, exec.Node(partial)
	if isFinal {
		out, twin = final.Out, withInput(final, exec.Node(partial))
	}
	ga, err := newAggregate(gs, nil, nil, AggStage{Keys: keys, Aggs: aggs, Final: isFinal}, out, twin)
	if err != nil {
		return nil, strings.TrimPrefix(err.Error(), "unsupported: ")
	}
	if !isFinal {
		return finalOver(top, final, withInput(final, exec.Node(ga))), ""
	}
	return finalOver(top, final, ga), ""
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

// joinAggregate returns the plan computing x on the device when its input
// is a chain of hash joins (deviceJoin) whose probe sides lead down to a
// scan (Projects and Filters on the way): one GPUAggregate runs the scan,
// the joins (probing device tables of their build sides) and the
// aggregation; the build sides are placed on their own. nil when the
// shape does not fit; the caller places x then as any operator.
func (p *placer) joinAggregate(x *exec.HashAggregate) exec.Node {
	pl, cols, gs := p.pipelineOver(x.Input)
	if pl == nil {
		return nil
	}
	partial, top, final, ok := p.plans.SplitAggregate(x, x.Input)
	if !ok || !sameTypes(partial.Out, final.Out) {
		return nil
	}
	keys := make([]expr.Expr, len(partial.GroupBy))
	for i, k := range partial.GroupBy {
		keys[i] = substituteColumns(k, cols)
	}
	aggs := make([]exec.AggFunc, len(partial.Aggs))
	for i, f := range partial.Aggs {
		aggs[i] = f
		if f.Arg != nil {
			aggs[i].Arg = substituteColumns(f.Arg, cols)
		}
	}
	ga, err := newAggregate(gs, pl.joins, nil, AggStage{Keys: keys, Aggs: aggs, Final: true}, final.Out, nil)
	if err != nil {
		p.onCPU = append(p.onCPU, "HashAggregate over joins ("+strings.TrimPrefix(err.Error(), "unsupported: ")+")")
		return nil
	}
	// The build sides are placed on their own once the device takes the
	// pipeline; the CPU twin (for a fallback) is the partial aggregation
	// over the same joins, with the GPU scan, then the merge.
	builds, edits := pl.take()
	twin := withInput(final, exec.Node(withInput(partial, edits.apply(x.Input))))
	return finalOver(top, final, ga.withPlans(builds, twin))
}

// pipelineOver returns the device pipeline of n, the top of a spine
// (spineOf) of hash joins whose probe sides lead down to a scan, and n's
// output as expressions over the pipeline columns; nil when the shape
// does not fit or no join is left for the device. Nothing is placed yet:
// the caller takes pl (pipeline.take) when it uses it.
func (p *placer) pipelineOver(n exec.Node) (pl *pipeline, cols []expr.Expr, gs *GPUScan) {
	s, spine := spineOf(n)
	if b, bspine := spineBottom(n); s == nil && p.o.Ranks {
		// Under ranks a probe side that a hash exchange brings is
		// scanned from the device too (exchangeScan).
		if ex, ok := b.(*exec.Exchange); ok && ex.Kind == exec.ExchangeHash {
			s, spine = p.exchangeScan(ex), bspine
		}
	}
	if s == nil || len(spine) == 0 {
		return nil, nil, nil
	}
	if gs, _ = p.scan(s); gs == nil || gs.HostFilter != nil {
		return nil, nil, nil
	}
	pl = newPipeline(p, s)
	cols, ok := pl.add(spine, scanCols(s, 0))
	if fl, fcols, fgs := p.flipped(s, spine); fl != nil && (!ok || fl.cpuBuilds() < pl.cpuBuilds()) {
		pl, cols, gs, ok = fl, fcols, fgs, true
	} else if ok {
		scan, bottom := gs, spine[len(spine)-1]
		// The node right above the scan reads it through the GPU in the
		// CPU twin too (a Project's, a Filter's, a join's probe side:
		// child 0).
		pl.twin = append(pl.twin, func(e twinEdits) { e.set(bottom, 0, scan) })
	}
	// Joined again from the largest table, filtered tables first, unless
	// that builds clearly more rows (place_reorder.go). Within a tenth the
	// estimates cannot tell, and a build of the largest table's rows is
	// the costlier one: its keys repeat (TPC-H q07's 18M filtered lineitem
	// rows by l_orderkey at SF10, against 15M orders by o_orderkey).
	if ro, rcols, rgs := p.reordered(spine); ro != nil && (!ok || pl.cpuBuilds() > 0 || ro.est <= 1.1*pl.est) {
		pl, cols, gs, ok = ro, rcols, rgs, true
	}
	if !ok || len(pl.joins) == 0 {
		return nil, nil, nil
	}
	pl.semiJoinsFirst()
	return pl, cols, gs
}

// replayable returns right, the build side of a device join, placed: what
// the pipeline runs, and what the CPU twin runs. Under ranks a build side
// that holds an exchange runs once: the pipeline and the CPU twin (a
// fallback) read it through one SharedSource, the first read running it
// and the other replaying its batches — an exchange run twice would wait
// for messages its peers sent once. (The batches are kept until the query
// ends.)
func (p *placer) replayable(right exec.Node) (pipe, twin exec.Node) {
	placed := p.place(right)
	if !p.o.Ranks || !exec.HoldsExchange(placed) {
		return placed, placed
	}
	*p.shared++
	src := &exec.SharedSource{Input: placed, ID: *p.shared, Label: "build"}
	return &exec.SharedRead{Src: src, ID: src.ID, Primary: true}, &exec.SharedRead{Src: src, ID: src.ID}
}

// exchangeScan returns the scan of ex's rows (ex placed first): a Scan of
// an empty table of ex's schema, whose GPU twin reads the rows of a
// SharedSource over ex instead (exec GPUScan.Source: once per query,
// replayed by a fallback), so that a join pipeline runs over the rows an
// exchange brought as over a stored table's. The same scan each time for
// ex.
func (p *placer) exchangeScan(ex *exec.Exchange) *exec.Scan {
	if s, ok := p.exScans[ex]; ok {
		return s
	}
	schema := ex.Schema()
	cols := make([]int, schema.NumFields())
	for i := range cols {
		cols[i] = i
	}
	s := &exec.Scan{Table: exchangeRows{catalog.NewMemTable(fmt.Sprintf("exchange#%d", ex.Op), schema, nil)}, Columns: cols, Out: schema}
	p.exScans[ex] = s
	p.sources[s] = &exec.SharedSource{Input: p.place(ex), ID: int(ex.Op), Label: "exchange"} // numbered as ex
	return s
}

// exchangeRows is the table an exchangeScan names: the exchange's schema,
// no rows of its own, and an unknown row count.
type exchangeRows struct{ catalog.Table }

func (exchangeRows) Stats() catalog.Stats { return catalog.Stats{RowCount: -1} }

// joinRows returns n, the top of a spine of hash joins over a scan with
// no aggregation above for the device to run, as a GPUJoinRows (its CPU
// twin: n, with its scans through the GPU); nil when it does not fit.
func (p *placer) joinRows(n exec.Node) exec.Node {
	pl, cols, gs := p.pipelineOver(n)
	if pl == nil {
		return nil
	}
	r, err := newJoinRows(gs, pl.joins, nil, cols, n.Schema(), n)
	if err != nil {
		p.onCPU = append(p.onCPU, "HashJoin ("+strings.TrimPrefix(err.Error(), "unsupported: ")+")")
		return nil
	}
	// The build sides are placed once the device takes the pipeline; the
	// CPU twin is n's plan with the scans through the GPU.
	builds, edits := pl.take()
	return r.withPlans(builds, edits.apply(n))
}

// pipeline collects the joins of a device pipeline (joinAggregate).
type pipeline struct {
	p     *placer
	width int // pipeline columns so far
	joins []GPUJoin
	// builds, per join, places and returns its build side (and notes what
	// the CPU twin reads instead); twin notes what only the CPU twin
	// runs. take runs them.
	builds []func(twinEdits) exec.Node
	twin   []func(twinEdits)
	// cpu counts the joins whose build side runs as a plan of its own
	// (not a scan of the device cache).
	cpu int
	// est is the rows of the build sides that are scans of the device
	// cache, as estimated (a scan's table rows; a quarter when filtered):
	// what the pipeline's choice of probe side costs (reordered).
	est float64
	// types are the pipeline columns' types (semiJoinsFirst).
	types map[int]arrow.DataType
}

// take places the pipeline's build sides and returns them, with the
// edits that make the CPU plan under the pipeline its CPU twin.
func (pl *pipeline) take() ([]exec.Node, twinEdits) {
	e := twinEdits{}
	builds := make([]exec.Node, len(pl.builds))
	for i, b := range pl.builds {
		builds[i] = b(e)
	}
	for _, f := range pl.twin {
		f(e)
	}
	return builds, e
}

// twinEdits are the inputs a device pipeline's CPU twin reads in place of
// the CPU plan's (its build sides placed, its scans through the GPU): per
// node of the plan, by child position (Children's order). The plan is
// never changed: apply builds the twin from copies.
type twinEdits map[exec.Node]map[int]exec.Node

func (e twinEdits) set(parent exec.Node, child int, to exec.Node) {
	if e[parent] == nil {
		e[parent] = map[int]exec.Node{}
	}
	e[parent][child] = to
}

// apply returns n with the edits under it made: copies of the nodes from
// n down to each edit (WithChildren), n itself when none is under it.
func (e twinEdits) apply(n exec.Node) exec.Node {
	if len(e) == 0 {
		return n
	}
	kids := n.Children()
	var out []exec.Node
	for i, c := range kids {
		m, ok := e[n][i]
		if !ok && c != nil {
			m = e.apply(c)
		}
		if ok || m != c {
			if out == nil {
				out = slices.Clone(kids)
			}
			out[i] = m
		}
	}
	if out == nil {
		return n
	}
	return n.WithChildren(out)
}

// newPipeline starts a pipeline over the scan s.
func newPipeline(p *placer, s *exec.Scan) *pipeline {
	pl := &pipeline{p: p, width: len(s.Columns), types: map[int]arrow.DataType{}}
	pl.note(scanCols(s, 0))
	return pl
}

// note records the types of the pipeline columns among cols.
func (pl *pipeline) note(cols []expr.Expr) {
	for _, e := range cols {
		if c, ok := e.(*expr.Column); ok {
			pl.types[c.Index] = c.Type
		}
	}
}

// semiJoinsFirst moves each semi or anti join that only filters (no
// condition on the pairs, no filter after it, no columns) before the
// joins above it in the pipeline as far as its probe keys allow: a key
// that is an inner join's build key is that join's probe key before it
// (equal, and of the same type). A filter commutes with inner and left
// joins on other columns, and running it first spares the later joins
// the rows it drops: q18's semi join with the 624 orders over 300 (at
// SF10) filters lineitem before the lookup of every line's order.
func (pl *pipeline) semiJoinsFirst() {
	for k := range pl.joins {
		j := pl.joins[k]
		if j.Type != expr.JoinSemi && j.Type != expr.JoinAnti || j.On != nil || j.Filter != nil || len(j.Cols) != 0 {
			continue
		}
		at := k
		keys := slices.Clone(j.ProbeKeys)
		equal := "" // said when a key was replaced by an equal one
		for at > 0 {
			m := pl.joins[at-1]
			first := pl.width
			for _, later := range pl.joins[at-1:] {
				first -= len(later.Cols)
			}
			moved := slices.Clone(keys)
			ok := true
			for x, pk := range keys {
				if pk < first {
					continue
				}
				ok = false
				if m.Type != expr.JoinInner || pk >= first+len(m.Cols) {
					break
				}
				y := slices.Index(m.BuildKeys, m.Cols[pk-first])
				if y < 0 || !arrow.TypeEqual(pl.types[pk], pl.types[m.ProbeKeys[y]]) || pl.types[pk] == nil {
					break
				}
				moved[x], ok, equal = m.ProbeKeys[y], true, ", on equal keys"
			}
			if !ok {
				break
			}
			keys = moved
			at--
		}
		if at == k {
			continue
		}
		j.ProbeKeys = keys
		plural := map[bool]string{true: "s"}[k-at > 1]
		j.Explain += fmt.Sprintf(" (moved ahead of %d join%s%s)", k-at, plural, equal)
		b := pl.builds[k]
		pl.joins = slices.Insert(slices.Delete(pl.joins, k, k+1), at, j)
		pl.builds = slices.Insert(slices.Delete(pl.builds, k, k+1), at, b)
	}
}

// cpuBuilds is the number of joins whose build side is a plan of its own.
func (pl *pipeline) cpuBuilds() int { return pl.cpu }

// flipped is the pipeline over the build side's scan instead when the
// spine's lowest join is an inner join of the scan s with joins over
// another scan B (A ⋈ (B ⋈ C) = (B ⋈ C) ⋈ A): then A becomes a build side
// from the device cache and B the probe (TPC-H q09's partsupp ⋈ the
// lineitem joins, q10's customer ⋈ lineitem ⋈ orders). nil when that
// does not fit.
func (p *placer) flipped(s *exec.Scan, spine []exec.Node) (*pipeline, []expr.Expr, *GPUScan) {
	y, ok := spine[len(spine)-1].(*exec.HashJoin)
	if !ok || y.Type != expr.JoinInner || y.Left != exec.Node(s) {
		return nil, nil, nil
	}
	b, rspine := spineOf(y.Right)
	if b == nil || len(rspine) == 0 {
		return nil, nil, nil
	}
	gb, _ := p.scan(b)
	ga, _ := p.scan(s)
	if gb == nil || gb.HostFilter != nil || ga == nil || ga.HostFilter != nil {
		return nil, nil, nil
	}
	pl := newPipeline(p, b)
	rout, ok := pl.add(rspine, scanCols(b, 0))
	if !ok || len(pl.joins) == 0 {
		return nil, nil, nil
	}
	// The join with A, its scan's table from the device cache.
	j := GPUJoin{Type: expr.JoinInner, Explain: p.plans.Describe(y) + " (probe and build swapped: " + s.Table.Name() + " built)"}
	base := pl.width
	acols := make([]expr.Expr, s.Out.NumFields())
	for i := range acols {
		f := s.Out.Field(i)
		acols[i] = &expr.Column{Index: base + i, Type: f.Type, Name: f.Name}
		j.Cols = append(j.Cols, i)
	}
	for k, lk := range y.LeftKeys {
		ak, aok := lk.(*expr.Column)
		rk, rok := substituteColumns(y.RightKeys[k], rout).(*expr.Column)
		if !aok || !rok || !arrowgpu.JoinKeyType(rk.Type) {
			return nil, nil, nil
		}
		j.ProbeKeys = append(j.ProbeKeys, rk.Index)
		j.BuildKeys = append(j.BuildKeys, ak.Index)
	}
	pl.note(acols)
	cols := append(acols, rout...) // y's output: its left (A) columns, then its right
	if y.Out.NumFields() != len(cols) {
		return nil, nil, nil
	}
	if y.Extra != nil {
		j.Filter = substituteColumns(y.Extra, cols)
	}
	pl.width += len(acols)
	pl.joins = append(pl.joins, j)
	pl.builds = append(pl.builds, func(twinEdits) exec.Node { return ga })
	pl.est += estRows(s)
	cols, ok = pl.add(spine[:len(spine)-1], cols)
	if !ok {
		return nil, nil, nil
	}
	// The CPU twin runs y as it was, with its scans through the GPU.
	pl.twin = append(pl.twin, func(e twinEdits) {
		e.set(y, 0, ga)
		e.set(y, 1, p.quiet().place(e.apply(y.Right)))
	})
	return pl, cols, gb
}

// spineOf walks n down its probe sides (Project, Filter, HashJoin.Left)
// to a scan: the scan and the nodes above it, top first; a nil scan when
// another operator is on the way.
func spineOf(n exec.Node) (*exec.Scan, []exec.Node) {
	b, spine := spineBottom(n)
	if s, ok := b.(*exec.Scan); ok {
		return s, spine
	}
	return nil, nil
}

// spineBottom walks n down its probe sides as spineOf does and returns
// the node it stops at (a Scan, or a node no spine goes through) and the
// spine above it; nil when a join on the way has no device twin.
func spineBottom(n exec.Node) (exec.Node, []exec.Node) {
	var spine []exec.Node
	for {
		if _, ok := n.(*exec.Scan); ok {
			return n, spine
		}
		spine = append(spine, n)
		switch y := n.(type) {
		case *exec.Project:
			n = y.Input
		case *exec.Filter:
			n = y.Input
		case *exec.HashJoin:
			if !deviceJoin(y) {
				return nil, nil
			}
			n = y.Left
		case *exec.NestedLoopJoin:
			if y.Type != expr.JoinSingle || y.Cond != nil {
				return nil, nil
			}
			n = y.Left
		default:
			return n, spine[:len(spine)-1]
		}
	}
}

// scanCols are a scan's output columns as pipeline columns: Columns
// position p is column base+p.
func scanCols(s *exec.Scan, base int) []expr.Expr {
	cols := make([]expr.Expr, s.Out.NumFields())
	for i := range cols {
		f := s.Out.Field(i)
		at := i
		if s.Emit != nil {
			at = s.Emit[i]
		}
		cols[i] = &expr.Column{Index: base + at, Type: f.Type, Name: f.Name}
	}
	return cols
}

// add runs the spine's nodes (top first) over cols, the output of the
// scan below them as pipeline columns, appending their joins; it returns
// the top node's output as pipeline columns, or false.
func (pl *pipeline) add(spine []exec.Node, cols []expr.Expr) ([]expr.Expr, bool) {
	for i := len(spine) - 1; i >= 0; i-- {
		switch y := spine[i].(type) {
		case *exec.Project:
			next := make([]expr.Expr, len(y.Exprs))
			for k, e := range y.Exprs {
				next[k] = substituteColumns(e, cols)
			}
			cols = next
		case *exec.Filter:
			if len(pl.joins) == 0 {
				return nil, false
			}
			j := &pl.joins[len(pl.joins)-1]
			j.Filter = conjunction(append(conjuncts(j.Filter), substituteColumns(y.Pred, cols)))
		case *exec.HashJoin:
			if next, ok := pl.flatten(y, cols); ok {
				cols = next
				continue
			}
			next, ok := pl.join(y, cols)
			if !ok {
				return nil, false
			}
			cols = next
		case *exec.NestedLoopJoin:
			cols = pl.scalarJoin(y, cols)
		}
	}
	return cols, true
}

// scalarJoin appends y, a single join without a condition: each row
// gets the one row of y's right side (an uncorrelated scalar subquery's
// value: q22's average balance), NULLs when it is empty; a right side of
// more rows leaves the join to the CPU, which fails the query.
func (pl *pipeline) scalarJoin(y *exec.NestedLoopJoin, cols []expr.Expr) []expr.Expr {
	j := GPUJoin{Type: expr.JoinSingle, Explain: pl.p.plans.Describe(y)}
	right := y.Right.Schema()
	next := pl.appendCols(&j, right, cols)
	pl.width += right.NumFields()
	pl.joins = append(pl.joins, j)
	pl.builds = append(pl.builds, pl.replayable(y, y.Right))
	pl.cpu++
	return next
}

// replayable is the build of join y's build side right (child 1):
// placed by placer.replayable, the CPU twin's noted.
func (pl *pipeline) replayable(y, right exec.Node) func(twinEdits) exec.Node {
	return func(e twinEdits) exec.Node {
		pipe, twin := pl.p.replayable(right)
		e.set(y, 1, twin)
		return pipe
	}
}

// appendCols makes every column of right, a join's build side, one of
// j's Cols, numbered from the pipeline's width, and returns cols followed
// by them.
func (pl *pipeline) appendCols(j *GPUJoin, right *arrow.Schema, cols []expr.Expr) []expr.Expr {
	next := append(cols[:len(cols):len(cols)], make([]expr.Expr, 0, right.NumFields())...)
	for k := range right.NumFields() {
		f := right.Field(k)
		j.Cols = append(j.Cols, k)
		next = append(next, &expr.Column{Index: pl.width + k, Type: f.Type, Name: f.Name})
	}
	pl.note(next[len(cols):])
	return next
}

// join appends y, with its build side run as it is.
func (pl *pipeline) join(y *exec.HashJoin, cols []expr.Expr) ([]expr.Expr, bool) {
	j := GPUJoin{Type: y.Type, NullAware: y.NullAware, Explain: pl.p.plans.Describe(y)}
	for k, lk := range y.LeftKeys {
		pc, ok := substituteColumns(lk, cols).(*expr.Column)
		rc, rok := y.RightKeys[k].(*expr.Column)
		if !ok || !rok || !arrowgpu.JoinKeyType(pc.Type) {
			return nil, false
		}
		j.ProbeKeys = append(j.ProbeKeys, pc.Index)
		j.BuildKeys = append(j.BuildKeys, rc.Index)
	}
	right := y.Right.Schema()
	semi := y.Type == expr.JoinSemi || y.Type == expr.JoinAnti
	if semi && y.Extra == nil {
		right = arrow.NewSchema(nil, nil)
	}
	next := pl.appendCols(&j, right, cols)
	switch {
	case semi && y.Extra != nil:
		// The build's columns serve the condition on each pair; the
		// output is the left rows.
		j.On = substituteColumns(y.Extra, next)
		next = cols
	case y.Extra != nil:
		j.Filter = substituteColumns(y.Extra, next)
	case semi:
		next = cols
	}
	if y.Out.NumFields() != len(next) {
		return nil, false
	}
	pl.width += right.NumFields()
	pl.joins = append(pl.joins, j)
	pl.builds = append(pl.builds, pl.replayable(y, y.Right))
	if r, _ := spineOf(y.Right); r == nil || y.Right != exec.Node(r) {
		pl.cpu++ // not a bare scan (a Project of one is counted: it is rare)
	} else {
		pl.est += estRows(r)
	}
	return next, true
}

// flatten appends the inner join y whose build side R is itself joins
// over a scan B as a join with B followed by R's joins: for inner joins
// A ⋈ (B ⋈ C) = (A ⋈ B) ⋈ C, and B's and C's tables come from the device
// cache (TPC-H q03's orders ⋈ customer build side) instead of R running
// on the CPU. false (and nothing appended) when R does not fit.
func (pl *pipeline) flatten(y *exec.HashJoin, cols []expr.Expr) ([]expr.Expr, bool) {
	if y.Type != expr.JoinInner {
		return nil, false
	}
	b, rspine := spineOf(y.Right)
	if b == nil || len(rspine) == 0 {
		return nil, false
	}
	gb, _ := pl.p.scan(b)
	if gb == nil || gb.HostFilter != nil {
		return nil, false
	}
	saved := *pl
	restore := func() ([]expr.Expr, bool) {
		pl.width, pl.joins, pl.builds, pl.twin, pl.cpu, pl.est = saved.width, saved.joins[:len(saved.joins):len(saved.joins)], saved.builds, saved.twin, saved.cpu, saved.est
		return nil, false
	}
	base := pl.width
	bj := GPUJoin{Type: expr.JoinInner, Explain: pl.p.plans.Describe(y) + " (build side's scan " + b.Table.Name() + ")"}
	for i := range b.Out.NumFields() {
		bj.Cols = append(bj.Cols, i)
	}
	bcols := make([]expr.Expr, b.Out.NumFields())
	for i := range bcols {
		f := b.Out.Field(i)
		bcols[i] = &expr.Column{Index: base + i, Type: f.Type, Name: f.Name}
	}
	pl.note(bcols)
	pl.width += len(bcols)
	at := len(pl.joins)
	pl.joins = append(pl.joins, bj)
	pl.builds = append(pl.builds, func(twinEdits) exec.Node { return gb })
	pl.est += estRows(b)
	rout, ok := pl.add(rspine, bcols)
	if !ok {
		return restore()
	}
	for k, lk := range y.LeftKeys {
		pc, ok := substituteColumns(lk, cols).(*expr.Column)
		rc, rok := substituteColumns(y.RightKeys[k], rout).(*expr.Column)
		if !ok || !rok || !arrowgpu.JoinKeyType(pc.Type) || rc.Index < base || rc.Index >= base+len(bcols) {
			return restore()
		}
		pl.joins[at].ProbeKeys = append(pl.joins[at].ProbeKeys, pc.Index)
		pl.joins[at].BuildKeys = append(pl.joins[at].BuildKeys, rc.Index-base)
	}
	next := append(cols[:len(cols):len(cols)], rout...)
	if y.Extra != nil {
		last := &pl.joins[len(pl.joins)-1]
		last.Filter = conjunction(append(conjuncts(last.Filter), substituteColumns(y.Extra, next)))
	}
	if y.Out.NumFields() != len(next) {
		return restore()
	}
	// The CPU twin runs R itself.
	pl.twin = append(pl.twin, func(e twinEdits) { e.set(y, 1, pl.p.quiet().place(e.apply(y.Right))) })
	return next, true
}

// deviceJoin reports whether the device's join pipeline can run y: an
// inner, semi or anti join (NOT IN's NULL-aware anti join without a
// further condition), or a left or single join without a further
// condition, on one or two keys; which side the CPU would build on does not matter (the
// device builds on the right).
func deviceJoin(y *exec.HashJoin) bool {
	if y.NullAware && (y.Type != expr.JoinAnti || y.Extra != nil) || len(y.LeftKeys) > 2 {
		return false
	}
	switch y.Type {
	case expr.JoinInner:
		return !y.BuildLeft
	case expr.JoinSemi, expr.JoinAnti:
		return true
	case expr.JoinLeft, expr.JoinSingle:
		return y.Extra == nil
	}
	return false
}

// substituteColumns returns e with each column reference i replaced by
// cols[i].
func substituteColumns(e expr.Expr, cols []expr.Expr) expr.Expr {
	return MapColumns(e, func(c *expr.Column) expr.Expr { return cols[c.Index] })
}

// conjuncts returns the conjuncts of a filter (none for nil).
func conjuncts(f expr.Expr) []expr.Expr {
	if f == nil {
		return nil
	}
	if c, ok := f.(*expr.Call); ok && c.Fn == "and" {
		return c.Args
	}
	return []expr.Expr{f}
}

// quiet returns a placer for what only a CPU twin runs: its operators on
// the CPU are not the query's (they run only on a fallback, which says so).
func (p *placer) quiet() *placer {
	return &placer{g: p.g, o: p.o, plans: p.plans, shared: p.shared, sources: p.sources, exScans: p.exScans, copies: p.copies}
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

// OnGPU reports whether any operator of the plan runs on the GPU (EXPLAIN
// then marks every line with its device).
func OnGPU(n exec.Node) bool {
	if a, ok := n.(*exec.Analyzed); ok {
		n = a.Inner
	}
	switch n.(type) {
	case *GPUScan, *GPUAggregate, *GPUJoinRows, *GPUSort:
		return true
	}
	return slices.ContainsFunc(n.Children(), OnGPU)
}

// DeviceMark is the EXPLAIN suffix naming where n runs.
func DeviceMark(n exec.Node) string {
	if a, ok := n.(*exec.Analyzed); ok {
		n = a.Inner
	}
	switch n.(type) {
	case *GPUScan, *GPUAggregate, *GPUJoinRows, *GPUSort:
		return " [GPU]"
	}
	return " [CPU]"
}

// havingByScalar has a GPUAggregate that j, a single join without a
// condition, attaches an uncorrelated scalar subquery's row to (TPC-H
// q11: each part's value against a fraction of the total) filter its
// groups by pred, the HAVING above j, on the device with the subquery's
// value, which j gives it at run time (exec.ScalarFeed); the Filter
// stays above j. It returns the join that does (a copy of j over a copy
// of the aggregation), or j when the device has no predicate for pred.
func havingByScalar(pred expr.Expr, j *exec.NestedLoopJoin) exec.Node {
	ga, ok := j.Left.(*GPUAggregate)
	if !ok || j.Type != expr.JoinSingle || j.Cond != nil || j.Feed != nil {
		return j
	}
	// The join's rows are the group's columns, then the subquery's.
	l, r := ga.Schema(), j.Right.Schema()
	if j.Out.NumFields() != l.NumFields()+r.NumFields() {
		return j
	}
	f := &exec.ScalarFeed{}
	fed, err := ga.WithHavingFeed(pred, r, f)
	if err != nil {
		return j
	}
	cp := j.WithChildren([]exec.Node{fed, j.Right}).(*exec.NestedLoopJoin)
	cp.Feed = f
	return cp
}

// finalOver is top, the top of SplitAggregate's steps, with n in place
// of final, its final step (top is final, or a node over it).
func finalOver(top exec.Node, final *exec.HashAggregate, n exec.Node) exec.Node {
	if top == exec.Node(final) {
		return n
	}
	return withInput(top, n)
}

// newAggregate is NewGPUAggregate of the pipeline of scan, joins (their
// build sides: builds, nil when placed later: withPlans) and agg.
func newAggregate(scan *GPUScan, joins []GPUJoin, builds []exec.Node, agg AggStage, out *arrow.Schema, cpu exec.Node) (*GPUAggregate, error) {
	p, err := NewPipeline(scan, joins, builds, agg)
	if err != nil {
		return nil, err
	}
	return NewGPUAggregate(p, out, cpu)
}

// newJoinRows is NewGPUJoinRows of the pipeline of scan, joins (as for
// newAggregate) and the row output exprs.
func newJoinRows(scan *GPUScan, joins []GPUJoin, builds []exec.Node, exprs []expr.Expr, out *arrow.Schema, cpu exec.Node) (*GPUJoinRows, error) {
	p, err := NewPipeline(scan, joins, builds, RowsStage{Exprs: exprs})
	if err != nil {
		return nil, err
	}
	return NewGPUJoinRows(p, out, cpu)
}

// withInput is a copy of n, an operator of one input, reading in.
func withInput[T exec.Node](n T, in exec.Node) T {
	return n.WithChildren([]exec.Node{in}).(T)
}
