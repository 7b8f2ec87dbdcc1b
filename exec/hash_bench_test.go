package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// hashBenchBatches makes rows rows of (k int64 = pseudo-random in
// [0,keys), v int64) in batches of DefaultBatchSize.
func hashBenchBatches(rows, keys int, seed uint64) []arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "v", Type: expr.Int64}}, nil)
	var out []arrow.RecordBatch
	x := seed
	for start := 0; start < rows; start += DefaultBatchSize {
		n := min(DefaultBatchSize, rows-start)
		kb, vb := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
		for i := range n {
			x = x*6364136223846793005 + 1442695040888963407
			kb.Append(int64((x >> 33) % uint64(keys)))
			vb.Append(int64(start + i))
		}
		k, v := kb.NewArray(), vb.NewArray()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{k, v}, int64(n)))
		k.Release()
		v.Release()
	}
	return out
}

func runBench(b *testing.B, node Node, rows int) {
	b.ResetTimer()
	for range b.N {
		c := NewContext(context.Background(), Options{})
		if err := Run(c, node, func(arrow.RecordBatch) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func benchGroupBy(b *testing.B, rows, groups int) {
	src := &testSource{schema: nil, batches: hashBenchBatches(rows, groups, 1)}
	src.schema = src.batches[0].Schema()
	out := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "n", Type: expr.Int64}, {Name: "s", Type: expr.Int64}}, nil)
	node := &HashAggregate{Input: src, GroupBy: []expr.Expr{col(0, expr.Int64)},
		Aggs: []AggFunc{{Fn: "count_star", Type: expr.Int64}, {Fn: "sum", Arg: col(1, expr.Int64), Type: expr.Int64}}, Out: out}
	runBench(b, node, rows)
}

func BenchmarkGroupBy4M1e3(b *testing.B) { benchGroupBy(b, 4_000_000, 1_000) }
func BenchmarkGroupBy4M1e6(b *testing.B) { benchGroupBy(b, 4_000_000, 1_000_000) }

// BenchmarkJoin1Mx6M: build 1M unique keys, probe 6M rows.
func BenchmarkJoin1Mx6M(b *testing.B) {
	build := &testSource{batches: hashBenchBatches(1_000_000, 1<<62, 2)}
	build.schema = build.batches[0].Schema()
	// Unique build keys: use the row number column as the key.
	probe := &testSource{batches: hashBenchBatches(6_000_000, 1_000_000, 3)}
	probe.schema = probe.batches[0].Schema()
	fields := append(probe.schema.Fields(), build.schema.Fields()...)
	node := &HashJoin{Type: expr.JoinInner, Left: probe, Right: build, LeftKeys: []expr.Expr{col(0, expr.Int64)},
		RightKeys: []expr.Expr{col(1, expr.Int64)}, Out: arrow.NewSchema(fields, nil)}
	runBench(b, node, 7_000_000)
}

// BenchmarkGroupBy4MStrings: two short string keys, 6 groups (TPC-H Q1's shape).
func BenchmarkGroupBy4MStrings(b *testing.B) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: expr.String}, {Name: "s", Type: expr.String}, {Name: "v", Type: expr.Int64}}, nil)
	src := &testSource{schema: schema}
	for _, ib := range hashBenchBatches(4_000_000, 6, 5) {
		fb, sb := array.NewStringBuilder(mem), array.NewStringBuilder(mem)
		for _, k := range ib.Column(0).(*array.Int64).Int64Values() {
			fb.Append([]string{"A", "N", "R"}[k%3])
			sb.Append([]string{"F", "O"}[k%2])
		}
		f, s := fb.NewArray(), sb.NewArray()
		src.batches = append(src.batches, array.NewRecordBatch(schema, []arrow.Array{f, s, ib.Column(1)}, ib.NumRows()))
	}
	out := arrow.NewSchema([]arrow.Field{{Name: "f", Type: expr.String}, {Name: "s", Type: expr.String}, {Name: "n", Type: expr.Int64}}, nil)
	node := &HashAggregate{Input: src, GroupBy: []expr.Expr{col(0, expr.String), col(1, expr.String)},
		Aggs: []AggFunc{{Fn: "sum", Arg: col(2, expr.Int64), Type: expr.Int64}}, Out: out}
	runBench(b, node, 4_000_000)
}

// intBatches makes rows rows of len(gen) int64 columns, column c of row
// i being gen[c](i).
func intBatches(rows int, gen ...func(i int) int64) []arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, len(gen))
	for c := range gen {
		fields[c] = arrow.Field{Name: string(rune('a' + c)), Type: expr.Int64}
	}
	schema := arrow.NewSchema(fields, nil)
	var out []arrow.RecordBatch
	for start := 0; start < rows; start += DefaultBatchSize {
		n := min(DefaultBatchSize, rows-start)
		cols := make([]arrow.Array, len(gen))
		for c, g := range gen {
			bld := array.NewInt64Builder(mem)
			for i := range n {
				bld.Append(g(start + i))
			}
			cols[c] = bld.NewArray()
			bld.Release()
		}
		out = append(out, array.NewRecordBatch(schema, cols, int64(n)))
		releaseArrays(cols)
	}
	return out
}

// BenchmarkGroupBy6MSorted1500K: 6M rows whose int64 key ascends in runs
// of four (1.5M groups), the shape of lineitem grouped by l_orderkey.
func BenchmarkGroupBy6MSorted1500K(b *testing.B) {
	src := &testSource{batches: intBatches(6_000_000, func(i int) int64 { return int64(i / 4) }, func(i int) int64 { return int64(i % 50) })}
	src.schema = src.batches[0].Schema()
	out := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "s", Type: expr.Int64}}, nil)
	node := &HashAggregate{Input: src, GroupBy: []expr.Expr{col(0, expr.Int64)},
		Aggs: []AggFunc{{Fn: "sum", Arg: col(1, expr.Int64), Type: expr.Int64}}, Out: out}
	runBench(b, node, 6_000_000)
}

// BenchmarkGroupBy4MTwoInts: two int64 keys, about 1M groups (q20's
// l_partkey, l_suppkey shape).
func BenchmarkGroupBy4MTwoInts(b *testing.B) {
	x := uint64(7)
	rnd := func(int) int64 { x = x*6364136223846793005 + 1442695040888963407; return int64((x >> 33) % 250_000) }
	src := &testSource{batches: intBatches(4_000_000, rnd, func(i int) int64 { return int64(i % 4) })}
	src.schema = src.batches[0].Schema()
	out := arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}, {Name: "b", Type: expr.Int64}, {Name: "n", Type: expr.Int64}}, nil)
	node := &HashAggregate{Input: src, GroupBy: []expr.Expr{col(0, expr.Int64), col(1, expr.Int64)},
		Aggs: []AggFunc{{Fn: "count_star", Type: expr.Int64}}, Out: out}
	runBench(b, node, 4_000_000)
}

// benchSemi: a semi join of 60K left rows against 6M right rows with
// 1.5M distinct keys (q04's shape), building on either side.
func benchSemi(b *testing.B, buildLeft bool) {
	left := &testSource{batches: intBatches(60_000, func(i int) int64 { return int64(i * 25) })}
	left.schema = left.batches[0].Schema()
	right := &testSource{batches: intBatches(6_000_000, func(i int) int64 { return int64(i / 4) })}
	right.schema = right.batches[0].Schema()
	node := &HashJoin{Type: expr.JoinSemi, Left: left, Right: right, LeftKeys: []expr.Expr{col(0, expr.Int64)},
		RightKeys: []expr.Expr{col(0, expr.Int64)}, BuildLeft: buildLeft, Out: left.schema}
	runBench(b, node, 6_060_000)
}

func BenchmarkSemiJoinBuildRight(b *testing.B) { benchSemi(b, false) }
func BenchmarkSemiJoinBuildLeft(b *testing.B)  { benchSemi(b, true) }
