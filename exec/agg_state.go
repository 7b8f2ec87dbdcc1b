package exec

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// aggState holds one aggregate's running values for every group, in typed
// arrays indexed by group id. Calls are per batch, loops inside are typed.
type aggState interface {
	// resize makes room for groups 0..n-1 (new groups start empty).
	resize(n int)
	// update folds row i of arg into group gids[i] (arg nil: count_star).
	update(gids []int32, arg arrow.Array) error
	// merge folds group src[i] of from (same concrete type) into dst[i].
	merge(from aggState, src, dst []int32) error
	// result returns the values of groups 0..n-1.
	result(mem memory.Allocator, n int) (arrow.Array, error)
}

func newAggState(f AggFunc) (aggState, error) {
	var at arrow.DataType
	if f.Arg != nil {
		at = f.Arg.DataType()
	}
	if s, ok, err := moreAggState(f, at); ok {
		return s, err
	}
	switch f.Fn {
	case "count_star":
		return &countState{star: true}, nil
	case "count":
		return &countState{}, nil
	case "sum", "avg":
		if at == nil {
			break
		}
		avg := f.Fn == "avg"
		switch at.ID() {
		case arrow.FLOAT64:
			return &floatSumState{avg: avg}, nil
		case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128:
			wide := avg || f.Type.ID() == arrow.DECIMAL128 || f.Type.ID() == arrow.FLOAT64
			st := &intSumState{avg: avg, wide: wide, out: f.Type}
			inScale := decScale(at)
			if f.Type.ID() == arrow.FLOAT64 {
				st.toFloat, st.inScale = true, inScale
				return st, nil
			}
			outScale := decScale(f.Type)
			k := outScale - inScale
			if k < 0 || k > 18 || at.ID() == arrow.DECIMAL128 && !avg && k > 0 {
				return nil, errs.New(errs.Unsupported, "%s of %s as %s (a change of scale by %d)", f.Fn, at, f.Type, k)
			}
			if avg {
				st.resultMul = pow10i(k)
			} else {
				st.inMul = pow10i(k)
			}
			return st, nil
		}
	case "min", "max":
		if at == nil {
			break
		}
		isMax := f.Fn == "max"
		switch at.ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.FLOAT64, arrow.DATE32, arrow.STRING, arrow.BOOL,
			arrow.TIMESTAMP, arrow.TIME64:
			return &minMaxState{isMax: isMax, typ: at}, nil
		}
	}
	return nil, errs.New(errs.Unsupported, "aggregate %s of %v", f.Fn, at)
}

func pow10i(k int32) int64 {
	p := int64(1)
	for range k {
		p *= 10
	}
	return p
}

// countState: count(*) or count(x) (non-NULL x).
type countState struct {
	star   bool
	counts []int64
}

func (s *countState) resize(n int) { s.counts = growZero(s.counts, n) }

func growZero[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n <= cap(s) {
		old := len(s)
		s = s[:n]
		clear(s[old:])
		return s
	}
	ns := make([]T, n, max(n, 2*cap(s)))
	copy(ns, s)
	return ns
}

// fewGroupsUpdater is an aggState that can use the rows per group of the
// batch, counted once for all of an aggregation's states (q01's eight
// aggregates over four groups otherwise each counted them again).
type fewGroupsUpdater interface {
	// updateFew is update given rows[g], the number of gids equal to g;
	// false: not applicable here (update instead).
	updateFew(gids []int32, arg arrow.Array, rows []int64) (bool, error)
}

func (s *countState) updateFew(gids []int32, arg arrow.Array, rows []int64) (bool, error) {
	if !s.star && (arg == nil || arg.NullN() > 0) {
		return false, nil
	}
	for g, n := range rows {
		s.counts[g] += n
	}
	return true, nil
}

func (s *intSumState) updateFew(gids []int32, arg arrow.Array, rows []int64) (bool, error) {
	s.keepCounts()
	if arg == nil || arg.NullN() > 0 || s.inMul > 1 || len(s.sums) > laneGroups {
		return false, nil
	}
	vals, err := sumInputs(arg)
	if err != nil {
		return false, nil
	}
	var lanes [4 * laneGroups]int64
	var ovf int64
	vals = vals[:len(gids)]
	for i, g := range gids {
		l := int(g)<<2 | i&3
		a, v := lanes[l], vals[i]
		r := a + v
		ovf |= (a ^ r) & (v ^ r)
		lanes[l] = r
	}
	for g := range s.sums {
		for l := g << 2; l < g<<2+4; l++ {
			a, v := s.sums[g], lanes[l]
			r := a + v
			ovf |= (a ^ r) & (v ^ r)
			s.sums[g] = r
		}
		s.counts[g] += rows[g]
	}
	if ovf < 0 {
		for g := range s.sums {
			for l := g << 2; l < g<<2+4; l++ {
				s.sums[g] -= lanes[l]
			}
			s.counts[g] -= rows[g]
		}
		return true, s.overflowed(gids, vals, nil)
	}
	return true, nil
}

func (s *countState) update(gids []int32, arg arrow.Array) error {
	c := s.counts
	if (s.star || arg.NullN() == 0) && len(c) == 1 {
		c[0] += int64(len(gids)) // one group (no GROUP BY)
		return nil
	}
	if s.star || arg.NullN() == 0 {
		for _, g := range gids {
			c[g]++
		}
		return nil
	}
	for i, g := range gids {
		if arg.IsValid(i) {
			c[g]++
		}
	}
	return nil
}

func (s *countState) merge(from aggState, src, dst []int32) error {
	f := from.(*countState)
	for i, g := range src {
		s.counts[dst[i]] += f.counts[g]
	}
	return nil
}

func (s *countState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	return aggArray(mem, arrow.PrimitiveTypes.Int64, s.counts[:n], nil), nil
}

// intSumState: sum/avg of Int64 or Decimal64, or of a Decimal128 whose
// batches may come as Decimal64 where every value fits an int64 (the
// argument is then evaluated narrow: aggPlan.narrow). Rows are added in int64,
// wrapping; a batch whose adds overflow is taken back (wrapping
// subtraction restores the sums exactly), then, where the result may pass
// int64 (wide: a DECIMAL(38) or DOUBLE result, or avg), added again
// carrying into hi, else the overflow is an Execution error. Group g's
// exact sum is hi[g]*2^64 + sums[g] (sums[g] signed); hi stays nil until
// a batch overflows, so sums that fit in int64 cost what they did before
// sums could pass it. counts is the number of non-NULL values (0: NULL).
type intSumState struct {
	avg       bool
	wide      bool
	out       arrow.DataType
	inMul     int64 // sum: rescale input to the result's scale
	resultMul int64 // avg: 10^(result scale - input scale)
	toFloat   bool  // result Float64: the sum·10^-inScale as a double
	inScale   int32
	sums      []int64
	hi        []int64
	counts    []int64
	// countless: counts is nil; every group below covered has had a
	// non-NULL value, none at or above it a row yet. A plain sum needs a
	// group's count only to tell an all-NULL group (NULL) from the rest,
	// and an aggregation by a near-unique key (TPC-H q18's by l_orderkey)
	// would keep a count per group for nothing. Set by aggPlan.newStates
	// for a sum whose every update and merge covers each new group (a
	// window's frames or a distinct aggregate's merge may not). The first
	// batch with a NULL, or a path that counts, makes the counts
	// (keepCounts).
	countless bool
	covered   int
}

var errSumOverflow = errs.New(errs.Execution, "sum overflows the range of its type (BIGINT / DECIMAL(18))")

func (s *intSumState) resize(n int) {
	s.sums = growZero(s.sums, n)
	if !s.countless {
		s.counts = growZero(s.counts, n)
	}
	if s.hi != nil {
		s.hi = growZero(s.hi, n)
	}
}

// keepCounts leaves countless mode: each covered group counts one value,
// which is all that a plain sum reads of a count.
func (s *intSumState) keepCounts() {
	if !s.countless {
		return
	}
	s.countless = false
	s.counts = make([]int64, len(s.sums), cap(s.sums))
	for g := range s.covered {
		s.counts[g] = 1
	}
}

// countOf is group g's count of non-NULL values, or 1 for any covered
// group when countless.
func (s *intSumState) countOf(g int32) int64 {
	if !s.countless {
		return s.counts[g]
	}
	if int(g) < s.covered {
		return 1
	}
	return 0
}

// updateCountless adds a batch without NULLs to many groups while
// countless; false: the batch needs the counting paths.
func (s *intSumState) updateCountless(gids []int32, arg arrow.Array) (bool, error) {
	if arg.NullN() > 0 || s.inMul > 1 || len(s.sums) <= laneGroups {
		return false, nil
	}
	vals, err := sumInputs(arg)
	if err != nil {
		return false, nil // Decimal128 batches: addW128
	}
	sums := s.sums
	var ovf int64
	vals = vals[:len(gids)]
	for i, g := range gids {
		v := vals[i]
		a := sums[g]
		r := a + v
		ovf |= (a ^ r) & (v ^ r)
		sums[g] = r
	}
	if ovf < 0 {
		for i, g := range gids {
			sums[g] -= vals[i]
		}
		s.keepCounts()
		return true, s.overflowed(gids, vals, nil)
	}
	s.covered = len(sums)
	return true, nil
}

// at is group g's exact sum.
func (s *intSumState) at(g int) decimal128.Num {
	lo := s.sums[g]
	var hi int64
	if s.hi != nil {
		hi = s.hi[g]
	}
	return decimal128.New(hi+lo>>63, uint64(lo))
}

// set makes n group g's sum.
func (s *intSumState) set(g int, n decimal128.Num) {
	if s.hi == nil {
		s.hi = make([]int64, len(s.sums), cap(s.sums))
	}
	lo := int64(n.LowBits())
	s.sums[g] = lo
	s.hi[g] = n.HighBits() - lo>>63
}

// overflowed handles a batch whose int64 adds overflowed and were taken
// back: an error where the result is int64, else the batch added exactly.
func (s *intSumState) overflowed(gids []int32, vals []int64, arg arrow.Array) error {
	if !s.wide {
		return errSumOverflow
	}
	return s.addWide(gids, vals, arg)
}

// addWide adds the non-NULL rows of a batch (arg nil: none is NULL)
// exactly: an add that overflows int64 carries into hi.
func (s *intSumState) addWide(gids []int32, vals []int64, arg arrow.Array) error {
	if s.hi == nil {
		s.hi = make([]int64, len(s.sums), cap(s.sums))
	}
	hasNulls := arg != nil && arg.NullN() > 0
	sums, his, counts := s.sums, s.hi, s.counts
	for i, g := range gids {
		if hasNulls && arg.IsNull(i) {
			continue
		}
		v := vals[i]
		if s.inMul > 1 {
			n, ovf := add128(s.at(int(g)), mul128(v, uint64(s.inMul)).num())
			if ovf {
				return errWideSumOverflow
			}
			s.set(int(g), n)
			counts[g]++
			continue
		}
		a := sums[g]
		r := a + v
		if (a^r)&(v^r) < 0 {
			his[g] += v>>63 | 1 // past MaxInt64: +2^64; past MinInt64: -2^64
		}
		sums[g] = r
		counts[g]++
	}
	return nil
}

// addW128 adds a batch of 128-bit values exactly. A value is
// (hi + lo's top bit)·2^64 + int64(lo), so its low word joins sums[g] as a
// signed int64 (carrying into hi as addWide does) and the rest joins hi.
func (s *intSumState) addW128(gids []int32, a *array.Decimal128) error {
	if s.inMul > 1 {
		return errs.New(errs.Internal, "sum of %s rescaled", a.DataType())
	}
	if s.hi == nil {
		s.hi = make([]int64, len(s.sums), cap(s.sums))
	}
	vals := a.Values()[:len(gids)]
	hasNulls := a.NullN() > 0
	sums, his, counts := s.sums, s.hi, s.counts
	var ovf int64
	for i, g := range gids {
		if hasNulls && a.IsNull(i) {
			continue
		}
		v := vals[i]
		x := int64(v.LowBits())
		h := v.HighBits() - x>>63
		l := sums[g]
		r := l + x
		if (l^r)&(x^r) < 0 {
			h += x>>63 | 1
		}
		sums[g] = r
		o := his[g]
		n := o + h
		ovf |= (o ^ n) & (h ^ n)
		his[g] = n
		counts[g]++
	}
	if ovf < 0 {
		return errWideSumOverflow
	}
	return nil
}

func sumInputs(arg arrow.Array) ([]int64, error) {
	switch a := arg.(type) {
	case *array.Int64:
		return a.Int64Values(), nil
	case *array.Decimal64:
		return asInt64s(a.Values()), nil
	}
	return nil, errs.New(errs.Internal, "sum of %s", arg.DataType())
}

func (s *intSumState) update(gids []int32, arg arrow.Array) error {
	if s.countless {
		if ok, err := s.updateCountless(gids, arg); ok {
			return err
		}
		s.keepCounts()
	}
	if w, ok := arg.(*array.Decimal128); ok {
		return s.addW128(gids, w)
	}
	vals, err := sumInputs(arg)
	if err != nil {
		return err
	}
	sums, counts := s.sums, s.counts
	hasNulls := arg.NullN() > 0
	if !hasNulls && s.inMul <= 1 && len(sums) == 1 {
		// One group (no GROUP BY): a register accumulates.
		var ovf int64
		a := sums[0]
		for _, v := range vals[:len(gids)] {
			r := a + v
			ovf |= (a ^ r) & (v ^ r)
			a = r
		}
		if ovf < 0 {
			return s.overflowed(gids, vals, nil) // nothing stored yet
		}
		sums[0] = a
		counts[0] += int64(len(gids))
		return nil
	}
	if !hasNulls && s.inMul <= 1 && len(sums) <= laneGroups {
		return s.updateFewGroups(gids, vals[:len(gids)])
	}
	if !hasNulls && s.inMul <= 1 {
		// The common case, without branches: a sign bit collects overflow.
		var ovf int64
		vals = vals[:len(gids)]
		for i, g := range gids {
			v := vals[i]
			a := sums[g]
			r := a + v
			ovf |= (a ^ r) & (v ^ r)
			sums[g] = r
			counts[g]++
		}
		if ovf < 0 {
			for i, g := range gids {
				sums[g] -= vals[i]
				counts[g]--
			}
			return s.overflowed(gids, vals, nil)
		}
		return nil
	}
	if s.wide {
		return s.addWide(gids, vals, arg)
	}
	overflow := false
	for i, g := range gids {
		if hasNulls && arg.IsNull(i) {
			continue
		}
		v := vals[i]
		if s.inMul > 1 {
			hi, lo := bits.Mul64(uint64(absI(v)), uint64(s.inMul))
			if hi != 0 || lo > math.MaxInt64 {
				overflow = true
			}
			v *= s.inMul
		}
		a := sums[g]
		r := a + v
		if (a^r)&(v^r) < 0 {
			overflow = true
		}
		sums[g] = r
		counts[g]++
	}
	if overflow {
		return errSumOverflow
	}
	return nil
}

// laneGroups: with this many groups or fewer (TPC-H q01 has four), rows
// are summed into four interleaved copies of the sums. Consecutive rows of
// one group would otherwise each wait for the previous row's store to the
// same sum; four independent chains keep the adder busy.
const laneGroups = 32

func (s *intSumState) updateFewGroups(gids []int32, vals []int64) error {
	var lanes, counts [4 * laneGroups]int64
	var ovf int64
	for i, g := range gids {
		l := int(g)<<2 | i&3
		a, v := lanes[l], vals[i]
		r := a + v
		ovf |= (a ^ r) & (v ^ r)
		lanes[l] = r
		counts[l]++
	}
	for g := range s.sums {
		for l := g << 2; l < g<<2+4; l++ {
			a, v := s.sums[g], lanes[l]
			r := a + v
			ovf |= (a ^ r) & (v ^ r)
			s.sums[g] = r
			s.counts[g] += counts[l]
		}
	}
	if ovf < 0 {
		for g := range s.sums {
			for l := g << 2; l < g<<2+4; l++ {
				s.sums[g] -= lanes[l]
				s.counts[g] -= counts[l]
			}
		}
		return s.overflowed(gids, vals, nil)
	}
	return nil
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func (s *intSumState) merge(from aggState, src, dst []int32) error {
	f := from.(*intSumState)
	if s.countless && !(f.countless && f.covered == len(f.sums)) {
		s.keepCounts() // f has groups without a value
	}
	counted := !s.countless
	if s.hi == nil && f.hi == nil {
		var ovf int64
		for i, g := range src {
			d := dst[i]
			a, v := s.sums[d], f.sums[g]
			r := a + v
			ovf |= (a ^ r) & (v ^ r)
			s.sums[d] = r
			if counted {
				s.counts[d] += f.countOf(g)
			}
		}
		if ovf >= 0 {
			s.mergedCountless()
			return nil
		}
		if !s.wide {
			return errSumOverflow
		}
		for i, g := range src {
			s.sums[dst[i]] -= f.sums[g]
			if counted {
				s.counts[dst[i]] -= f.countOf(g)
			}
		}
	}
	for i, g := range src {
		d := int(dst[i])
		n, ovf := add128(s.at(d), f.at(int(g)))
		if ovf {
			return errWideSumOverflow
		}
		s.set(d, n)
		if counted {
			s.counts[d] += f.countOf(g)
		}
	}
	s.mergedCountless()
	return nil
}

// mergedCountless notes, when countless, that a merge of groups that all
// had values covered every group (each new group is among its dst).
func (s *intSumState) mergedCountless() {
	if s.countless {
		s.covered = len(s.sums)
	}
}

// fits reports whether group g's sum is within int64.
func (s *intSumState) fits(g int) bool {
	return s.hi == nil || s.hi[g] == 0
}

func (s *intSumState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	if s.countless && s.covered < n {
		s.keepCounts()
	}
	var valid []bool // nil: every group has a value
	if !s.countless {
		valid = make([]bool, n)
		for g := range n {
			valid[g] = s.counts[g] > 0
		}
	}
	if s.toFloat {
		out := make([]float64, n)
		for g := range n {
			if valid == nil || valid[g] {
				if s.fits(g) {
					out[g] = expr.DecimalToFloat64(s.sums[g], s.inScale)
				} else {
					out[g] = expr.Decimal128ToFloat64(s.at(g), s.inScale)
				}
				if s.avg {
					out[g] /= float64(s.counts[g])
				}
			}
		}
		return aggArray(mem, s.out, out, valid), nil
	}
	if s.out.ID() == arrow.DECIMAL128 {
		out := make([]decimal128.Num, n)
		for g := range n {
			if !(valid == nil || valid[g]) {
				continue
			}
			v, ok := s.at(g), true
			if s.avg {
				v, ok = avgRound128(v, s.resultMul, s.counts[g])
			}
			if !ok || !fitsDigits(v, maxDecimalDigits) {
				return nil, errWideSumOverflow
			}
			out[g] = v
		}
		return aggArray(mem, s.out, out, valid), nil
	}
	if !s.avg {
		if s.hi == nil {
			return aggArray(mem, s.out, s.sums[:n], valid), nil
		}
		for g := range n {
			if (valid == nil || valid[g]) && !s.fits(g) {
				return nil, errSumOverflow
			}
		}
		return aggArray(mem, s.out, s.sums[:n], valid), nil
	}
	out := make([]int64, n)
	for g := range n {
		if !(valid == nil || valid[g]) {
			continue
		}
		if s.fits(g) {
			if v, ok := expr.MulDivRound(s.sums[g], s.resultMul, s.counts[g]); ok {
				out[g] = v
				continue
			}
		}
		v, ok := avgRound128(s.at(g), s.resultMul, s.counts[g])
		if !ok || !fitsInt64(v) {
			return nil, errSumOverflow
		}
		out[g] = int64(v.LowBits())
	}
	return aggArray(mem, s.out, out, valid), nil
}

// avgOfSum is avg(x) answered from the state of sum(x) in the same
// aggregation (aggPlan.sumOf): sum's running sums and counts, read when
// the result is made; updates and merges go to sum's state alone.
type avgOfSum struct {
	sum *intSumState // sum(x)'s state, shared
	avg *intSumState // avg(x)'s own settings (result type and scales)
}

func (s *avgOfSum) resize(int) {}

func (s *avgOfSum) update([]int32, arrow.Array) error {
	return errs.New(errs.Internal, "avg shares the state of a sum and takes no rows")
}

func (s *avgOfSum) merge(aggState, []int32, []int32) error { return nil }

func (s *avgOfSum) result(mem memory.Allocator, n int) (arrow.Array, error) {
	s.avg.sums, s.avg.hi, s.avg.counts = s.sum.sums, s.sum.hi, s.sum.counts
	return s.avg.result(mem, n)
}

// floatSumState: sum/avg of Float64.
type floatSumState struct {
	avg    bool
	sums   []float64
	counts []int64
}

func (s *floatSumState) resize(n int) {
	s.sums = growZero(s.sums, n)
	s.counts = growZero(s.counts, n)
}

func (s *floatSumState) update(gids []int32, arg arrow.Array) error {
	a, ok := arg.(*array.Float64)
	if !ok {
		return errs.New(errs.Internal, "float sum of %s", arg.DataType())
	}
	vals := a.Float64Values()
	hasNulls := a.NullN() > 0
	for i, g := range gids {
		if hasNulls && a.IsNull(i) {
			continue
		}
		s.sums[g] += vals[i]
		s.counts[g]++
	}
	return nil
}

func (s *floatSumState) merge(from aggState, src, dst []int32) error {
	f := from.(*floatSumState)
	for i, g := range src {
		s.sums[dst[i]] += f.sums[g]
		s.counts[dst[i]] += f.counts[g]
	}
	return nil
}

func (s *floatSumState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	valid := make([]bool, n)
	out := make([]float64, n)
	for g := range n {
		if valid[g] = s.counts[g] > 0; valid[g] {
			out[g] = s.sums[g]
			if s.avg {
				out[g] /= float64(s.counts[g])
			}
		}
	}
	return aggArray(mem, arrow.PrimitiveTypes.Float64, out, valid), nil
}

// asInt64s views decimal values as int64 (same layout).
func asInt64s[T ~int64](v []T) []int64 {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&v[0])), len(v))
}

// aggArray copies vals into an array of type dt (Int64, Decimal64,
// Float64, Decimal128, or Date32 from int32); valid nil means no NULLs.
func aggArray[T int32 | int64 | float64 | decimal128.Num](mem memory.Allocator, dt arrow.DataType, vals []T, valid []bool) arrow.Array {
	n := len(vals)
	buf := memory.NewResizableBuffer(mem)
	var zero T
	buf.Resize(n * int(unsafe.Sizeof(zero)))
	if n > 0 {
		copy(unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n), vals)
	}
	var bitmap *memory.Buffer
	nulls := 0
	for _, v := range valid {
		if !v {
			nulls++
		}
	}
	if nulls > 0 {
		bitmap = memory.NewResizableBuffer(mem)
		bitmap.Resize(int(bitutil.BytesForBits(int64(n))))
		bm := bitmap.Bytes()
		for i, v := range valid {
			if v {
				bitutil.SetBit(bm, i)
			} else {
				bitutil.ClearBit(bm, i)
			}
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, buf}, nil, nulls, 0)
	buf.Release()
	if bitmap != nil {
		bitmap.Release()
	}
	a := array.MakeFromData(data)
	data.Release()
	return a
}
