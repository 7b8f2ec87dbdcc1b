package duckdb

import "testing"

// TestCellsClose pins the numeric normalisation of the comparison: exact
// for integers, gq's printed scale for decimals, DuckDB's when it dropped
// scale, and nothing looser.
func TestCellsClose(t *testing.T) {
	for _, tc := range []struct {
		gq, duck string
		want     bool
	}{
		{"9223372036854775807", "9223372036854775807", true},
		{"9223372036854775807", "9223372036854775806", false},
		{"2.5000", "2.5", true}, // AVG: DECIMAL scale+4 vs DOUBLE
		{"1.6667", "1.6666666666666667", true},
		{"1.6667", "1.67", true}, // DuckDB dropped scale
		{"1.984755", "1.98", true},
		{"1.984755", "1.97", false},
		{"1.6667", "1.6657", false},
		{"1e-01", "0.100001", false}, // gq DOUBLEs come in exponent form
		{"1e-01", "0.1", true},
		{"3.3333333333333335e-01", "0.3333333333333333", true},
		{"true", "1", true},
		{"", "\x00NULL", false},
		{"abc", "abd", false},
		{"+Inf", "inf", true},
	} {
		if got := cellsClose(tc.gq, tc.duck); got != tc.want {
			t.Errorf("cellsClose(%q, %q) = %v, want %v", tc.gq, tc.duck, got, tc.want)
		}
	}
}
