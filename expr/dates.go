package expr

import "github.com/apache/arrow-go/v18/arrow"

// Civil dates: DATE values are days since 1970-01-01 (Arrow's Date32), and
// these are the one conversion between them and year, month and day that
// every floor uses (the kernels, CSV reading, the planner's folding, the
// TPC-H writer), without the time package on hot paths.

// civilFromDays converts days since 1970-01-01 to year, month, day (proleptic
// Gregorian; H. Hinnant's algorithm, no time package on the hot path).
func civilFromDays(days int32) (y, m, d int32) {
	z := int64(days) + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	yy := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	dd := doy - (153*mp+2)/5 + 1
	mm := mp + 3
	if mm > 12 {
		mm -= 12
	}
	if mm <= 2 {
		yy++
	}
	return int32(yy), int32(mm), int32(dd)
}

// AppendDate appends d as YYYY-MM-DD (result writers format every date
// cell this way); years outside 0..9999 as Date32.FormattedString writes
// them.
func AppendDate(dst []byte, d arrow.Date32) []byte {
	y, m, day := civilFromDays(int32(d))
	if y < 0 || y > 9999 {
		return append(dst, d.FormattedString()...)
	}
	return append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+day/10), byte('0'+day%10))
}

// DaysFromCivil is civilFromDays's inverse.
func DaysFromCivil(y, m, d int32) int32 {
	yy := int64(y)
	if m <= 2 {
		yy--
	}
	era := yy / 400
	if yy < 0 && yy%400 != 0 {
		era--
	}
	yoe := yy - era*400
	mm := int64(m)
	if mm > 2 {
		mm -= 3
	} else {
		mm += 9
	}
	doy := (153*mm+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int32(era*146097 + doe - 719468)
}

// DaysInMonth is the number of days of month m (1-12) of year y.
func DaysInMonth(y, m int32) int32 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// AddMonths adds k months to a day number, clamping the day to the month's end.
func AddMonths(days int32, k int64) int32 {
	y, m, d := civilFromDays(days)
	t := int64(y)*12 + int64(m-1) + k
	ny, nm := int32(t/12), int32(t%12)+1
	if t%12 < 0 {
		ny--
		nm += 12
	}
	if dm := DaysInMonth(ny, nm); d > dm {
		d = dm
	}
	return DaysFromCivil(ny, nm, d)
}
