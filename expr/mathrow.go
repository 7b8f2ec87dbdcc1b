package expr

import (
	"math"

	"gq/errs"
)

// Rows of the DOUBLE functions (fn_log.go, fn_trig.go, fn_power.go, …),
// with MySQL's rules for results outside the reals: a function undefined
// at its argument (ln(0), asin(2), pow(-8, 1/3)) is NULL, and a finite
// argument whose result overflows (exp(1000)) is an error. DuckDB raises
// an error for the undefined arguments instead; the functions' Doc lines
// say so.

// mathRow1 is the row of f(x) over one DOUBLE argument; defined(x) false
// makes the row NULL without calling f.
func mathRow1(fn string, f func(float64) float64, defined func(float64) bool) func([]strArg, int) (float64, bool, error) {
	return func(a []strArg, i int) (float64, bool, error) {
		x := a[0].float(i)
		if defined != nil && !defined(x) {
			return 0, false, nil
		}
		return mathResult(fn, f(x), x)
	}
}

// mathRow2 is mathRow1 for f(x, y).
func mathRow2(fn string, f func(x, y float64) float64, defined func(x, y float64) bool) func([]strArg, int) (float64, bool, error) {
	return func(a []strArg, i int) (float64, bool, error) {
		x, y := a[0].float(i), a[1].float(i)
		if defined != nil && !defined(x, y) {
			return 0, false, nil
		}
		return mathResult(fn, f(x, y), x, y)
	}
}

// mathResult applies the rules above to r = fn(args).
func mathResult(fn string, r float64, args ...float64) (float64, bool, error) {
	finite := true
	for _, x := range args {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			finite = false
		}
	}
	switch {
	case !finite:
		return r, true, nil
	case math.IsNaN(r):
		return 0, false, nil
	case math.IsInf(r, 0):
		return 0, false, errs.New(errs.Execution, "DOUBLE value is out of range in %s", fn)
	}
	return r, true, nil
}

func positive(x float64) bool { return x > 0 }
