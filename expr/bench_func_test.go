package expr

import "testing"

// Registered functions over the benchmark batch, as the planner types
// them: each runs its registry entry's CPU kernel.
func BenchmarkFunctions(b *testing.B) {
	for _, c := range []struct {
		name string
		e    Expr
	}{
		{"year", call("extract_year", Int64, col(2, Date))},
		{"date_add_months", call("date_add_months", Date, col(2, Date), lit(int64(3), Int64))},
		{"substring", call("substring", String, col(3, String), lit(int64(1), Int64), lit(int64(5), Int64))},
		{"upper", call("upper", String, col(4, String))},
		{"round", call("round", Decimal(15, 1), col(0, dec152), lit(int64(1), Int64))},
		{"coalesce", call("coalesce", dec152, col(0, dec152), col(1, dec152))},
	} {
		b.Run(c.name, func(b *testing.B) { runBench(b, c.e, false) })
	}
}
