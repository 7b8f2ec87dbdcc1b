package expr

import "gq/errs"

// make_date(year, month, day) (DuckDB's) is that DATE; a month or day
// that does not exist (2023-02-29) is an error, as in DuckDB. MySQL's
// makedate(year, day of year) is another function.
func init() {
	Register(&Function{Name: "make_date", SQL: []string{"make_date"}, MinArgs: 3, MaxArgs: 3,
		Bind: bindSig("make_date", "i", Date),
		CPU: dateRows(func(a []strArg, i int) (int32, bool, error) {
			y, m, d := a[0].int(i), a[1].int(i), a[2].int(i)
			if y < -maxMakeDateYear || y > maxMakeDateYear || m < 1 || m > 12 || d < 1 || d > int64(DaysInMonth(int32(y), int32(m))) {
				return 0, false, errs.New(errs.Execution, "make_date(%d, %d, %d): no such date", y, m, d)
			}
			return DaysFromCivil(int32(y), int32(m), int32(d)), true, nil
		}),
		NullPropagating: true,
		Doc:             "make_date(year BIGINT, month BIGINT, day BIGINT) → DATE; an error for a date that does not exist"})
}

// maxMakeDateYear keeps make_date's days within a DATE's int32.
const maxMakeDateYear = 5_000_000
