package expr

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// The time types, beside Date (days, dates.go):
//
//	Timestamp     TIMESTAMP: µs since 1970-01-01 00:00:00, no zone (Arrow
//	              timestamp[us]); a wall-clock reading.
//	TimestampTZ   TIMESTAMP WITH TIME ZONE: µs since the epoch in UTC (Arrow
//	              timestamp[us, tz=UTC]). gq has no session time zone: a value
//	              is read and shown in UTC ("+00").
//	Time          TIME: µs since midnight (Arrow time64[us]).
//	Interval      INTERVAL: months, days and nanoseconds apart (Arrow
//	              month_day_nano_interval), as DuckDB keeps months, days and
//	              µs apart: a month is not a fixed number of days, nor a day
//	              of hours across a zone's change.
//
// Both timestamps and Time are int64 physically, so the operators that
// treat fixed-width 64-bit values (keys, sorting, min/max, take, exchange)
// handle them as Int64.
var (
	Timestamp   arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond}
	TimestampTZ arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	Time        arrow.DataType = arrow.FixedWidthTypes.Time64us
	Interval    arrow.DataType = arrow.FixedWidthTypes.MonthDayNanoInterval
)

// µs per unit.
const (
	usPerSecond = int64(1_000_000)
	usPerMinute = 60 * usPerSecond
	usPerHour   = 60 * usPerMinute
	usPerDay    = 24 * usPerHour
)

// IsTimestamp reports whether t is TIMESTAMP or TIMESTAMPTZ.
func IsTimestamp(t arrow.DataType) bool { return t.ID() == arrow.TIMESTAMP }

// IsTZ reports whether t is TIMESTAMP WITH TIME ZONE.
func IsTZ(t arrow.DataType) bool {
	ts, ok := t.(*arrow.TimestampType)
	return ok && ts.TimeZone != ""
}

// isTemporal64: a timestamp or a Time.
func isTemporal64(t arrow.DataType) bool {
	return t.ID() == arrow.TIMESTAMP || t.ID() == arrow.TIME64
}

// floorDiv is a / b rounded toward minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// SplitTimestamp is µs since the epoch as days since the epoch and µs
// into that day.
func SplitTimestamp(us int64) (days int32, tod int64) {
	d := floorDiv(us, usPerDay)
	return int32(d), us - d*usPerDay
}

// AppendTimestamp appends a timestamp as DuckDB shows it:
// "2024-01-02 03:04:05", with ".123456" (trailing zeros cut) when it has
// a fraction of a second, and "+00" for TIMESTAMPTZ.
func AppendTimestamp(dst []byte, us int64, tz bool) []byte {
	days, tod := SplitTimestamp(us)
	dst = AppendDate(dst, arrow.Date32(days))
	dst = append(dst, ' ')
	dst = AppendTime(dst, tod)
	if tz {
		dst = append(dst, "+00"...)
	}
	return dst
}

// AppendTime appends µs since midnight as HH:MM:SS[.ffffff].
func AppendTime(dst []byte, us int64) []byte {
	h, m, s, f := us/usPerHour, us/usPerMinute%60, us/usPerSecond%60, us%usPerSecond
	dst = append(dst, byte('0'+h/10%10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':',
		byte('0'+s/10), byte('0'+s%10))
	if f != 0 {
		var digits [6]byte
		n := 6
		for i := 5; i >= 0; i-- {
			digits[i] = byte('0' + f%10)
			f /= 10
		}
		for n > 0 && digits[n-1] == '0' {
			n--
		}
		dst = append(dst, '.')
		dst = append(dst, digits[:n]...)
	}
	return dst
}

// FormatTimestamp is AppendTimestamp as a string.
func FormatTimestamp(us int64, tz bool) string {
	var b [40]byte
	return string(AppendTimestamp(b[:0], us, tz))
}

// FormatTime is AppendTime as a string.
func FormatTime(us int64) string {
	var b [24]byte
	return string(AppendTime(b[:0], us))
}

// textScanner reads the fixed fields of date and time text.
type textScanner struct {
	s   string
	pos int
}

func (p *textScanner) digits(min, max int) (int64, bool) {
	start := p.pos
	var v int64
	for p.pos < len(p.s) && p.pos-start < max && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		v = v*10 + int64(p.s[p.pos]-'0')
		p.pos++
	}
	return v, p.pos-start >= min
}

func (p *textScanner) byte(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *textScanner) done() bool { return p.pos == len(p.s) }

// timeOfDay reads HH:MM[:SS[.f…]] (at most 6 fraction digits count; more
// are read and dropped, as DuckDB truncates them).
func (p *textScanner) timeOfDay() (int64, bool) {
	h, ok := p.digits(1, 2)
	if !ok || !p.byte(':') {
		return 0, false
	}
	m, ok := p.digits(2, 2)
	if !ok || h > 24 || m > 59 {
		return 0, false
	}
	var s, frac int64
	if p.byte(':') {
		if s, ok = p.digits(2, 2); !ok || s > 59 {
			return 0, false
		}
		if p.byte('.') {
			start := p.pos
			scale := int64(100000)
			for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
				frac += int64(p.s[p.pos]-'0') * scale
				scale /= 10
				p.pos++
			}
			if p.pos == start {
				return 0, false
			}
		}
	}
	us := h*usPerHour + m*usPerMinute + s*usPerSecond + frac
	if us > usPerDay {
		return 0, false
	}
	return us, true
}

// zoneOffset reads a zone suffix: Z, UTC, +HH, +HH:MM, +HHMM (either
// sign), optionally after a space; it is the offset in µs to subtract to
// reach UTC. ok is false for text that is not a zone.
func (p *textScanner) zoneOffset() (off int64, ok bool) {
	p.byte(' ')
	rest := p.s[p.pos:]
	switch {
	case rest == "Z" || rest == "z" || strings.EqualFold(rest, "UTC") || strings.EqualFold(rest, "GMT"):
		p.pos = len(p.s)
		return 0, true
	case rest == "":
		return 0, false
	}
	sign := int64(1)
	switch {
	case p.byte('+'):
	case p.byte('-'):
		sign = -1
	default:
		return 0, false
	}
	h, ok := p.digits(2, 2)
	if !ok {
		return 0, false
	}
	var m int64
	if p.byte(':') {
		if m, ok = p.digits(2, 2); !ok {
			return 0, false
		}
	} else if !p.done() {
		if m, ok = p.digits(2, 2); !ok {
			return 0, false
		}
	}
	if h > 15 || m > 59 {
		return 0, false
	}
	return sign * (h*usPerHour + m*usPerMinute), true
}

// ParseTimestamp reads YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][zone] as µs
// since the epoch. A zone suffix (Z, UTC, ±HH[:MM]) shifts the value to
// UTC where tz asks (TIMESTAMPTZ); a TIMESTAMP keeps the wall-clock
// reading and drops the zone, as DuckDB's casts do. hasZone reports one
// was there. Leading and trailing blanks are ignored.
func ParseTimestamp(s string, tz bool) (us int64, hasZone bool, ok bool) {
	p := textScanner{s: strings.TrimSpace(s)}
	days, ok := p.date()
	if !ok {
		return 0, false, false
	}
	us = int64(days) * usPerDay
	if p.done() {
		return us, false, true
	}
	if p.byte(' ') || p.byte('T') || p.byte('t') {
		tod, ok := p.timeOfDay()
		if !ok {
			return 0, false, false
		}
		us += tod
	}
	if p.done() {
		return us, false, true
	}
	off, ok := p.zoneOffset()
	if !ok || !p.done() {
		return 0, false, false
	}
	if !tz {
		off = 0
	}
	return us - off, true, true
}

// date reads YYYY-M[M]-D[D] (a valid day of that month).
func (p *textScanner) date() (int32, bool) {
	neg := p.byte('-')
	y, ok := p.digits(1, 6)
	if !ok || !p.byte('-') {
		return 0, false
	}
	m, ok := p.digits(1, 2)
	if !ok || !p.byte('-') {
		return 0, false
	}
	d, ok := p.digits(1, 2)
	if !ok {
		return 0, false
	}
	if neg {
		y = -y
	}
	if m < 1 || m > 12 || d < 1 || int32(d) > DaysInMonth(int32(y), int32(m)) {
		return 0, false
	}
	return DaysFromCivil(int32(y), int32(m), int32(d)), true
}

// ParseTime reads HH:MM[:SS[.ffffff]] as µs since midnight.
func ParseTime(s string) (int64, bool) {
	p := textScanner{s: strings.TrimSpace(s)}
	us, ok := p.timeOfDay()
	if !ok || !p.done() {
		return 0, false
	}
	return us, true
}

// timestampErr is the error for text that is not a timestamp (what names
// the type).
func timestampErr(s, what string) error {
	return errs.New(errs.Execution, "cannot cast '%s' to %s: expected YYYY-MM-DD[ HH:MM:SS[.ffffff]][+HH[:MM]]", s, what)
}

// addMonthsUS adds k months to a timestamp, the day clamped to the
// month's end (DuckDB's and MySQL's rule); the time of day stays.
func addMonthsUS(us int64, k int64) int64 {
	days, tod := SplitTimestamp(us)
	return int64(AddMonths(days, k))*usPerDay + tod
}

// AddInterval adds iv to the timestamp us: months first (clamped to the
// month's end), then days, then the sub-day part (nanoseconds truncated to
// µs). ok is false when the result leaves int64 µs.
func AddInterval(us int64, iv arrow.MonthDayNanoInterval) (int64, bool) {
	if iv.Months != 0 {
		us = addMonthsUS(us, int64(iv.Months))
	}
	r, ok := addOvf(us, int64(iv.Days)*usPerDay)
	if !ok {
		return 0, false
	}
	return addOvf(r, iv.Nanoseconds/1000)
}

func addOvf(a, b int64) (int64, bool) {
	r := a + b
	if (a > 0 && b > 0 && r < 0) || (a < 0 && b < 0 && r >= 0) {
		return 0, false
	}
	return r, true
}

// NormInterval is iv in DuckDB's normal form, the one its comparisons,
// hashing and grouping use: days past 30 carried into months, nanoseconds
// past a month into months and past a day into days, each by truncating
// division (so parts keep iv's signs). Two intervals are equal when their
// normal forms are (30 days = 1 month, 24 hours = 1 day), and ordered by
// months, then days, then nanoseconds.
func NormInterval(iv arrow.MonthDayNanoInterval) (months, days, nanos int64) {
	const nsPerDay = usPerDay * 1000
	const nsPerMonth = 30 * nsPerDay
	days, nanos = int64(iv.Days), iv.Nanoseconds
	fromDays, fromNanos := days/30, nanos/nsPerMonth
	days -= fromDays * 30
	nanos -= fromNanos * nsPerMonth
	extraDays := nanos / nsPerDay
	nanos -= extraDays * nsPerDay
	return int64(iv.Months) + fromDays + fromNanos, days + extraDays, nanos
}

// compareIntervals is -1, 0 or 1 as a is below, equal to or above b in
// DuckDB's order (NormInterval).
func compareIntervals(a, b arrow.MonthDayNanoInterval) int {
	if a == b {
		return 0
	}
	am, ad, an := NormInterval(a)
	bm, bd, bn := NormInterval(b)
	switch {
	case am != bm:
		return cmp.Compare(am, bm)
	case ad != bd:
		return cmp.Compare(ad, bd)
	}
	return cmp.Compare(an, bn)
}

// negInterval is -iv.
func negInterval(iv arrow.MonthDayNanoInterval) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: -iv.Months, Days: -iv.Days, Nanoseconds: -iv.Nanoseconds}
}

// intervalBetween is a − b for timestamps as DuckDB gives it: whole days
// and the rest in µs, no months.
func intervalBetween(a, b int64) arrow.MonthDayNanoInterval {
	d := a - b
	days := d / usPerDay
	return arrow.MonthDayNanoInterval{Days: int32(days), Nanoseconds: (d - days*usPerDay) * 1000}
}

// AppendInterval appends iv as DuckDB shows it: "1 year 2 months 3 days
// 04:05:06.5", each part only when non-zero, "00:00:00" for zero.
func AppendInterval(dst []byte, iv arrow.MonthDayNanoInterval) []byte {
	start := len(dst)
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if v != 1 && v != -1 {
			dst = append(dst, 's')
		}
	}
	part(int64(iv.Months/12), "year")
	part(int64(iv.Months%12), "month")
	part(int64(iv.Days), "day")
	us := iv.Nanoseconds / 1000
	if us != 0 || len(dst) == start {
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		if us < 0 {
			dst = append(dst, '-')
			us = -us
		}
		if h := us / usPerHour; h >= 100 {
			var clock [24]byte
			dst = strconv.AppendInt(dst, h, 10)
			dst = append(dst, AppendTime(clock[:0], us%usPerHour)[2:]...) // ":MM:SS[.f]"
		} else {
			dst = AppendTime(dst, us)
		}
	}
	return dst
}

// FormatInterval is AppendInterval as a string.
func FormatInterval(iv arrow.MonthDayNanoInterval) string {
	return string(AppendInterval(nil, iv))
}

// intervalUnits maps a unit's names (singular, plural, abbreviations) to
// what one of it is.
var intervalUnits = map[string]arrow.MonthDayNanoInterval{}

func init() {
	for names, iv := range map[string]arrow.MonthDayNanoInterval{
		"year years y yr yrs":                    {Months: 12},
		"quarter quarters":                       {Months: 3},
		"month months mon mons":                  {Months: 1},
		"week weeks w":                           {Days: 7},
		"day days d":                             {Days: 1},
		"hour hours h hr hrs":                    {Nanoseconds: usPerHour * 1000},
		"minute minutes m min mins":              {Nanoseconds: usPerMinute * 1000},
		"second seconds s sec secs":              {Nanoseconds: usPerSecond * 1000},
		"millisecond milliseconds ms msec msecs": {Nanoseconds: 1_000_000},
		"microsecond microseconds us usec usecs": {Nanoseconds: 1000},
		"decade decades":                         {Months: 120},
		"century centuries":                      {Months: 1200},
		"millennium millennia millenniums":       {Months: 12000},
	} {
		for _, n := range strings.Fields(names) {
			intervalUnits[n] = iv
		}
	}
}

// IntervalUnit is one unit by name ("day", "hours", …).
func IntervalUnit(name string) (arrow.MonthDayNanoInterval, bool) {
	iv, ok := intervalUnits[strings.ToLower(name)]
	return iv, ok
}

// ScaleInterval is k units of iv (k may be fractional for sub-day units:
// 1.5 hours); ok is false when a part overflows.
func ScaleInterval(iv arrow.MonthDayNanoInterval, k float64) (arrow.MonthDayNanoInterval, bool) {
	if k != float64(int64(k)) && (iv.Months != 0 || iv.Days != 0) {
		return arrow.MonthDayNanoInterval{}, false
	}
	// ns rounds: '133200.004551 seconds' is 133200004550999.98 ns in
	// floating point, which truncation made a microsecond short.
	m, d, ns := float64(iv.Months)*k, float64(iv.Days)*k, math.Round(float64(iv.Nanoseconds)*k)
	if m > 1<<31-1 || m < -(1<<31) || d > 1<<31-1 || d < -(1<<31) || ns > 9.2e18 || ns < -9.2e18 {
		return arrow.MonthDayNanoInterval{}, false
	}
	return arrow.MonthDayNanoInterval{Months: int32(m), Days: int32(d), Nanoseconds: int64(ns)}, true
}

// sumIntervals adds two intervals part by part.
func sumIntervals(a, b arrow.MonthDayNanoInterval) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: a.Months + b.Months, Days: a.Days + b.Days, Nanoseconds: a.Nanoseconds + b.Nanoseconds}
}

// ParseInterval reads interval text as DuckDB does: a list of "number
// unit" pairs ("1 day 2 hours", "3 days", "-1 month") and an optional
// [-]HH:MM[:SS[.f]] clock part ("1 day 02:00:00"). The error names the
// text and the place it stops making sense.
func ParseInterval(s string) (arrow.MonthDayNanoInterval, error) {
	var out arrow.MonthDayNanoInterval
	f := strings.Fields(strings.TrimSpace(s))
	if len(f) == 0 {
		return out, errs.New(errs.Execution, "cannot cast '%s' to INTERVAL: empty", s)
	}
	for i := 0; i < len(f); i++ {
		w := f[i]
		if strings.Contains(w, ":") {
			neg := strings.HasPrefix(w, "-")
			us, ok := parseClock(strings.TrimLeft(w, "+-"))
			if !ok {
				return out, errs.New(errs.Execution, "cannot cast '%s' to INTERVAL: bad time %q (word %d)", s, w, i+1)
			}
			if neg {
				us = -us
			}
			out.Nanoseconds += us * 1000
			continue
		}
		num := w
		unit := ""
		// "3days": the number and the unit run together.
		if k := strings.IndexFunc(w, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != '-' && r != '+' }); k > 0 {
			num, unit = w[:k], w[k:]
		} else if i+1 < len(f) {
			i++
			unit = f[i]
		}
		k, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return out, errs.New(errs.Execution, "cannot cast '%s' to INTERVAL: %q is not a number (word %d)", s, num, i+1)
		}
		u, ok := IntervalUnit(unit)
		if !ok {
			return out, errs.New(errs.Execution, "cannot cast '%s' to INTERVAL: unknown unit %q (word %d)", s, unit, i+1)
		}
		v, ok := ScaleInterval(u, k)
		if !ok {
			return out, errs.New(errs.Execution, "cannot cast '%s' to INTERVAL: %s %s out of range", s, num, unit)
		}
		out = sumIntervals(out, v)
	}
	return out, nil
}

// constInterval is a full-length array of one interval.
func constInterval(c *ctx, v arrow.MonthDayNanoInterval) arrow.Array {
	b := array.NewMonthDayNanoIntervalBuilder(c.mem)
	defer b.Release()
	b.Reserve(c.n)
	for range c.n {
		b.UnsafeAppend(v)
	}
	return b.NewArray()
}

// temporalLiteral is a timestamp or time literal's SQL text.
func temporalLiteral(t arrow.DataType, v int64) (string, bool) {
	switch {
	case IsTZ(t):
		return "TIMESTAMPTZ '" + FormatTimestamp(v, true) + "'", true
	case IsTimestamp(t):
		return "TIMESTAMP '" + FormatTimestamp(v, false) + "'", true
	case t.ID() == arrow.TIME64:
		return "TIME '" + FormatTime(v) + "'", true
	}
	return "", false
}

// parseClock reads an interval's clock part, H…:MM[:SS[.f…]] (hours not
// bounded by a day).
func parseClock(s string) (int64, bool) {
	h, rest, ok := strings.Cut(s, ":")
	hours, err := strconv.ParseInt(h, 10, 64)
	if !ok || err != nil || hours < 0 || hours > 2_000_000_000 {
		return 0, false
	}
	p := textScanner{s: "00:" + rest}
	us, ok := p.timeOfDay()
	if !ok || !p.done() {
		return 0, false
	}
	return hours*usPerHour + us, true
}
