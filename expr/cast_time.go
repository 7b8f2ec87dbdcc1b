package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// Casts to and from the time types (timestamp.go), as DuckDB has them:
//
//	VARCHAR   → TIMESTAMP[TZ], TIME, INTERVAL, DATE (parsed; a zone suffix
//	            shifts a timestamp to UTC)
//	DATE      → TIMESTAMP[TZ] (midnight)
//	TIMESTAMP ↔ TIMESTAMPTZ (the same instant: gq's session zone is UTC)
//	TIMESTAMP → DATE (the day), TIME (the time of day)
//	any of them → VARCHAR (castToString)

// timeCast reports whether a cast from → to is one of the above; handled
// is false for casts this file does not own.
func timeCast(from, to arrow.DataType) (ok, handled bool) {
	f, t := from.ID(), to.ID()
	switch t {
	case arrow.TIMESTAMP:
		return f == arrow.STRING || f == arrow.DATE32 || f == arrow.TIMESTAMP, true
	case arrow.TIME64:
		return f == arrow.STRING || f == arrow.TIMESTAMP || f == arrow.TIME64, true
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return f == arrow.STRING || f == arrow.INTERVAL_MONTH_DAY_NANO, true
	case arrow.DATE32:
		if f == arrow.TIMESTAMP {
			return true, true
		}
	}
	return false, false
}

// castTime evaluates a cast timeCast accepts, over a non-NULL-typed a.
func castTime(c *ctx, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	from := a.DataType()
	valid := validBits(a)
	off := a.Data().Offset()
	ok := func(i int) bool { return isValid(valid, off, i) }
	switch {
	case from.ID() == arrow.STRING && to.ID() == arrow.INTERVAL_MONTH_DAY_NANO:
		b := array.NewMonthDayNanoIntervalBuilder(c.mem)
		defer b.Release()
		offs, data := strView(a)
		for i := 0; i < c.n; i++ {
			if !ok(i) {
				b.AppendNull()
				continue
			}
			iv, err := ParseInterval(bstr(data[offs[i]:offs[i+1]]))
			if err != nil {
				return nil, err
			}
			b.Append(iv)
		}
		return b.NewArray(), nil
	case to.ID() == arrow.DATE32: // from a timestamp
		buf, out := rawI32(c.mem, c.n)
		for i, v := range i64s(a) {
			out[i], _ = SplitTimestamp(v)
		}
		return finish(to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	}
	buf, out := rawI64(c.mem, c.n)
	switch from.ID() {
	case arrow.STRING:
		offs, data := strView(a)
		for i := range out {
			out[i] = 0
			if !ok(i) {
				continue
			}
			s := bstr(data[offs[i]:offs[i+1]])
			var good bool
			if to.ID() == arrow.TIME64 {
				out[i], good = ParseTime(s)
			} else {
				out[i], _, good = ParseTimestamp(s, IsTZ(to))
			}
			if !good {
				buf.Release()
				if to.ID() == arrow.TIME64 {
					return nil, errs.New(errs.Execution, "cannot cast '%s' to TIME: expected HH:MM[:SS[.ffffff]]", s)
				}
				return nil, timestampErr(s, TypeName(to))
			}
		}
	case arrow.DATE32:
		for i, d := range i32s(a) {
			out[i] = int64(d) * usPerDay
		}
	case arrow.TIMESTAMP:
		if to.ID() == arrow.TIME64 {
			for i, v := range i64s(a) {
				_, out[i] = SplitTimestamp(v)
			}
		} else {
			copy(out, i64s(a))
		}
	case arrow.TIME64:
		copy(out, i64s(a))
	}
	return finish(to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}

// appendTimeText appends row i of a time-typed array as text (castToString).
func appendTimeText(dst []byte, a arrow.Array, i int) []byte {
	switch x := a.(type) {
	case *array.Timestamp:
		return AppendTimestamp(dst, int64(x.Value(i)), IsTZ(a.DataType()))
	case *array.Time64:
		return AppendTime(dst, int64(x.Value(i)))
	case *array.MonthDayNanoInterval:
		return AppendInterval(dst, x.Value(i))
	}
	return dst
}
