package planner

import "testing"

func TestDidYouMean(t *testing.T) {
	cols := []string{"l_orderkey", "l_partkey", "l_suppkey", "l_quantity", "name", "nation"}
	for _, tc := range []struct{ name, want string }{
		{"l_orderky", ` (did you mean "l_orderkey"?)`},
		{"orderkey", ` (did you mean "l_orderkey"?)`},
		{"nmae", ` (did you mean "name"?)`},
		{"L_PARTKEY1", ` (did you mean "l_partkey"?)`},
		{"zzz", ""},
		{"l_supkey", ` (did you mean "l_suppkey"?)`},
		{"l_sartkey", ` (did you mean "l_partkey" or "l_suppkey"?)`},
	} {
		if got := didYouMean(tc.name, cols); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
