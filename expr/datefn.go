package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// dateFnNode is extract_*, date_add_days, date_add_months or date_diff_days.
type dateFnNode struct {
	fn   string
	a, b node // b is nil for extract_*
	t    arrow.DataType
}

func newDateFn(call *Call, args []node) (node, error) {
	n := &dateFnNode{fn: call.Fn, t: call.Type}
	switch call.Fn {
	case "date_add_days", "date_add_months", "date_diff_days":
		if err := wantArgs(call, args, 2, 2); err != nil {
			return nil, err
		}
		second := arrow.INT64
		if call.Fn == "date_diff_days" {
			second = arrow.DATE32
		}
		if err := wantType(call, args[1], second); err != nil {
			return nil, err
		}
		n.b = args[1]
	default:
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
	}
	if err := wantType(call, args[0], arrow.DATE32); err != nil {
		return nil, err
	}
	n.a = args[0]
	return n, nil
}

func (n *dateFnNode) typ() arrow.DataType { return n.t }

// civil converts days since 1970-01-01 to year, month, day (proleptic
// Gregorian; H. Hinnant's algorithm, no time package on the hot path).
func civil(days int32) (y, m, d int32) {
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
	y, m, day := civil(int32(d))
	if y < 0 || y > 9999 {
		return append(dst, d.FormattedString()...)
	}
	return append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+day/10), byte('0'+day%10))
}

// daysFromCivil is civil's inverse.
func daysFromCivil(y, m, d int32) int32 {
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

func daysIn(y, m int32) int32 {
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

// AddMonths adds k months to a date, clamping the day to the month's end
// (window frames over dates use it for RANGE INTERVAL n MONTH).
func AddMonths(days int32, k int64) int32 { return addMonths(days, k) }

// addMonths adds k months, clamping the day to the month's end.
func addMonths(days int32, k int64) int32 {
	y, m, d := civil(days)
	t := int64(y)*12 + int64(m-1) + k
	ny, nm := int32(t/12), int32(t%12)+1
	if t%12 < 0 {
		ny--
		nm += 12
	}
	if dm := daysIn(ny, nm); d > dm {
		d = dm
	}
	return daysFromCivil(ny, nm, d)
}

func (n *dateFnNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := evalOperand(c, b, n.a)
	if err != nil {
		return nil, err
	}
	defer a.release()
	if a.sc != nil {
		a = operand{arr: materialize(c, Date, a)}
		defer a.release()
	}
	av := i32s(a.arr)
	if n.b == nil {
		buf, out := rawI64(c.mem, c.n)
		for i, d := range av {
			y, m, dd := civil(d)
			switch n.fn {
			case "extract_year":
				out[i] = int64(y)
			case "extract_month":
				out[i] = int64(m)
			case "extract_day":
				out[i] = int64(dd)
			case "extract_quarter":
				out[i] = int64((m + 2) / 3)
			}
		}
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a.arr), buf), nil
	}
	o, err := evalOperand(c, b, n.b)
	if err != nil {
		return nil, err
	}
	defer o.release()
	if o.nullScalar() {
		return allNull(c, n.t), nil
	}
	valid := mergeValidity(c.mem, c.n, a.arr, o.arr)
	if n.fn == "date_diff_days" {
		buf, out := rawI64(c.mem, c.n)
		if o.sc != nil {
			for i, d := range av {
				out[i] = int64(d) - o.sc.i
			}
		} else {
			bv := i32s(o.arr)
			for i, d := range av {
				out[i] = int64(d) - int64(bv[i])
			}
		}
		return finish(n.t, c.n, valid, buf), nil
	}
	var kv []int64
	var ks int64
	if o.sc != nil {
		ks = o.sc.i
	} else {
		kv = i64s(o.arr)
	}
	buf, out := rawI32(c.mem, c.n)
	for i, d := range av {
		k := ks
		if kv != nil {
			k = kv[i]
		}
		if n.fn == "date_add_days" {
			out[i] = d + int32(k)
		} else {
			out[i] = addMonths(d, k)
		}
	}
	return finish(n.t, c.n, valid, buf), nil
}
