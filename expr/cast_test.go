package expr

import (
	"math"
	"slices"
	"testing"
)

// Go's float-to-int conversion of an out-of-range value is not an error
// but an arbitrary int64 (math.MinInt64 on amd64): casts must catch it.
func TestRoundToInt64Bounds(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want int64
		fits bool
	}{
		{0.5, 1, true},
		{-2.5, -3, true},
		{-(1 << 63), math.MinInt64, true},
		{1 << 63, 0, false}, // 9.223372036854775808e18: one past int64
		{9.2233720368547748e18, 9223372036854774784, true}, // the largest double below 2^63
		{9.25e18, 0, false}, // inside the old 9.3e18 bound, past int64
		{-9.25e18, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
	} {
		got, fits := roundToInt64(c.f)
		if fits != c.fits || (fits && got != c.want) {
			t.Errorf("roundToInt64(%v) = %d, %v; want %d, %v", c.f, got, fits, c.want, c.fits)
		}
	}
}

// nn_key_cast keeps every key a value and never lets a key of one side
// that cannot match land on a key of the other.
func TestNotNullKeys(t *testing.T) {
	out := make([]int64, 4)
	notNullKeys(out, []int64{2, math.MaxInt64, math.MinInt64 + 1, -92233720368547759}, 100)
	if want := []int64{200, math.MaxInt64, math.MinInt64, math.MinInt64}; !slices.Equal(out, want) {
		t.Errorf("rescaled side: %v, want %v", out, want)
	}
	notNullKeys(out, []int64{200, math.MaxInt64, math.MinInt64, 7}, 1)
	if want := []int64{200, math.MaxInt64 - 1, math.MinInt64 + 1, 7}; !slices.Equal(out, want) {
		t.Errorf("other side: %v, want %v", out, want)
	}
}
