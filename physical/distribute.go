package physical

import (
	"context"
	"fmt"
	"math"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	"gq/shuffle"
)

// DistOptions say how to place a lowered plan across the ranks of an SPMD
// job.
type DistOptions struct {
	Comm shuffle.Communicator
	// OpBase is the first exchange op id; every rank must pass the same
	// (the engine derives it from the statement's sequence number).
	OpBase uint32
	Stats  *shuffle.Statistics
	// Everywhere makes the result complete on every rank (CREATE TABLE AS,
	// whose table every rank must then hold whole) instead of on rank 0.
	Everywhere bool
}

// dist is where a node's rows live.
type dist int

const (
	// partitioned: each row is on exactly one rank.
	partitioned dist = iota
	// single: every row is on rank 0 (a special partitioning, which
	// keeps order).
	single
	// replicated: every rank holds every row.
	replicated
)

// Distribute places exchanges in root, a plan lowered for one rank, so
// that running it on every rank of opts.Comm computes the same answer,
// complete on rank 0 (the other ranks' results are empty) or, with
// Everywhere, on every rank. It returns the plan and the op ids of its
// exchanges. Tables are scanned in shares (rank r reads splits r, r+n,
// …); joins and group-bys repartition by key (after partial aggregation)
// unless their input is already partitioned so, small build sides,
// global aggregates and nested-loop build sides are broadcast, sorts and
// limits gather to rank 0 after a local top-N. In-memory tables (CREATE
// TABLE AS results, built Everywhere) are whole on every rank, so their
// scans are replicated. With one rank it returns root unchanged.
func Distribute(root exec.Node, opts DistOptions) (exec.Node, []uint32, error) {
	if opts.Comm == nil || opts.Comm.NRanks() <= 1 {
		return root, nil, nil
	}
	d := &distributor{opts: opts, next: opts.OpBase, hashed: map[exec.Node][]int{}}
	n, where, err := d.place(root)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case opts.Everywhere && where != replicated:
		n = d.exchange(exec.ExchangeBroadcast, n, nil)
	case !opts.Everywhere && where == partitioned:
		n = d.exchange(exec.ExchangeGather, n, nil)
	case !opts.Everywhere && where == replicated:
		n = d.exchange(exec.ExchangeKeepRoot, n, nil)
	}
	return n, d.ops, nil
}

type distributor struct {
	opts DistOptions
	next uint32
	ops  []uint32
	// hashed records, for placed partitioned nodes whose rows were
	// hash-partitioned by some of their output columns, those columns
	// (in hash order): a join or group-by on them needs no new exchange.
	hashed map[exec.Node][]int
}

func (d *distributor) exchange(kind exec.ExchangeKind, in exec.Node, keys []expr.Expr) exec.Node {
	e := &exec.Exchange{Kind: kind, Input: in, Keys: keys, Comm: d.opts.Comm, Stats: d.opts.Stats}
	if kind != exec.ExchangeKeepRoot {
		e.Op = d.next
		d.ops = append(d.ops, d.next)
		d.next++
	}
	if kind == exec.ExchangeHash {
		if cols, ok := bareColumns(keys); ok {
			d.hashed[e] = cols
		}
	}
	return e
}

// bareColumns returns the column indexes of keys when every key is a
// bare column reference.
func bareColumns(keys []expr.Expr) ([]int, bool) {
	out := make([]int, len(keys))
	for i, k := range keys {
		c, ok := k.(*expr.Column)
		if !ok {
			return nil, false
		}
		out[i] = c.Index
	}
	return out, true
}

// hashedBy reports whether n's rows are already hash-partitioned by
// exactly keys (same columns, same order, hence the same hash).
func (d *distributor) hashedBy(n exec.Node, w dist, keys []expr.Expr) bool {
	have, ok := d.hashed[n]
	want, bare := bareColumns(keys)
	if w != partitioned || !ok || !bare || len(have) != len(want) {
		return false
	}
	for i := range have {
		if have[i] != want[i] {
			return false
		}
	}
	return true
}

// inherit copies the hash partitioning of from to to, whose first
// columns are from's.
func (d *distributor) inherit(to, from exec.Node) {
	if k, ok := d.hashed[from]; ok {
		d.hashed[to] = k
	}
}

// toPartitioned makes a replicated input exist once (on rank 0).
func (d *distributor) toPartitioned(n exec.Node, w dist) (exec.Node, dist) {
	if w == replicated {
		return d.exchange(exec.ExchangeKeepRoot, n, nil), single
	}
	return n, w
}

// toReplicated broadcasts a non-replicated input.
func (d *distributor) toReplicated(n exec.Node, w dist) exec.Node {
	if w == replicated {
		return n
	}
	return d.exchange(exec.ExchangeBroadcast, n, nil)
}

// toSingle gathers a partitioned input on rank 0.
func (d *distributor) toSingle(n exec.Node, w dist) (exec.Node, dist) {
	if w == partitioned {
		return d.exchange(exec.ExchangeGather, n, nil), single
	}
	return n, w
}

func (d *distributor) place(n exec.Node) (exec.Node, dist, error) {
	switch x := n.(type) {
	case *exec.Scan:
		if isMemTable(x.Table) {
			return x, replicated, nil
		}
		s := *x
		s.Table = &rankShare{Table: x.Table, rank: d.opts.Comm.Rank(), n: d.opts.Comm.NRanks()}
		return &s, partitioned, nil
	case *exec.Values:
		return x, replicated, nil
	case *exec.Filter:
		in, w, err := d.place(x.Input)
		if err != nil {
			return nil, 0, err
		}
		c := *x
		c.Input = in
		d.inherit(&c, in)
		return &c, w, nil
	case *exec.Project:
		in, w, err := d.place(x.Input)
		if err != nil {
			return nil, 0, err
		}
		c := *x
		c.Input = in
		d.projectHashed(&c, in)
		return &c, w, nil
	case *exec.HashAggregate:
		return d.aggregate(x)
	case *exec.HashJoin:
		return d.hashJoin(x)
	case *exec.NestedLoopJoin:
		l, lw, err := d.place(x.Left)
		if err != nil {
			return nil, 0, err
		}
		r, rw, err := d.place(x.Right)
		if err != nil {
			return nil, 0, err
		}
		c := *x
		c.Left, c.Right = l, d.toReplicated(r, rw)
		d.inherit(&c, l)
		return &c, lw, nil
	case *exec.Sort:
		return d.sort(x)
	case *exec.Limit:
		in, w, err := d.place(x.Input)
		if err != nil {
			return nil, 0, err
		}
		if w == replicated && !exec.HoldsExchange(in) {
			// Every rank computes its rows alone (a recursive CTE, say):
			// stopping the input early keeps no peer waiting, and an
			// endless recursion under LIMIT ends.
			c := *x
			c.Input = in
			return &c, w, nil
		}
		if w == partitioned && x.Count >= 0 {
			// Each rank's first Offset+Count rows suffice.
			in = &exec.DrainLimit{Input: in, Count: x.Offset + x.Count}
		}
		in, w = d.toSingle(in, w)
		return &exec.DrainLimit{Input: in, Offset: x.Offset, Count: x.Count}, w, nil
	case *exec.Window:
		in, w, err := d.place(x.Input)
		if err != nil {
			return nil, 0, err
		}
		switch {
		case w == replicated:
		case len(x.PartitionBy) > 0 && w == partitioned:
			in = d.exchange(exec.ExchangeHash, in, x.PartitionBy)
		default:
			in, w = d.toSingle(in, w)
		}
		c := *x
		c.Input = in
		d.inherit(&c, in)
		return &c, w, nil
	case *exec.UnionAll:
		ins := make([]exec.Node, len(x.Inputs))
		ws := make([]dist, len(x.Inputs))
		all := true
		for i, c := range x.Inputs {
			in, w, err := d.place(c)
			if err != nil {
				return nil, 0, err
			}
			ins[i], ws[i] = in, w
			all = all && w == replicated
		}
		c := *x
		c.Inputs = ins
		if all {
			return &c, replicated, nil
		}
		for i := range ins {
			ins[i], _ = d.toPartitioned(ins[i], ws[i])
		}
		return &c, partitioned, nil
	case *exec.RecursiveCTE:
		// Every rank computes the whole CTE, its tables read whole: an
		// iteration's exchanges would need op ids per iteration that
		// every rank agrees on. The rows are then replicated.
		c := *x
		c.Note = "(whole on every rank)"
		return &c, replicated, nil
	}
	return nil, 0, errs.New(errs.Unsupported, "distributed execution of %s (%T)", n.Explain(), n)
}

func (d *distributor) sort(x *exec.Sort) (exec.Node, dist, error) {
	in, w, err := d.place(x.Input)
	if err != nil {
		return nil, 0, err
	}
	c := *x
	if w == partitioned && x.Limit >= 0 {
		// Local top-N, then the final top-N over every rank's candidates.
		local := *x
		local.Input, local.Limit, local.Offset = in, x.Offset+x.Limit, 0
		in = &local
	}
	c.Input, w = d.toSingle(in, w)
	return &c, w, nil
}

func (d *distributor) hashJoin(x *exec.HashJoin) (exec.Node, dist, error) {
	l, lw, err := d.place(x.Left)
	if err != nil {
		return nil, 0, err
	}
	r, rw, err := d.place(x.Right)
	if err != nil {
		return nil, 0, err
	}
	c := *x
	if x.NullAware && rw != replicated {
		// NOT IN needs to see every NULL and emptiness of the whole right.
		r, rw = d.toReplicated(r, rw), replicated
	}
	lHashed, rHashed := d.hashedBy(l, lw, x.LeftKeys), d.hashedBy(r, rw, x.RightKeys)
	if rw != replicated && !(lHashed && rHashed) && d.broadcastCheaper(x.Left, x.Right) {
		r, rw = d.toReplicated(r, rw), replicated
	}
	if rw == replicated {
		c.Left, c.Right = l, r
		d.inherit(&c, l)
		return &c, lw, nil
	}
	if lw == replicated {
		if x.Type == expr.JoinInner {
			// Each rank joins all of the left with its share of the right.
			c.Left, c.Right = l, r
			return &c, partitioned, nil
		}
		l, lw = d.toPartitioned(l, lw)
	}
	// Sides already partitioned by their keys (an earlier join or
	// group-by on them) stay where they are.
	if !d.hashedBy(l, lw, x.LeftKeys) {
		l = d.exchange(exec.ExchangeHash, l, x.LeftKeys)
	}
	if !d.hashedBy(r, rw, x.RightKeys) {
		r = d.exchange(exec.ExchangeHash, r, x.RightKeys)
	}
	c.Left, c.Right = l, r
	d.inherit(&c, l)
	return &c, partitioned, nil
}

// aggregate places a hash aggregation. Over a replicated input it runs as
// is. Otherwise, when every aggregate can be split (sum, count, min, max,
// not DISTINCT), each rank aggregates its rows first and only the partial
// groups travel: hashed by group key, or broadcast for a global aggregate
// (so every rank computes the one row). Other aggregates move raw rows.
func (d *distributor) aggregate(x *exec.HashAggregate) (exec.Node, dist, error) {
	in, w, err := d.place(x.Input)
	if err != nil {
		return nil, 0, err
	}
	c := *x
	if w == replicated {
		c.Input = in
		return &c, replicated, nil
	}
	if w == single && len(x.GroupBy) > 0 {
		c.Input = in
		return &c, single, nil
	}
	if keys, ok := d.groupsColocated(in, w, x.GroupBy); ok {
		// Every group's rows are on one rank already.
		c.Input = in
		d.hashed[&c] = keys
		return &c, partitioned, nil
	}
	if partial, top, final, ok := splitAggregate(x, in); ok {
		if len(x.GroupBy) == 0 {
			final.Input = d.toReplicated(partial, w)
			return top, replicated, nil
		}
		final.Input = d.exchange(exec.ExchangeHash, partial, groupColumns(partial))
		d.hashed[top] = firstColumns(len(x.GroupBy))
		return top, partitioned, nil
	}
	if len(x.GroupBy) == 0 {
		c.Input = d.toReplicated(in, w)
		return &c, replicated, nil
	}
	c.Input = d.exchange(exec.ExchangeHash, in, x.GroupBy)
	d.hashed[&c] = firstColumns(len(x.GroupBy))
	return &c, partitioned, nil
}

// splitAggregate returns a partial aggregate over in (group keys then
// the partial columns) and the node that combines partials into x's
// output: a final aggregate (sum of sums and of counts, min of mins, max
// of maxes), topped for averages by an AvgCombine that divides the summed
// sums by the summed counts. Its leaf final aggregate's Input is left for
// the caller (returned as final). ok is false when some aggregate cannot
// be split (DISTINCT, or types without an exact partial).
func splitAggregate(x *exec.HashAggregate, in exec.Node) (partial *exec.HashAggregate, top exec.Node, final *exec.HashAggregate, ok bool) {
	ng := len(x.GroupBy)
	fields := make([]arrow.Field, 0, ng+len(x.Aggs))
	for i := range ng {
		f := x.Out.Field(i)
		fields = append(fields, arrow.Field{Name: f.Name, Type: x.GroupBy[i].DataType(), Nullable: true})
	}
	var partialAggs, finalAggs []exec.AggFunc
	combine := make([]exec.CombineCol, 0, ng+len(x.Aggs))
	for i := range ng {
		combine = append(combine, exec.CombineCol{From: i, Count: -1})
	}
	hasAvg := false
	// add appends one partial column computed by p and merged by fn.
	add := func(p exec.AggFunc, fn string) int {
		idx := len(fields)
		col := &expr.Column{Index: idx, Type: p.Type, Name: fmt.Sprintf("partial%d", idx-ng)}
		partialAggs = append(partialAggs, p)
		finalAggs = append(finalAggs, exec.AggFunc{Fn: fn, Arg: col, Type: p.Type})
		fields = append(fields, arrow.Field{Name: col.Name, Type: p.Type, Nullable: true})
		return idx
	}
	for _, a := range x.Aggs {
		if a.Distinct {
			return nil, nil, nil, false
		}
		switch a.Fn {
		case "min", "max":
			combine = append(combine, exec.CombineCol{From: add(a, a.Fn), Count: -1})
		case "sum", "count", "count_star":
			if !summable(a.Type) {
				return nil, nil, nil, false
			}
			combine = append(combine, exec.CombineCol{From: add(a, "sum"), Count: -1})
		case "avg":
			st := sumType(a.Arg.DataType())
			if st == nil {
				return nil, nil, nil, false
			}
			hasAvg = true
			s := add(exec.AggFunc{Fn: "sum", Arg: a.Arg, Type: st}, "sum")
			c := add(exec.AggFunc{Fn: "count", Arg: a.Arg, Type: arrow.PrimitiveTypes.Int64}, "sum")
			combine = append(combine, exec.CombineCol{From: s, Count: c})
		default:
			return nil, nil, nil, false
		}
	}
	schema := arrow.NewSchema(fields, nil)
	partial = &exec.HashAggregate{Input: in, GroupBy: x.GroupBy, Aggs: partialAggs, Out: schema}
	keys := make([]expr.Expr, ng)
	for i := range ng {
		keys[i] = &expr.Column{Index: i, Type: fields[i].Type, Name: fields[i].Name}
	}
	if !hasAvg {
		final = &exec.HashAggregate{GroupBy: keys, Aggs: finalAggs, Out: x.Out}
		return partial, final, final, true
	}
	final = &exec.HashAggregate{GroupBy: keys, Aggs: finalAggs, Out: schema}
	return partial, &exec.AvgCombine{Input: final, Cols: combine, Out: x.Out}, final, true
}

func summable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.FLOAT64:
		return true
	}
	return false
}

// sumType is the exact type of a partial sum of values of type t, or nil:
// integers and decimals sum into DECIMAL(38) of their scale (128 bits, so
// an average's partial sums cannot overflow where its one-rank sum does
// not).
func sumType(t arrow.DataType) arrow.DataType {
	switch t.ID() {
	case arrow.FLOAT64:
		return t
	case arrow.DECIMAL64, arrow.DECIMAL128:
		return &arrow.Decimal128Type{Precision: 38, Scale: t.(arrow.DecimalType).GetScale()}
	case arrow.INT64:
		return &arrow.Decimal128Type{Precision: 38}
	}
	return nil
}

// groupsColocated reports whether in's hash partitioning columns are all
// among the bare-column group keys (rows of one group then share a rank)
// and returns the positions of those columns in the output.
func (d *distributor) groupsColocated(in exec.Node, w dist, groupBy []expr.Expr) ([]int, bool) {
	have, ok := d.hashed[in]
	if w != partitioned || !ok {
		return nil, false
	}
	out := make([]int, len(have))
	for i, col := range have {
		found := false
		for g, k := range groupBy {
			if c, isCol := k.(*expr.Column); isCol && c.Index == col {
				out[i], found = g, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}

// projectHashed carries in's partitioning columns through a projection
// that keeps them as bare columns.
func (d *distributor) projectHashed(p *exec.Project, in exec.Node) {
	have, ok := d.hashed[in]
	if !ok {
		return
	}
	out := make([]int, len(have))
	for i, col := range have {
		found := false
		for j, e := range p.Exprs {
			if c, isCol := e.(*expr.Column); isCol && c.Index == col {
				out[i], found = j, true
				break
			}
		}
		if !found {
			return
		}
	}
	d.hashed[p] = out
}

func firstColumns(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func groupColumns(p *exec.HashAggregate) []expr.Expr {
	out := make([]expr.Expr, len(p.GroupBy))
	for i := range p.GroupBy {
		f := p.Out.Field(i)
		out[i] = &expr.Column{Index: i, Type: f.Type, Name: f.Name}
	}
	return out
}

// rankShare is one rank's share of a table: splits rank, rank+n, … of
// the underlying table, renumbered from 0.
type rankShare struct {
	catalog.Table
	rank, n int
}

// CacheKey is what the GPU's table cache knows the share by: plans make a
// new rankShare per query, the share itself stays the same.
func (s *rankShare) CacheKey() any {
	return struct {
		t       catalog.Table
		rank, n int
	}{s.Table, s.rank, s.n}
}

func (s *rankShare) NumSplits() int {
	total := s.Table.NumSplits()
	if total <= s.rank {
		return 0
	}
	return (total-s.rank-1)/s.n + 1
}

// SplitRows is split's row count where the underlying table knows it
// without reading (the GPU cache lays out its chunks from it), else -1.
func (s *rankShare) SplitRows(split int) int64 {
	if r, ok := s.Table.(interface{ SplitRows(int) int64 }); ok {
		return r.SplitRows(s.rank + split*s.n)
	}
	return -1
}

func (s *rankShare) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	return s.Table.Read(ctx, s.rank+split*s.n, columns, batchSize, mem, emit)
}

// memTableType is the dynamic type of catalog.NewMemTable's tables.
var memTableType = reflect.TypeOf(catalog.NewMemTable("", arrow.NewSchema(nil, nil), nil))

func isMemTable(t catalog.Table) bool { return reflect.TypeOf(t) == memTableType }

// broadcastCheaper reports whether copying the build side to every rank
// moves less than repartitioning both sides: broadcasting R rows to n
// ranks sends about R(n-1) rows, repartitioning about (L+R)(n-1)/n, so
// broadcast when R·n < L+R, i.e. R(n-1) < L; and never more than
// BroadcastRows rows, which every rank must hold.
func (d *distributor) broadcastCheaper(left, right exec.Node) bool {
	r, l := rowEstimate(right), rowEstimate(left)
	if r > BroadcastRows {
		return false
	}
	return l == math.MaxInt64 || r*int64(d.opts.Comm.NRanks()-1) < l
}

// BroadcastRows is the most rows a join's build side may have (by
// rowEstimate) to be broadcast instead of hash-repartitioned; tests set it
// to -1 to force repartitioning.
var BroadcastRows int64 = 100_000

// rowEstimate guesses the rows n emits from table statistics: upper
// bounds, except that a filter is assumed to keep a quarter of its input
// and an equi-join as many rows as its larger side (the choice it steers,
// broadcast or repartition, is only about cost).
// math.MaxInt64 where nothing is known.
func rowEstimate(n exec.Node) int64 {
	const unknown = math.MaxInt64
	switch x := n.(type) {
	case *exec.Scan:
		rc := x.Table.Stats().RowCount
		if rc < 0 {
			return unknown
		}
		if x.Filter != nil {
			rc /= 4
		}
		return rc
	case *exec.Filter:
		if b := rowEstimate(x.Input); b != unknown {
			return b / 4
		}
		return unknown
	case *exec.Values:
		return int64(len(x.Rows))
	case *exec.HashAggregate:
		if len(x.GroupBy) == 0 {
			return 1
		}
		return rowEstimate(x.Input)
	case *exec.Limit:
		if x.Count >= 0 {
			return min(x.Count, rowEstimate(x.Input))
		}
		return rowEstimate(x.Input)
	case *exec.Sort:
		if x.Limit >= 0 {
			return min(x.Limit, rowEstimate(x.Input))
		}
		return rowEstimate(x.Input)
	case *exec.HashJoin:
		if x.Type == expr.JoinSemi || x.Type == expr.JoinAnti {
			return rowEstimate(x.Left)
		}
		// Equi-joins are mostly key to foreign key: about as many rows as
		// the larger side.
		return max(rowEstimate(x.Left), rowEstimate(x.Right))
	case *exec.Project, *exec.Window:
		return rowEstimate(n.Children()[0])
	case *exec.UnionAll:
		var sum int64
		for _, c := range x.Inputs {
			b := rowEstimate(c)
			if b == unknown || sum > unknown-b {
				return unknown
			}
			sum += b
		}
		return sum
	}
	return unknown
}
