package exec

import (
	"cmp"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// The aggregates of two arguments: covar_pop, covar_samp, corr, the
// regr_* family (y, x: both DOUBLE, rows where either is NULL skipped)
// and arg_max/arg_min (arg, val). The planner hands both arguments as one
// struct_pack(first, second) value, so that hash aggregation, its spill,
// exchanges and windows move them as they move any argument; a NULL
// struct (a correlated subquery's padding) counts as a NULL pair.

// isPairAgg reports whether fn is one of these aggregates.
func isPairAgg(fn string) bool {
	switch fn {
	case "covar_pop", "covar_samp", "corr", "regr_count", "regr_slope", "regr_intercept", "regr_r2",
		"regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "arg_max", "arg_min":
		return true
	}
	return false
}

// pairAggState is moreAggState for these aggregates.
func pairAggState(f AggFunc, at arrow.DataType) (aggState, error) {
	st, ok := at.(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return nil, errs.New(errs.Internal, "aggregate %s of %v: want a pair of arguments", f.Fn, at)
	}
	a, b := st.Field(0).Type, st.Field(1).Type
	if f.Fn == "arg_max" || f.Fn == "arg_min" {
		return newArgState(f.Fn == "arg_max", a, b)
	}
	if a.ID() != arrow.FLOAT64 || b.ID() != arrow.FLOAT64 {
		return nil, errs.New(errs.Internal, "aggregate %s of %s, %s: want DOUBLEs", f.Fn, a, b)
	}
	return &momentState{fn: f.Fn}, nil
}

// pairOf is the two arguments of a pair row by row and where the pair
// itself is NULL.
func pairOf(arg arrow.Array) (a, b arrow.Array, err error) {
	s, ok := arg.(*array.Struct)
	if !ok || s.NumField() != 2 {
		return nil, nil, errs.New(errs.Internal, "aggregate of two arguments given %s", arg.DataType())
	}
	return s.Field(0), s.Field(1), nil
}

// momentState: the co-moment of y and x, both variances and both sums of
// the rows where neither is NULL, updated as DuckDB updates them (Welford
// for the variances, Schubert and Gertz for the co-moment; Chan's merge),
// so that every one of the family is a formula of the same state.
type momentState struct {
	fn        string
	n         []int64
	mx, my, c []float64 // means and co-moment
	m2x, m2y  []float64 // sums of squared deviations
	sx, sy    []float64 // plain sums (regr_avgx/y and regr_intercept's averages)
}

func (s *momentState) resize(n int) {
	s.n = growZero(s.n, n)
	for _, p := range []*[]float64{&s.mx, &s.my, &s.c, &s.m2x, &s.m2y, &s.sx, &s.sy} {
		*p = growZero(*p, n)
	}
}

func (s *momentState) update(gids []int32, arg arrow.Array) error {
	ya, xa, err := pairOf(arg)
	if err != nil {
		return err
	}
	yv, ok1 := ya.(*array.Float64)
	xv, ok2 := xa.(*array.Float64)
	if !ok1 || !ok2 {
		return errs.New(errs.Internal, "%s of %s, %s", s.fn, ya.DataType(), xa.DataType())
	}
	ys, xs := yv.Float64Values(), xv.Float64Values()
	nulls := arg.NullN() > 0 || ya.NullN() > 0 || xa.NullN() > 0
	for i, g := range gids {
		if nulls && (arg.IsNull(i) || ya.IsNull(i) || xa.IsNull(i)) {
			continue
		}
		y, x := ys[i], xs[i]
		s.n[g]++
		n := float64(s.n[g])
		dx, dy := x-s.mx[g], y-s.my[g]
		mx, my := s.mx[g]+dx/n, s.my[g]+dy/n
		s.c[g] += dx * (y - my)
		s.m2x[g] += (x - mx) * dx
		s.m2y[g] += (y - my) * dy
		s.mx[g], s.my[g] = mx, my
		s.sx[g] += x
		s.sy[g] += y
	}
	return nil
}

func (s *momentState) merge(from aggState, src, dst []int32) error {
	f := from.(*momentState)
	for i, g := range src {
		d := dst[i]
		nb := f.n[g]
		if nb == 0 {
			continue
		}
		na := s.n[d]
		s.sx[d] += f.sx[g]
		s.sy[d] += f.sy[g]
		if na == 0 {
			s.n[d], s.mx[d], s.my[d], s.c[d], s.m2x[d], s.m2y[d] = nb, f.mx[g], f.my[g], f.c[g], f.m2x[g], f.m2y[g]
			continue
		}
		ta, tb := float64(na), float64(nb)
		t := ta + tb
		dx, dy := s.mx[d]-f.mx[g], s.my[d]-f.my[g]
		w := ta * tb / t
		s.c[d] += f.c[g] + dx*dy*w
		s.m2x[d] += f.m2x[g] + dx*dx*w
		s.m2y[d] += f.m2y[g] + dy*dy*w
		s.mx[d] = (tb*f.mx[g] + ta*s.mx[d]) / t
		s.my[d] = (tb*f.my[g] + ta*s.my[d]) / t
		s.n[d] = na + nb
	}
	return nil
}

func (s *momentState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	if s.fn == "regr_count" {
		return aggArray(mem, arrow.PrimitiveTypes.Int64, s.n[:n], nil), nil
	}
	vals := make([]float64, n)
	valid := make([]bool, n)
	for g := range n {
		vals[g], valid[g] = s.value(g)
	}
	return aggArray(mem, arrow.PrimitiveTypes.Float64, vals, valid), nil
}

// value is group g's result (DuckDB's finalizers: NaN where a variance
// that divides is 0, NULL where there are too few rows).
func (s *momentState) value(g int) (float64, bool) {
	k := s.n[g]
	if k == 0 {
		return 0, false
	}
	n := float64(k)
	// A single row's variance is 0, whatever rounding left in m2.
	varx, vary := 0.0, 0.0
	if k > 1 {
		varx, vary = s.m2x[g]/n, s.m2y[g]/n
	}
	cov := s.c[g] / n
	slope := math.NaN()
	if varx != 0 {
		slope = cov / varx
	}
	corr := func() float64 {
		if sd := math.Sqrt(varx) * math.Sqrt(vary); sd != 0 {
			return cov / sd
		}
		return math.NaN()
	}
	switch s.fn {
	case "covar_pop":
		return cov, true
	case "covar_samp":
		if k < 2 {
			return 0, false
		}
		return s.c[g] / (n - 1), true
	case "corr":
		return corr(), true
	case "regr_slope":
		return slope, true
	case "regr_intercept":
		if math.IsNaN(slope) {
			return 0, false
		}
		return s.sy[g]/n - slope*(s.sx[g]/n), true
	case "regr_r2":
		switch {
		case varx == 0:
			return 0, false
		case vary == 0:
			return 1, true
		}
		r := corr()
		return r * r, true
	case "regr_avgx":
		return s.sx[g] / n, true
	case "regr_avgy":
		return s.sy[g] / n, true
	case "regr_sxx":
		return n * varx, true
	case "regr_syy":
		return n * vary, true
	case "regr_sxy":
		return n * cov, true
	}
	return 0, false
}

// argState: arg_max(a, v) and arg_min(a, v), the a of the row whose v is
// greatest (least), rows where either is NULL skipped; of equal v the
// first row fed wins (a window frame's first in row order).
type argState[A, V int64 | float64 | decimal128.Num | string] struct {
	isMax bool
	out   arrow.DataType
	cmp   func(x, y V) int
	has   []bool
	arg   []A
	val   []V
}

// newArgState picks argState's instance for a's and v's types.
func newArgState(isMax bool, a, v arrow.DataType) (aggState, error) {
	switch v.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.BOOL:
		return argStateOf(isMax, a, cmp.Compare[int64])
	case arrow.FLOAT64:
		return argStateOf(isMax, a, expr.CompareFloat)
	case arrow.DECIMAL128:
		return argStateOf(isMax, a, func(x, y decimal128.Num) int { return x.Cmp(y) })
	case arrow.STRING:
		return argStateOf(isMax, a, strings.Compare)
	}
	return nil, errs.New(errs.Unsupported, "arg_max/arg_min by %s", v)
}

func argStateOf[V int64 | float64 | decimal128.Num | string](isMax bool, a arrow.DataType, c func(x, y V) int) (aggState, error) {
	switch a.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.BOOL:
		return &argState[int64, V]{isMax: isMax, out: a, cmp: c}, nil
	case arrow.FLOAT64:
		return &argState[float64, V]{isMax: isMax, out: a, cmp: c}, nil
	case arrow.DECIMAL128:
		return &argState[decimal128.Num, V]{isMax: isMax, out: a, cmp: c}, nil
	case arrow.STRING:
		return &argState[string, V]{isMax: isMax, out: a, cmp: c}, nil
	}
	return nil, errs.New(errs.Unsupported, "arg_max/arg_min of %s", a)
}

func (s *argState[A, V]) resize(n int) {
	s.has, s.arg, s.val = growZero(s.has, n), growZero(s.arg, n), growZero(s.val, n)
}

// better reports whether v beats group g's value (strictly).
func (s *argState[A, V]) better(g int32, v V) bool {
	if !s.has[g] {
		return true
	}
	c := s.cmp(v, s.val[g])
	return s.isMax && c > 0 || !s.isMax && c < 0
}

func (s *argState[A, V]) update(gids []int32, arg arrow.Array) error {
	aa, va, err := pairOf(arg)
	if err != nil {
		return err
	}
	getA, err := valueGetter[A](aa)
	if err != nil {
		return err
	}
	getV, err := valueGetter[V](va)
	if err != nil {
		return err
	}
	for i, g := range gids {
		if arg.IsNull(i) || aa.IsNull(i) || va.IsNull(i) {
			continue
		}
		if v := getV(i); s.better(g, v) {
			s.has[g], s.arg[g], s.val[g] = true, getA(i), v
		}
	}
	return nil
}

func (s *argState[A, V]) merge(from aggState, src, dst []int32) error {
	f := from.(*argState[A, V])
	for i, g := range src {
		if d := dst[i]; f.has[g] && s.better(d, f.val[g]) {
			s.has[d], s.arg[d], s.val[d] = true, f.arg[g], f.val[g]
		}
	}
	return nil
}

func (s *argState[A, V]) result(mem memory.Allocator, n int) (arrow.Array, error) {
	bld := array.NewBuilder(mem, s.out)
	defer bld.Release()
	bld.Reserve(n)
	for g := range n {
		if !s.has[g] {
			bld.AppendNull()
		} else if err := appendValue(bld, s.arg[g]); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}
