package exec

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
	gqmem "gq/memory"
	"gq/shuffle"
)

// Tests of DECIMAL(38) (decimal128) through the operators and of 128-bit
// sums. Expected values come from math/big over the same rows.

func dec128(s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: 38, Scale: s} }

// wideRow is one row: key (nil: NULL) and value (nil: NULL).
type wideRow struct {
	key *int64
	val *big.Int
}

// bigStr writes v scaled by 10^scale as a decimal string.
func bigStr(v *big.Int, scale int32) string {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(digits) <= int(scale) {
			digits = strings.Repeat("0", int(scale)-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-int(scale)] + "." + digits[len(digits)-int(scale):]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// wideRows renders root's rows like runRows, decimals through math/big.
func wideRows(t *testing.T, opts Options, root Node) ([]string, error) {
	t.Helper()
	c := NewContext(context.Background(), opts)
	var rows []string
	err := Run(c, root, func(b arrow.RecordBatch) error {
		rows = append(rows, wideBatchRows(b)...)
		return nil
	})
	return rows, err
}

func wideBatchRows(b arrow.RecordBatch) []string {
	var rows []string
	for r := range int(b.NumRows()) {
		vals := make([]string, b.NumCols())
		for i := range vals {
			c := b.Column(i)
			switch x := c.(type) {
			case *array.Decimal128:
				if c.IsValid(r) {
					vals[i] = bigStr(x.Value(r).BigInt(), x.DataType().(*arrow.Decimal128Type).Scale)
				}
			case *array.Decimal64:
				if c.IsValid(r) {
					vals[i] = bigStr(big.NewInt(int64(x.Value(r))), x.DataType().(*arrow.Decimal64Type).Scale)
				}
			default:
				if c.IsValid(r) {
					vals[i] = c.ValueStr(r)
				}
			}
			if c.IsNull(r) {
				vals[i] = "NULL"
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return rows
}

// wideBatch builds batches of (k Int64, v vt) from rows, size rows each.
func wideBatches(mem memory.Allocator, rows []wideRow, vt arrow.DataType, size int) (*arrow.Schema, []arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "v", Type: vt, Nullable: true}}, nil)
	var out []arrow.RecordBatch
	for start := 0; start < len(rows); start += size {
		part := rows[start:min(start+size, len(rows))]
		kb := array.NewInt64Builder(mem)
		vb := array.NewBuilder(mem, vt)
		for _, r := range part {
			if r.key == nil {
				kb.AppendNull()
			} else {
				kb.Append(*r.key)
			}
			if r.val == nil {
				vb.AppendNull()
				continue
			}
			switch b := vb.(type) {
			case *array.Int64Builder:
				b.Append(r.val.Int64())
			case *array.Decimal64Builder:
				b.Append(decimal.Decimal64(r.val.Int64()))
			case *array.Decimal128Builder:
				b.Append(decimal128.FromBigInt(r.val))
			}
		}
		ka, va := kb.NewArray(), vb.NewArray()
		kb.Release()
		vb.Release()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{ka, va}, int64(len(part))))
		ka.Release()
		va.Release()
	}
	return schema, out
}

// wideRandRows makes n rows with keys in [0, keys) and values of type vt:
// many near the type's limits (±2^63 for 64-bit, ±10^37 for 128-bit),
// others small, some NULL.
func wideRandRows(rng *rand.Rand, n, keys int, vt arrow.DataType) []wideRow {
	rows := make([]wideRow, n)
	for i := range rows {
		if rng.IntN(20) > 0 {
			k := int64(rng.IntN(keys))
			rows[i].key = &k
		}
		if rng.IntN(10) == 0 {
			continue // NULL
		}
		var v *big.Int
		x := rng.IntN(4)
		switch {
		case vt.ID() == arrow.DECIMAL128 && x == 0 && rng.IntN(64) == 0:
			// Rare enough that no running sum nears 2^127 (≈ 1.7·10^38),
			// which would fail in some orders of the rows and not others.
			v = new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)
			v.Sub(v, big.NewInt(rng.Int64N(1<<40)))
		case x <= 1:
			v = big.NewInt(math.MaxInt64 - rng.Int64N(1<<20))
		case x == 2:
			v = big.NewInt(rng.Int64N(2000) - 1000)
		default:
			v = big.NewInt(rng.Int64())
		}
		if rng.IntN(2) == 0 && x != 2 {
			v.Neg(v)
		}
		rows[i].val = v
	}
	return rows
}

// wideRef aggregates rows per key with math/big: for each key (sorted,
// NULL last as "NULL") the sum, count, min, max and avg (scaled by
// avgScale - scale, rounded half away from zero) of the non-NULL values.
type wideGroup struct {
	sum, min, max *big.Int
	count         int64
}

func wideRef(rows []wideRow, grouped bool) (keys []string, groups map[string]*wideGroup) {
	groups = map[string]*wideGroup{}
	for _, r := range rows {
		k := "all"
		if grouped {
			k = "NULL"
			if r.key != nil {
				k = fmt.Sprint(*r.key)
			}
		}
		g := groups[k]
		if g == nil {
			g = &wideGroup{sum: new(big.Int)}
			groups[k] = g
			keys = append(keys, k)
		}
		if r.val == nil {
			continue
		}
		g.sum.Add(g.sum, r.val)
		g.count++
		if g.min == nil || r.val.Cmp(g.min) < 0 {
			g.min = r.val
		}
		if g.max == nil || r.val.Cmp(g.max) > 0 {
			g.max = r.val
		}
	}
	return keys, groups
}

// bigAvg is sum*10^k/count rounded half away from zero.
func bigAvg(sum *big.Int, k int32, count int64) *big.Int {
	n := new(big.Int).Mul(sum, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
	neg := n.Sign() < 0
	n.Abs(n)
	d := big.NewInt(count)
	q, r := new(big.Int).QuoRem(n, d, new(big.Int))
	if new(big.Int).Lsh(r, 1).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return q
}

var (
	lim38  = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	minI64 = big.NewInt(math.MinInt64)
	maxI64 = big.NewInt(math.MaxInt64)
)

func fits38(v *big.Int) bool { return new(big.Int).Abs(v).Cmp(lim38) < 0 }
func fits64(v *big.Int) bool { return v.Cmp(minI64) >= 0 && v.Cmp(maxI64) <= 0 }

func wideOptions(threads, batch int, spill bool, mem memory.Allocator) Options {
	o := Options{Threads: threads, BatchSize: batch, Alloc: mem}
	if spill {
		o.Mem = gqmem.NewBufferResource(gqmem.Options{Limits: gqmem.NoLimits(), SpillAlways: true})
	}
	return o
}

// TestWideSums sums Int64, Decimal64 and Decimal128 values near their
// types' limits into DECIMAL(38) (sum) and averages them, grouped and
// not, over tiny and large batches, on 1 and 3 threads, with spilling.
func TestWideSums(t *testing.T) {
	type vcase struct {
		vt     arrow.DataType
		scale  int32
		avgOut arrow.DataType
	}
	vcases := []vcase{
		{expr.Int64, 0, expr.Decimal(18, 4)},
		{&arrow.Decimal64Type{Precision: 18, Scale: 2}, 2, expr.Decimal(18, 6)},
		{dec128(3), 3, dec128(7)},
		{dec128(0), 0, dec128(4)},
	}
	rng := rand.New(rand.NewPCG(27, 38))
	for _, vc := range vcases {
		for _, keys := range []int{1, 5, 300} {
			for _, grouped := range []bool{false, true} {
				if !grouped && keys > 1 {
					continue
				}
				for _, cfg := range []struct {
					threads, batch int
					spill          bool
				}{{1, 1, false}, {3, 7, false}, {3, 500, true}, {2, 4096, false}} {
					name := fmt.Sprintf("%s/keys%d/grouped%v/t%d/b%d/spill%v", vc.vt, keys, grouped, cfg.threads, cfg.batch, cfg.spill)
					t.Run(name, func(t *testing.T) {
						n := 3000
						if cfg.batch == 1 {
							n = 400
						}
						rows := wideRandRows(rng, n, keys, vc.vt)
						testWideAgg(t, rows, vc.vt, vc.scale, vc.avgOut, grouped, cfg.threads, cfg.batch, cfg.spill)
					})
				}
			}
		}
	}
}

func testWideAgg(t *testing.T, rows []wideRow, vt arrow.DataType, scale int32, avgOut arrow.DataType, grouped bool, threads, batch int, spill bool) {
	testWideAggOf(t, rows, vt, col(1, vt), rows, scale, avgOut, grouped, threads, batch, spill)
}

// testWideAggOf aggregates arg over the batches of rows (values of type
// vt); ref holds arg's value on each row, at scale.
func testWideAggOf(t *testing.T, rows []wideRow, vt arrow.DataType, arg expr.Expr, ref []wideRow, scale int32, avgOut arrow.DataType, grouped bool, threads, batch int, spill bool) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema, batches := wideBatches(mem, rows, vt, batch)
	defer releaseBatchList(batches)
	sumT := dec128(scale)
	v := arg
	vt = arg.DataType()
	mk := func(aggs []AggFunc) *HashAggregate {
		h := &HashAggregate{Input: &testSource{schema: schema, batches: batches}, Aggs: aggs}
		var fields []arrow.Field
		if grouped {
			h.GroupBy = []expr.Expr{col(0, expr.Int64)}
			fields = append(fields, arrow.Field{Name: "k", Type: expr.Int64, Nullable: true})
		}
		for i, a := range aggs {
			fields = append(fields, arrow.Field{Name: fmt.Sprint("a", i), Type: a.Type, Nullable: true})
		}
		h.Out = arrow.NewSchema(fields, nil)
		return h
	}
	keys, groups := wideRef(ref, grouped)
	slices.Sort(keys)
	opts := wideOptions(threads, batch, spill, mem)

	// sum, count, min, max (and sum twice: avg's shared state is tested below).
	aggs := []AggFunc{{Fn: "sum", Arg: v, Type: sumT}, {Fn: "count", Arg: v, Type: expr.Int64},
		{Fn: "min", Arg: v, Type: vt}, {Fn: "max", Arg: v, Type: vt}}
	wantErr := false
	var want []string
	for _, k := range keys {
		g := groups[k]
		if !fits38(g.sum) {
			wantErr = true
		}
		row := []string{}
		if grouped {
			row = append(row, k)
		}
		if g.count == 0 {
			row = append(row, "NULL", "0", "NULL", "NULL")
		} else {
			row = append(row, bigStr(g.sum, scale), fmt.Sprint(g.count), bigStr(g.min, scale), bigStr(g.max, scale))
		}
		want = append(want, strings.Join(row, "|"))
	}
	got, err := wideRows(t, opts, mk(aggs))
	checkWide(t, "sum/count/min/max", got, err, want, wantErr)

	// avg alone, and avg beside a sum of the same column (avgOfSum).
	for _, withSum := range []bool{false, true} {
		aggs := []AggFunc{{Fn: "avg", Arg: v, Type: avgOut}}
		if withSum {
			aggs = append(aggs, AggFunc{Fn: "sum", Arg: v, Type: sumT})
		}
		wantErr := false
		var want []string
		k := decScale(avgOut) - scale
		for _, key := range keys {
			g := groups[key]
			row := []string{}
			if grouped {
				row = append(row, key)
			}
			if g.count == 0 {
				row = append(row, "NULL")
			} else {
				a := bigAvg(g.sum, k, g.count)
				if avgOut.ID() == arrow.DECIMAL64 && !fits64(a) || !fits38(a) {
					wantErr = true
				}
				row = append(row, bigStr(a, decScale(avgOut)))
			}
			if withSum {
				if !fits38(g.sum) {
					wantErr = true
				}
				if g.count == 0 {
					row = append(row, "NULL")
				} else {
					row = append(row, bigStr(g.sum, scale))
				}
			}
			want = append(want, strings.Join(row, "|"))
		}
		got, err := wideRows(t, opts, mk(aggs))
		checkWide(t, fmt.Sprintf("avg (with sum %v)", withSum), got, err, want, wantErr)
	}
}

func checkWide(t *testing.T, what string, got []string, err error, want []string, wantErr bool) {
	t.Helper()
	if wantErr {
		if errs.KindOf(err) != errs.Execution {
			t.Errorf("%s: err %v, want an execution error (a result past its type)", what, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	slices.Sort(got)
	slices.Sort(want)
	eqRows(t, what, got, want)
}

// TestWideSumOfNarrowProducts: a product of two DECIMAL(18,2) columns is
// typed DECIMAL(36,4); its sum and avg take the batches whose products fit
// an int64 narrow and the others in 128 bits, and must be exact across
// both, with NULLs, groups, threads and spilling.
func TestWideSumOfNarrowProducts(t *testing.T) {
	d64 := &arrow.Decimal64Type{Precision: 18, Scale: 2}
	v := col(1, d64)
	prod := &expr.Call{Fn: "mul", Args: []expr.Expr{v, v}, Type: expr.Decimal(36, 4)}
	rng := rand.New(rand.NewPCG(15, 2))
	for _, batch := range []int{7, 500, 4096} {
		for _, keys := range []int{1, 4, 300} {
			for _, cfg := range []struct {
				threads int
				spill   bool
			}{{1, false}, {3, false}, {3, true}} {
				name := fmt.Sprintf("b%d/keys%d/t%d/spill%v", batch, keys, cfg.threads, cfg.spill)
				t.Run(name, func(t *testing.T) {
					n := 6000
					rows := make([]wideRow, n)
					ref := make([]wideRow, n)
					for i := range rows {
						k := int64(rng.IntN(keys))
						rows[i].key, ref[i].key = &k, &k
						if rng.IntN(10) == 0 {
							continue // NULL
						}
						x := rng.Int64N(2_000_000) - 1_000_000
						if (i/batch)%3 == 1 && rng.IntN(50) == 0 {
							// A value near 10^15 makes its batch's products pass int64.
							x = 999_999_999_999_999_999 - rng.Int64N(1<<40)
							if rng.IntN(2) == 0 {
								x = -x
							}
						}
						rows[i].val = big.NewInt(x)
						ref[i].val = new(big.Int).Mul(rows[i].val, rows[i].val)
					}
					testWideAggOf(t, rows, d64, prod, ref, 4, dec128(8), keys > 1, cfg.threads, batch, cfg.spill)
				})
			}
		}
	}
}

// TestWideSumPast38Digits: a DECIMAL(38) sum past 38 digits is an error,
// and so is one past 128 bits on the way.
func TestWideSumPast38Digits(t *testing.T) {
	e37 := new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)
	near := new(big.Int).Sub(lim38, big.NewInt(1)) // 38 nines
	for _, c := range []struct {
		name string
		vals []*big.Int
		ok   bool
	}{
		{"10 × 10^37 - 1", append(slices.Repeat([]*big.Int{e37}, 9), new(big.Int).Sub(e37, big.NewInt(1))), true},
		{"11 × 10^37", slices.Repeat([]*big.Int{e37}, 11), false},
		{"20 × (10^38 - 1)", slices.Repeat([]*big.Int{near}, 20), false},
		{"± (10^38 - 1)", []*big.Int{near, new(big.Int).Neg(near), near}, true},
	} {
		for _, batch := range []int{1, 100} {
			var rows []wideRow
			for _, v := range c.vals {
				rows = append(rows, wideRow{val: v})
			}
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			schema, batches := wideBatches(mem, rows, dec128(0), batch)
			h := &HashAggregate{Input: &testSource{schema: schema, batches: batches},
				Aggs: []AggFunc{{Fn: "sum", Arg: col(1, dec128(0)), Type: dec128(0)}},
				Out:  arrow.NewSchema([]arrow.Field{{Name: "s", Type: dec128(0), Nullable: true}}, nil)}
			got, err := wideRows(t, Options{Threads: 1, BatchSize: batch, Alloc: mem}, h)
			want := new(big.Int)
			for _, v := range c.vals {
				want.Add(want, v)
			}
			checkWide(t, fmt.Sprintf("%s, batches of %d", c.name, batch), got, err, []string{want.String()}, !c.ok)
			releaseBatchList(batches)
			mem.AssertSize(t, 0)
		}
	}
}

// TestWideSumNarrowStaysAnError: a sum typed BIGINT or DECIMAL(18) still
// fails when its total passes int64, on every path of the int64 adder.
func TestWideSumNarrowStaysAnError(t *testing.T) {
	big62 := big.NewInt(1 << 62)
	for _, keys := range []int{1, 3, 100} {
		for _, batch := range []int{1, 64} {
			var rows []wideRow
			for i := range 3*keys + 3 {
				k := int64(i % keys)
				rows = append(rows, wideRow{key: &k, val: big62})
			}
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			schema, batches := wideBatches(mem, rows, expr.Int64, batch)
			h := &HashAggregate{Input: &testSource{schema: schema, batches: batches},
				GroupBy: []expr.Expr{col(0, expr.Int64)},
				Aggs:    []AggFunc{{Fn: "sum", Arg: col(1, expr.Int64), Type: expr.Int64}},
				Out:     arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "s", Type: expr.Int64, Nullable: true}}, nil)}
			_, err := wideRows(t, Options{Threads: 2, BatchSize: batch, Alloc: mem}, h)
			if errs.KindOf(err) != errs.Execution {
				t.Errorf("keys %d batch %d: err %v, want an execution error", keys, batch, err)
			}
			releaseBatchList(batches)
			mem.AssertSize(t, 0)
		}
	}
}

// TestWideAvgRanks splits an avg over 3 local ranks as the distributed
// plan does: per rank a partial aggregation (sum into DECIMAL(38), count),
// a hash exchange on the key (shuffle codec and hash of the rows), a
// final aggregation summing the 128-bit partials and AvgCombine.
func TestWideAvgRanks(t *testing.T) {
	const nranks = 3
	rng := rand.New(rand.NewPCG(3, 128))
	for _, vt := range []arrow.DataType{expr.Int64, dec128(2)} {
		t.Run(vt.String(), func(t *testing.T) {
			scale := decScale(vt)
			avgOut := expr.Decimal(18, scale+4)
			if vt.ID() == arrow.DECIMAL128 {
				avgOut = dec128(scale + 4)
			}
			all := wideRandRows(rng, 3000, 7, vt)
			keys, groups := wideRef(all, true)
			slices.Sort(keys)
			wantErr := false
			var want []string
			for _, k := range keys {
				g := groups[k]
				if g.count == 0 {
					want = append(want, k+"|NULL")
					continue
				}
				a := bigAvg(g.sum, 4, g.count)
				if avgOut.ID() == arrow.DECIMAL64 && !fits64(a) || !fits38(a) || !fits38(g.sum) {
					wantErr = true
				}
				want = append(want, k+"|"+bigStr(a, scale+4))
			}
			comms := shuffle.NewLocal(nranks)
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			sumT := dec128(scale)
			partSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true},
				{Name: "s", Type: sumT, Nullable: true}, {Name: "c", Type: expr.Int64, Nullable: true}}, nil)
			outSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true},
				{Name: "a", Type: avgOut, Nullable: true}}, nil)
			results := make([][]string, nranks)
			errsOf := make([]error, nranks)
			var wg sync.WaitGroup
			for r := range nranks {
				var mine []wideRow
				for i, row := range all {
					if i%nranks == r {
						mine = append(mine, row)
					}
				}
				schema, batches := wideBatches(mem, mine, vt, 97)
				defer releaseBatchList(batches)
				partial := &HashAggregate{Input: &testSource{schema: schema, batches: batches},
					GroupBy: []expr.Expr{col(0, expr.Int64)},
					Aggs:    []AggFunc{{Fn: "sum", Arg: col(1, vt), Type: sumT}, {Fn: "count", Arg: col(1, vt), Type: expr.Int64}},
					Out:     partSchema}
				ex := &Exchange{Kind: ExchangeHash, Input: partial, Comm: comms[r], Op: 3, Keys: []expr.Expr{col(0, expr.Int64)}}
				final := &HashAggregate{Input: ex, GroupBy: []expr.Expr{col(0, expr.Int64)},
					Aggs: []AggFunc{{Fn: "sum", Arg: col(1, sumT), Type: sumT}, {Fn: "sum", Arg: col(2, expr.Int64), Type: expr.Int64}},
					Out:  partSchema}
				root := &AvgCombine{Input: final, Cols: []CombineCol{{From: 0, Count: -1}, {From: 1, Count: 2}}, Out: outSchema}
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[r], errsOf[r] = wideRows(t, Options{Threads: 2, BatchSize: 64, Alloc: mem}, root)
				}()
			}
			wg.Wait()
			var got []string
			for r := range nranks {
				if wantErr {
					continue
				}
				if errsOf[r] != nil {
					t.Fatalf("rank %d: %v", r, errsOf[r])
				}
				got = append(got, results[r]...)
			}
			if wantErr {
				failed := false
				for _, err := range errsOf {
					failed = failed || errs.KindOf(err) == errs.Execution
				}
				if !failed {
					t.Fatalf("no rank failed, want an execution error")
				}
				return
			}
			slices.Sort(got)
			eqRows(t, "avg over ranks", got, want)
		})
	}
}

// wideSortVals are DECIMAL(38) values whose order needs both words: equal
// high words with low words on either side of 2^63, values around ±2^63
// and ±2^64, near ±10^37, and NULLs.
func wideSortVals(rng *rand.Rand, n int) []*big.Int {
	e37 := new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	bases := []*big.Int{big.NewInt(0), two63, two64, e37, new(big.Int).Add(two64, two63)}
	out := make([]*big.Int, n)
	for i := range out {
		if rng.IntN(12) == 0 {
			continue // NULL
		}
		v := new(big.Int).Add(bases[rng.IntN(len(bases))], big.NewInt(rng.Int64N(2001)-1000))
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		out[i] = v
	}
	return out
}

// TestWideSort orders DECIMAL(38) keys (both directions, NULLs first and
// last), whole sorts and top-N, in tiny batches and spilling.
func TestWideSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 38))
	for _, desc := range []bool{false, true} {
		for _, nullsFirst := range []bool{false, true} {
			for _, limit := range []int64{-1, 17} {
				for _, spill := range []bool{false, true} {
					name := fmt.Sprintf("desc%v/nullsfirst%v/limit%d/spill%v", desc, nullsFirst, limit, spill)
					t.Run(name, func(t *testing.T) {
						vals := wideSortVals(rng, 1500)
						rows := make([]wideRow, len(vals))
						for i, v := range vals {
							k := int64(i)
							rows[i] = wideRow{key: &k, val: v}
						}
						mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
						defer mem.AssertSize(t, 0)
						schema, batches := wideBatches(mem, rows, dec128(4), 13)
						defer releaseBatchList(batches)
						s := &Sort{Input: &testSource{schema: schema, batches: batches},
							Keys:  []SortKey{{Expr: col(1, dec128(4)), Desc: desc, NullsFirst: nullsFirst}},
							Limit: limit}
						got, err := wideRows(t, wideOptions(3, 64, spill, mem), s)
						if err != nil {
							t.Fatal(err)
						}
						want := slices.Clone(vals)
						slices.SortStableFunc(want, func(a, b *big.Int) int {
							switch {
							case a == nil && b == nil:
								return 0
							case a == nil || b == nil:
								if (a == nil) == nullsFirst {
									return -1
								}
								return 1
							}
							if desc {
								return b.Cmp(a)
							}
							return a.Cmp(b)
						})
						if limit >= 0 {
							want = want[:limit]
						}
						var gotVals, wantVals []string
						for _, r := range got {
							gotVals = append(gotVals, strings.SplitN(r, "|", 2)[1])
						}
						for _, v := range want {
							if v == nil {
								wantVals = append(wantVals, "NULL")
							} else {
								wantVals = append(wantVals, bigStr(v, 4))
							}
						}
						eqRows(t, "sorted values", gotVals, wantVals)
					})
				}
			}
		}
	}
}

// TestWideKeys groups and joins by DECIMAL(38) keys (alone and beside an
// integer key) and counts distinct DECIMAL(38) values; equal values meet,
// values that differ only in one word do not.
func TestWideKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 38))
	vals := wideSortVals(rng, 2000)
	str := func(v *big.Int) string {
		if v == nil {
			return "NULL"
		}
		return bigStr(v, 0)
	}
	for _, spill := range []bool{false, true} {
		t.Run(fmt.Sprint("spill", spill), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rows := make([]wideRow, len(vals))
			for i, v := range vals {
				k := int64(i % 3)
				rows[i] = wideRow{key: &k, val: v}
			}
			schema, batches := wideBatches(mem, rows, dec128(0), 29)
			defer releaseBatchList(batches)
			opts := wideOptions(3, 64, spill, mem)

			// GROUP BY v: count(*); GROUP BY k, v: count(*); GROUP BY k: count(DISTINCT v).
			byV, byKV, distinct := map[string]int{}, map[string]int{}, map[string]map[string]bool{}
			for i, v := range vals {
				byV[str(v)]++
				byKV[fmt.Sprint(i%3)+"|"+str(v)]++
				k := fmt.Sprint(i % 3)
				if distinct[k] == nil {
					distinct[k] = map[string]bool{}
				}
				if v != nil {
					distinct[k][str(v)] = true
				}
			}
			v := col(1, dec128(0))
			k := col(0, expr.Int64)
			cnt := AggFunc{Fn: "count_star", Type: expr.Int64}
			for _, c := range []struct {
				name string
				keys []expr.Expr
				agg  AggFunc
				want map[string]int
			}{
				{"by v", []expr.Expr{v}, cnt, byV},
				{"by k, v", []expr.Expr{k, v}, cnt, byKV},
				{"distinct v by k", []expr.Expr{k}, AggFunc{Fn: "count", Distinct: true, Arg: v, Type: expr.Int64}, nil},
			} {
				var fields []arrow.Field
				for i, e := range c.keys {
					fields = append(fields, arrow.Field{Name: fmt.Sprint("k", i), Type: e.DataType(), Nullable: true})
				}
				fields = append(fields, arrow.Field{Name: "n", Type: expr.Int64, Nullable: true})
				h := &HashAggregate{Input: &testSource{schema: schema, batches: batches}, GroupBy: c.keys,
					Aggs: []AggFunc{c.agg}, Out: arrow.NewSchema(fields, nil)}
				got, err := wideRows(t, opts, h)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				var want []string
				if c.want == nil {
					for k, set := range distinct {
						want = append(want, fmt.Sprintf("%s|%d", k, len(set)))
					}
				}
				for key, n := range c.want {
					want = append(want, fmt.Sprintf("%s|%d", key, n))
				}
				slices.Sort(got)
				slices.Sort(want)
				eqRows(t, c.name, got, want)
			}

			// Self join on v (inner): NULLs never match.
			right := &testSource{schema: schema, batches: batches}
			jfields := append(slices.Clone(schema.Fields()), schema.Fields()...)
			j := &HashJoin{Type: expr.JoinInner, Left: &testSource{schema: schema, batches: batches}, Right: right,
				LeftKeys: []expr.Expr{v}, RightKeys: []expr.Expr{v}, Out: arrow.NewSchema(jfields, nil)}
			got, err := wideRows(t, opts, j)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, a := range vals {
				for j, b := range vals {
					if a != nil && b != nil && a.Cmp(b) == 0 {
						want = append(want, fmt.Sprintf("%d|%s|%d|%s", i%3, str(a), j%3, str(b)))
					}
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if len(got) != len(want) {
				t.Fatalf("join: %d rows, want %d", len(got), len(want))
			}
			eqRows(t, "join", got, want)
		})
	}
}

// TestWideWindow: window sums, averages, min/max, lag and first/last
// values over DECIMAL(38) arguments, and sums of BIGINT values near 2^63
// into DECIMAL(38), over ROWS frames, against math/big.
func TestWideWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 38))
	e35 := new(big.Int).Exp(big.NewInt(10), big.NewInt(33), nil) // avg at scale 6 stays within 38 digits
	const n = 300
	type row struct {
		p, o int64
		v, w *big.Int
	}
	rows := make([]row, n)
	for i := range rows {
		rows[i] = row{p: int64(rng.IntN(4)), o: int64(i)}
		if rng.IntN(8) > 0 {
			v := new(big.Int).Mul(e35, big.NewInt(rng.Int64N(20)-10))
			rows[i].v = v.Add(v, big.NewInt(rng.Int64N(1e6)))
		}
		if rng.IntN(8) > 0 {
			rows[i].w = big.NewInt(math.MaxInt64 - rng.Int64N(1000))
			if rng.IntN(3) == 0 {
				rows[i].w.Neg(rows[i].w)
			}
		}
	}
	rng.Shuffle(n, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	vt := dec128(2)
	schema := arrow.NewSchema([]arrow.Field{{Name: "p", Type: expr.Int64}, {Name: "o", Type: expr.Int64},
		{Name: "v", Type: vt, Nullable: true}, {Name: "w", Type: expr.Int64, Nullable: true}}, nil)
	pb, ob, vb, wb := array.NewInt64Builder(mem), array.NewInt64Builder(mem), array.NewDecimal128Builder(mem, vt.(*arrow.Decimal128Type)), array.NewInt64Builder(mem)
	for _, r := range rows {
		pb.Append(r.p)
		ob.Append(r.o)
		if r.v == nil {
			vb.AppendNull()
		} else {
			vb.Append(decimal128.FromBigInt(r.v))
		}
		if r.w == nil {
			wb.AppendNull()
		} else {
			wb.Append(r.w.Int64())
		}
	}
	arrs := []arrow.Array{pb.NewArray(), ob.NewArray(), vb.NewArray(), wb.NewArray()}
	for _, b := range []array.Builder{pb, ob, vb, wb} {
		b.Release()
	}
	batch := array.NewRecordBatch(schema, arrs, n)
	releaseArrays(arrs)
	defer batch.Release()

	rowsFrame := func(start, end expr.FrameKind, k int64) WindowFrame {
		return WindowFrame{Rows: true, Start: FrameBound{Kind: start, Rows: k}, End: FrameBound{Kind: end}}
	}
	last3 := rowsFrame(expr.OffsetPreceding, expr.CurrentRow, 2)
	upto := rowsFrame(expr.UnboundedPreceding, expr.CurrentRow, 0)
	whole := WindowFrame{Rows: true, Start: FrameBound{Kind: expr.UnboundedPreceding}, End: FrameBound{Kind: expr.UnboundedFollowing}}
	v, w := col(2, vt), col(3, expr.Int64)
	funcs := []WindowFunc{
		{Fn: "sum", Args: []expr.Expr{v}, Type: vt, Frame: last3},
		{Fn: "avg", Args: []expr.Expr{v}, Type: dec128(6), Frame: last3},
		{Fn: "sum", Args: []expr.Expr{w}, Type: dec128(0), Frame: upto},
		{Fn: "avg", Args: []expr.Expr{w}, Type: dec128(4), Frame: whole},
		{Fn: "min", Args: []expr.Expr{v}, Type: vt, Frame: last3},
		{Fn: "max", Args: []expr.Expr{v}, Type: vt, Frame: whole},
		{Fn: "first_value", Args: []expr.Expr{v}, Type: vt, Frame: upto},
		{Fn: "last_value", Args: []expr.Expr{v}, Type: vt, Frame: last3},
		{Fn: "lag", Args: []expr.Expr{v, v}, Type: vt, N: 1},
	}
	fields := slices.Clone(schema.Fields())
	for i, f := range funcs {
		fields = append(fields, arrow.Field{Name: fmt.Sprint("f", i), Type: f.Type, Nullable: true})
	}
	win := &Window{Input: &testSource{schema: schema, batches: []arrow.RecordBatch{batch}},
		PartitionBy: []expr.Expr{col(0, expr.Int64)}, OrderBy: []SortKey{{Expr: col(1, expr.Int64)}},
		Funcs: funcs, Out: arrow.NewSchema(fields, nil)}
	got, err := wideRows(t, Options{Threads: 3, BatchSize: 50, Alloc: mem}, win)
	if err != nil {
		t.Fatal(err)
	}

	// The reference: each partition in order of o.
	byPart := map[int64][]row{}
	for _, r := range rows {
		byPart[r.p] = append(byPart[r.p], r)
	}
	s := func(x *big.Int, scale int32) string {
		if x == nil {
			return "NULL"
		}
		return bigStr(x, scale)
	}
	var want []string
	for p, part := range byPart {
		slices.SortFunc(part, func(a, b row) int { return int(a.o - b.o) })
		agg := func(lo, hi int, val func(row) *big.Int) (sum *big.Int, cnt int64, mn, mx, first, last *big.Int) {
			sum = new(big.Int)
			for _, r := range part[max(lo, 0) : hi+1] {
				x := val(r)
				if x == nil {
					continue
				}
				sum.Add(sum, x)
				cnt++
				if mn == nil || x.Cmp(mn) < 0 {
					mn = x
				}
				if mx == nil || x.Cmp(mx) > 0 {
					mx = x
				}
			}
			if lo <= hi {
				first, last = val(part[max(lo, 0)]), val(part[hi])
			}
			return
		}
		gv := func(r row) *big.Int { return r.v }
		gw := func(r row) *big.Int { return r.w }
		for j, r := range part {
			cells := []string{fmt.Sprint(p), fmt.Sprint(r.o), s(r.v, 2), s(r.w, 0)}
			sum3, cnt3, min3, _, _, last3v := agg(j-2, j, gv)
			sumUp, cntUp, _, _, _, _ := agg(0, j, gw)
			sumAll, cntAll, _, _, _, _ := agg(0, len(part)-1, gw)
			_, _, _, maxAll, _, _ := agg(0, len(part)-1, gv)
			_, _, _, _, firstUp, _ := agg(0, j, gv)
			orNull := func(c int64, x *big.Int) *big.Int {
				if c == 0 {
					return nil
				}
				return x
			}
			var avg3, avgAll *big.Int
			if cnt3 > 0 {
				avg3 = bigAvg(sum3, 4, cnt3)
			}
			if cntAll > 0 {
				avgAll = bigAvg(sumAll, 4, cntAll)
			}
			lag := r.v // the default: the row's own v
			if j > 0 {
				lag = part[j-1].v
			}
			cells = append(cells, s(orNull(cnt3, sum3), 2), s(avg3, 6), s(orNull(cntUp, sumUp), 0), s(avgAll, 4),
				s(min3, 2), s(maxAll, 2), s(firstUp, 2), s(last3v, 2), s(lag, 2))
			want = append(want, strings.Join(cells, "|"))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	eqRows(t, "window", got, want)
}

// TestWideWindowWraps: running sums of DECIMAL(38) values pass 2^127
// while each one-row frame's sum fits (exact), and a frame of four rows,
// whose sum 3.6·10^38 passes 2^127 and wraps to 2·10^37, is an error,
// not that value.
func TestWideWindowWraps(t *testing.T) {
	nines, _ := new(big.Int).SetString("90000000000000000000000000000000000000", 10) // 9·10^37
	one := WindowFrame{Rows: true, Start: FrameBound{Kind: expr.CurrentRow}, End: FrameBound{Kind: expr.CurrentRow}}
	whole := WindowFrame{Rows: true, Start: FrameBound{Kind: expr.UnboundedPreceding}, End: FrameBound{Kind: expr.UnboundedFollowing}}
	for _, fr := range []WindowFrame{one, whole} {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		var rows []wideRow
		for i := range 4 {
			k := int64(i)
			rows = append(rows, wideRow{key: &k, val: nines})
		}
		schema, batches := wideBatches(mem, rows, dec128(0), 4)
		f := WindowFunc{Fn: "sum", Args: []expr.Expr{col(1, dec128(0))}, Type: dec128(0), Frame: fr}
		win := &Window{Input: &testSource{schema: schema, batches: batches}, OrderBy: []SortKey{{Expr: col(0, expr.Int64)}},
			Funcs: []WindowFunc{f}, Out: arrow.NewSchema(append(slices.Clone(schema.Fields()), arrow.Field{Name: "s", Type: dec128(0), Nullable: true}), nil)}
		got, err := wideRows(t, Options{Threads: 1, BatchSize: 4, Alloc: mem}, win)
		var want []string
		for i := range 4 {
			want = append(want, fmt.Sprintf("%d|%s|%s", i, nines, nines))
		}
		checkWide(t, fmt.Sprintf("frame %+v", fr), got, err, want, fr == whole)
		releaseBatchList(batches)
		mem.AssertSize(t, 0)
	}
}

// TestWideSumRescaled: a sum whose DECIMAL(38) result has a larger scale
// than its Decimal64 argument multiplies each value exactly in 128 bits.
func TestWideSumRescaled(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	in := &arrow.Decimal64Type{Precision: 18, Scale: 1}
	rows := wideRandRows(rng, 500, 3, in)
	for _, batch := range []int{1, 100} {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		schema, batches := wideBatches(mem, rows, in, batch)
		h := &HashAggregate{Input: &testSource{schema: schema, batches: batches}, GroupBy: []expr.Expr{col(0, expr.Int64)},
			Aggs: []AggFunc{{Fn: "sum", Arg: col(1, in), Type: dec128(19)}},
			Out:  arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "s", Type: dec128(19), Nullable: true}}, nil)}
		got, err := wideRows(t, Options{Threads: 2, BatchSize: batch, Alloc: mem}, h)
		keys, groups := wideRef(rows, true)
		var want []string
		for _, k := range keys {
			g := groups[k]
			if g.count == 0 {
				want = append(want, k+"|NULL")
				continue
			}
			want = append(want, k+"|"+bigStr(new(big.Int).Mul(g.sum, new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)), 19))
		}
		checkWide(t, fmt.Sprint("batches of ", batch), got, err, want, false)
		releaseBatchList(batches)
		mem.AssertSize(t, 0)
	}
}

// TestWideExchangeHash: a DECIMAL(38) key within int64 hashes as the
// Decimal64 of the same value (so ranks agree whichever type a side has),
// NULL as NULL, and keys that differ only in the high word apart.
func TestWideExchangeHash(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	vals := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 12345}
	wb := array.NewDecimal128Builder(mem, dec128(2).(*arrow.Decimal128Type))
	nb := array.NewDecimal64Builder(mem, &arrow.Decimal64Type{Precision: 18, Scale: 2})
	for _, v := range vals {
		wb.Append(decimal128.FromI64(v))
		nb.Append(decimal.Decimal64(v))
	}
	wb.AppendNull()
	nb.AppendNull()
	wb.Append(decimal128.New(1, 5))
	wb.Append(decimal128.New(2, 5))
	w, nw := wb.NewArray(), nb.NewArray()
	wb.Release()
	nb.Release()
	defer w.Release()
	defer nw.Release()
	hw, hn := make([]uint64, w.Len()), make([]uint64, nw.Len())
	if err := hashColumn(w, hw); err != nil {
		t.Fatal(err)
	}
	if err := hashColumn(nw, hn); err != nil {
		t.Fatal(err)
	}
	for i := range hn {
		if hw[i] != hn[i] {
			t.Errorf("row %d: decimal128 hash %x, decimal64 hash %x", i, hw[i], hn[i])
		}
	}
	if a, b := hw[len(hn)], hw[len(hn)+1]; a == b || a == hw[5] {
		t.Errorf("high-word keys hash alike: %x %x", a, b)
	}
}

// TestWidePrune: row-group statistics of a DECIMAL(38) column (128-bit
// values) prune against literals of either width, at the same scale, and
// a literal of another scale prunes nothing.
func TestWidePrune(t *testing.T) {
	c := &expr.Column{Index: 0, Type: dec128(2)}
	big := decimal128.New(1, 0) // 2^64, past int64
	for _, tc := range []struct {
		fn       string
		lit      *expr.Literal
		min, max any
		excluded bool
	}{
		{"gt", &expr.Literal{Value: big, Type: dec128(2)}, decimal128.FromI64(5), decimal128.FromI64(500), true},
		{"gt", &expr.Literal{Value: big, Type: dec128(2)}, decimal128.FromI64(5), big.Add(decimal128.FromI64(1)), false},
		{"lt", &expr.Literal{Value: int64(5), Type: expr.Decimal(10, 2)}, decimal128.FromI64(5), big, true},
		{"lt", &expr.Literal{Value: int64(6), Type: expr.Decimal(10, 2)}, decimal128.FromI64(5), big, false},
		{"eq", &expr.Literal{Value: int64(7), Type: expr.Decimal(10, 3)}, decimal128.FromI64(100), big, false}, // another scale
	} {
		p, ok := asRangePred(&expr.Call{Fn: tc.fn, Args: []expr.Expr{c, tc.lit}, Type: expr.Boolean})
		got := ok && p.excludes(tc.min, tc.max)
		if got != tc.excluded {
			t.Errorf("%s %s over [%v, %v]: excluded %v, want %v", tc.fn, tc.lit, tc.min, tc.max, got, tc.excluded)
		}
	}
}
