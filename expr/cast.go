package expr

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// castNode converts between the value types.
type castNode struct {
	a  node
	to arrow.DataType
}

func newCast(a node, to arrow.DataType) (node, error) {
	from := a.typ().ID()
	ok := false
	switch to.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.FLOAT64, arrow.BOOL:
		ok = from == arrow.INT64 || from == arrow.DECIMAL64 || from == arrow.FLOAT64 || from == arrow.BOOL || from == arrow.STRING
	case arrow.DATE32:
		ok = from == arrow.DATE32 || from == arrow.STRING
	case arrow.STRING:
		ok = true
	case arrow.NULL:
		ok = from == arrow.NULL
	}
	if tok, handled := timeCast(a.typ(), to); handled {
		ok = tok
	}
	if from == arrow.NULL {
		ok = true
	}
	if !ok {
		return nil, errs.New(errs.Unsupported, "cast from %s to %s", a.typ(), to)
	}
	return &castNode{a: a, to: to}, nil
}

func (n *castNode) typ() arrow.DataType { return n.to }

func (n *castNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	from := a.DataType()
	if from.ID() == arrow.NULL {
		return allNull(c, n.to), nil
	}
	if arrow.TypeEqual(from, n.to) {
		a.Retain()
		return a, nil
	}
	if sameFamily(from, n.to) {
		// Same scale, other precision: the values stand; only the declared
		// type changes, so consumers (UNION, schemas) see the target type.
		if err := fitsPrecision(a, i64s(a), n.to); err != nil {
			return nil, err
		}
		d := a.Data()
		nulls := 0
		if d.Buffers()[0] != nil {
			nulls = array.UnknownNullCount // counted lazily; avoids racing NullN
		}
		nd := array.NewData(n.to, d.Len(), d.Buffers(), nil, nulls, d.Offset())
		defer nd.Release()
		return array.MakeFromData(nd), nil
	}
	if _, handled := timeCast(from, n.to); handled {
		return castTime(c, a, n.to)
	}
	valid := validBits(a)
	off := a.Data().Offset()
	ok := func(i int) bool { return isValid(valid, off, i) }
	switch n.to.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		ts := ScaleOf(n.to)
		buf, out := outI64(c.mem, c.n)
		var err error
		switch from.ID() {
		case arrow.INT64, arrow.DECIMAL64:
			copy(out, i64s(a))
			err = rescaleInPlace(out, ScaleOf(from), ts, valid0(valid, off))
		case arrow.FLOAT64:
			m := math.Pow10(int(ts))
			for i, f := range f64s(a) {
				v, fits := roundToInt64(f * m)
				if !fits && ok(i) {
					err = errs.New(errs.Execution, "value %v out of range for %s", f, n.to)
					break
				}
				out[i] = v
			}
		case arrow.BOOL:
			d := a.Data()
			bm := d.Buffers()[1].Bytes()
			for i := range out {
				out[i] = int64(b2i(bitSet(bm, off+i))) * pow10[ts]
			}
		case arrow.STRING:
			offs, data := strView(a)
			for i := range out {
				if !ok(i) {
					out[i] = 0
					continue
				}
				out[i], err = parseDecimal(strings.TrimSpace(bstr(data[offs[i]:offs[i+1]])), ts, n.to)
				if err != nil {
					break
				}
			}
		}
		if err == nil && n.to.ID() == arrow.DECIMAL64 {
			err = fitsPrecision(a, out, n.to)
		}
		if err != nil {
			buf.Release()
			return nil, err
		}
		return finish(n.to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	case arrow.FLOAT64:
		buf, out := outF64(c.mem, c.n)
		switch from.ID() {
		case arrow.INT64, arrow.DECIMAL64:
			m := math.Pow10(int(ScaleOf(from)))
			for i, v := range i64s(a) {
				out[i] = float64(v) / m
			}
		case arrow.BOOL:
			bm := a.Data().Buffers()[1].Bytes()
			for i := range out {
				out[i] = float64(b2i(bitSet(bm, off+i)))
			}
		case arrow.STRING:
			offs, data := strView(a)
			for i := range out {
				out[i] = 0
				if !ok(i) {
					continue
				}
				s := strings.TrimSpace(bstr(data[offs[i]:offs[i+1]]))
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					buf.Release()
					return nil, errs.New(errs.Execution, "cannot cast '%s' to DOUBLE", s)
				}
				out[i] = f
			}
		}
		return finish(n.to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	case arrow.BOOL:
		vals := newBitmap(c.mem, c.n)
		vb := vals.Bytes()
		switch from.ID() {
		case arrow.INT64, arrow.DECIMAL64:
			for i, v := range i64s(a) {
				if v != 0 {
					setBit(vb, i)
				}
			}
		case arrow.FLOAT64:
			for i, v := range f64s(a) {
				if v != 0 {
					setBit(vb, i)
				}
			}
		case arrow.STRING:
			offs, data := strView(a)
			for i := 0; i < c.n; i++ {
				if !ok(i) {
					continue
				}
				s := strings.ToLower(strings.TrimSpace(bstr(data[offs[i]:offs[i+1]])))
				switch s {
				case "1", "true", "t", "yes", "y":
					setBit(vb, i)
				case "0", "false", "f", "no", "n":
				default:
					vals.Release()
					return nil, errs.New(errs.Execution, "cannot cast '%s' to BOOLEAN", s)
				}
			}
		}
		return finish(n.to, c.n, mergeValidity(c.mem, c.n, a), vals), nil
	case arrow.DATE32:
		buf, out := outI32(c.mem, c.n)
		offs, data := strView(a)
		for i := range out {
			out[i] = 0
			if !ok(i) {
				continue
			}
			s := strings.TrimSpace(bstr(data[offs[i]:offs[i+1]]))
			d, err := parseDate(s)
			if err != nil {
				buf.Release()
				return nil, err
			}
			out[i] = d
		}
		return finish(n.to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	case arrow.STRING:
		return castToString(c, a), nil
	}
	return nil, errs.New(errs.Unsupported, "cast from %s to %s", from, n.to)
}

// parseDate reads YYYY-MM-DD (a time part is ignored).
func parseDate(s string) (int32, error) {
	if len(s) > 10 && (s[10] == ' ' || s[10] == 'T') {
		s = s[:10]
	}
	t, err := time.Parse("2006-1-2", s)
	if err != nil {
		return 0, errs.New(errs.Execution, "cannot cast '%s' to DATE", s)
	}
	return int32(t.Unix() / 86400), nil
}

// parseDecimal reads decimal text into an int64 of scale s, rounding half
// away from zero.
func parseDecimal(s string, scale int32, t arrow.DataType) (int64, error) {
	bad := errs.New(errs.Execution, "cannot cast '%s' to %s", s, t)
	neg := false
	p := s
	if p != "" && (p[0] == '-' || p[0] == '+') {
		neg = p[0] == '-'
		p = p[1:]
	}
	if p == "" {
		return 0, bad
	}
	if strings.ContainsAny(p, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, bad
		}
		v, fits := roundToInt64(f * math.Pow10(int(scale)))
		if !fits {
			return 0, errs.New(errs.Execution, "value '%s' out of range for %s", s, t)
		}
		return v, nil
	}
	intPart, frac, _ := strings.Cut(p, ".")
	if intPart == "" && frac == "" {
		return 0, bad
	}
	var v int64
	ovf := errs.New(errs.Execution, "value '%s' out of range for %s", s, t)
	add := func(d byte) error {
		if d < '0' || d > '9' {
			return bad
		}
		var ok bool
		if v, ok = mulOvf(v, 10); !ok || v > math.MaxInt64-int64(d-'0') {
			return ovf
		}
		v += int64(d - '0')
		return nil
	}
	for i := 0; i < len(intPart); i++ {
		if err := add(intPart[i]); err != nil {
			return 0, err
		}
	}
	for i := 0; i < int(scale); i++ {
		d := byte('0')
		if i < len(frac) {
			d = frac[i]
		}
		if err := add(d); err != nil {
			return 0, err
		}
	}
	if int(scale) < len(frac) {
		for i := int(scale); i < len(frac); i++ {
			if frac[i] < '0' || frac[i] > '9' {
				return 0, bad
			}
		}
		if frac[scale] >= '5' {
			if v == math.MaxInt64 {
				return 0, ovf
			}
			v++
		}
	}
	if neg {
		v = -v
	}
	return v, nil
}

// castToString renders any value type as text.
func castToString(c *ctx, a arrow.Array) arrow.Array {
	valid := validBits(a)
	off := a.Data().Offset()
	s := newStrOut(c.mem, c.n, c.n*8)
	var tmp []byte
	t := a.DataType()
	for i := 0; i < c.n; i++ {
		if !isValid(valid, off, i) {
			s.empty()
			continue
		}
		tmp = tmp[:0]
		switch t.ID() {
		case arrow.INT64:
			tmp = strconv.AppendInt(tmp, i64s(a)[i], 10)
		case arrow.DECIMAL64:
			tmp = append(tmp, FormatDecimal(i64s(a)[i], ScaleOf(t))...)
		case arrow.FLOAT64:
			tmp = strconv.AppendFloat(tmp, f64s(a)[i], 'g', -1, 64)
		case arrow.DATE32:
			tmp = append(tmp, arrow.Date32(i32s(a)[i]).FormattedString()...)
		case arrow.TIMESTAMP, arrow.TIME64, arrow.INTERVAL_MONTH_DAY_NANO:
			tmp = appendTimeText(tmp, a, i)
		case arrow.BOOL:
			if bitSet(a.Data().Buffers()[1].Bytes(), off+i) {
				tmp = append(tmp, '1')
			} else {
				tmp = append(tmp, '0')
			}
		}
		s.add(tmp)
	}
	return s.finish(mergeValidity(c.mem, c.n, a))
}

// roundToInt64 rounds f half away from zero to an int64; fits is false
// for NaN and for values outside [-2^63, 2^63) (both bounds are exact in
// float64), where Go's conversion would give an arbitrary value.
func roundToInt64(f float64) (v int64, fits bool) {
	r := math.Round(f)
	if !(r >= -(1<<63) && r < 1<<63) {
		return 0, false
	}
	return int64(r), true
}

// fitsPrecision checks that the valid rows of vals (unscaled, in the
// decimal type to, masked by a's validity) have at most to's precision
// digits: cast(123 as decimal(4,2)) is an error, as in DuckDB and MySQL's
// strict mode, not a DECIMAL(4,2) holding 123.00. DECIMAL(18,s), the
// widest type and the one arithmetic results have, holds any int64.
func fitsPrecision(a arrow.Array, vals []int64, to arrow.DataType) error {
	d := to.(*arrow.Decimal64Type)
	if d.Precision >= MaxDecimalPrecision {
		return nil
	}
	limit := pow10[d.Precision]
	valid, off := validBits(a), a.Data().Offset()
	for i, v := range vals {
		if (v >= limit || v <= -limit) && isValid(valid, off, i) {
			return errs.New(errs.Execution, "value %s out of range for DECIMAL(%d,%d)", FormatDecimal(v, d.Scale), d.Precision, d.Scale)
		}
	}
	return nil
}
