package expr

// monthname(d) and dayname(d) (MySQL's and DuckDB's): the English name of
// a date's month and weekday; a TIMESTAMP or a date string is cast to
// DATE first.
func init() {
	months := [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	days := [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	Register(&Function{Name: "monthname", SQL: []string{"monthname"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("monthname", "d", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			_, m, _ := civilFromDays(a[0].date(i))
			return append(dst, months[m-1]...), true, nil
		}),
		NullPropagating: true,
		Doc:             "monthname(d DATE) → VARCHAR: January … December"})
	Register(&Function{Name: "dayname", SQL: []string{"dayname"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("dayname", "d", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			// 1970-01-01, day 0, was a Thursday.
			w := (int64(a[0].date(i)) + 4) % 7
			if w < 0 {
				w += 7
			}
			return append(dst, days[w]...), true, nil
		}),
		NullPropagating: true,
		Doc:             "dayname(d DATE) → VARCHAR: Sunday … Saturday"})
}
