package exec

import "testing"

func TestUncovered(t *testing.T) {
	iv := func(p ...int64) []interval {
		var out []interval
		for i := 0; i < len(p); i += 2 {
			out = append(out, interval{p[i], p[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		ws, cover []interval
		want      int64
	}{
		{iv(0, 10), nil, 10},
		{iv(0, 10), iv(2, 4), 8},
		{iv(0, 10), iv(-5, 3, 8, 20), 5},
		{iv(0, 10, 20, 30), iv(5, 25), 10},
		{iv(0, 10), iv(0, 10), 0},
		{iv(0, 10, 12, 14), iv(1, 2, 3, 4, 13, 20), 9},
	} {
		if got := uncovered(tc.ws, tc.cover); got != tc.want {
			t.Errorf("uncovered(%v, %v) = %d, want %d", tc.ws, tc.cover, got, tc.want)
		}
	}
	if got := union([][]interval{iv(0, 5, 10, 12), iv(3, 7, 11, 15)}); len(got) != 2 || got[0] != (interval{0, 7}) || got[1] != (interval{10, 15}) {
		t.Errorf("union = %v", got)
	}
}
