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
	if IsNested(to) && NullFills(a.typ(), to) && !isNullType(a.typ()) {
		return &nullFillNode{a: a, to: to}, nil
	}
	from := a.typ().ID()
	ok := false
	switch to.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.FLOAT64, arrow.BOOL:
		ok = isNumeric(a.typ()) || from == arrow.BOOL || from == arrow.STRING
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

// evalNarrow widens an Int64 or Decimal64 to a decimal128 type in int64
// where every value fits at the target scale (a decimal128 holds any
// int64, so no precision check applies): see narrower.
func (n *castNode) evalNarrow(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	fs, ts := ScaleOf(n.a.typ()), ScaleOf(n.to)
	if !isWide(n.to) || !isIntOrDec(n.a.typ()) || isWide(n.a.typ()) || ts < fs || ts-fs > 18 {
		return n.eval(c, b)
	}
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.DataType().ID() == arrow.NULL {
		return allNull(c, n.to), nil
	}
	if ts == fs {
		a.Retain()
		return a, nil
	}
	m := pow10[ts-fs]
	valid, off := validBits(a), a.Data().Offset()
	buf, out := rawI64(c.mem, c.n)
	for i, v := range i64s(a) {
		p, ok := mulOvf(v, m)
		if !ok && isValid(valid, off, i) {
			buf.Release()
			return castWide(c, a, n.to)
		}
		out[i] = p
	}
	return finish(&arrow.Decimal64Type{Precision: MaxDecimalPrecision, Scale: ts}, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}

func (n *castNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return n.convert(c, a)
}

// convert casts a, c.n rows of the argument's type, to n.to; the caller
// keeps its reference to a.
func (n *castNode) convert(c *ctx, a arrow.Array) (arrow.Array, error) {
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
		var err error
		if isWide(from) {
			err = fitsPrecisionW(a, w128s(a), n.to)
		} else {
			err = fitsPrecision(a, i64s(a), n.to)
		}
		if err != nil {
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
	if isWide(from) || isWide(n.to) {
		if n.to.ID() != arrow.STRING {
			return castWide(c, a, n.to)
		}
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
			s := ScaleOf(from)
			for i, v := range i64s(a) {
				out[i] = DecimalToFloat64(v, s)
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
	// The magnitude, up to 2^63 when negative: -9223372036854775808 fits.
	var u uint64
	lim := uint64(math.MaxInt64)
	if neg {
		lim++
	}
	ovf := errs.New(errs.Execution, "value '%s' out of range for %s", s, t)
	add := func(d byte) error {
		if d < '0' || d > '9' {
			return bad
		}
		if u > (lim-uint64(d-'0'))/10 {
			return ovf
		}
		u = u*10 + uint64(d-'0')
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
			if u == lim {
				return 0, ovf
			}
			u++
		}
	}
	v := int64(u) // 2^63 wraps to the most negative int64, its own negation
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
			tmp = AppendDecimal(tmp, i64s(a)[i], ScaleOf(t))
		case arrow.DECIMAL128:
			tmp = AppendDecimal128(tmp, w128s(a)[i], ScaleOf(t))
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

// fitsPrecisionW is fitsPrecision for decimal128 values.
func fitsPrecisionW(a arrow.Array, vals []num, to arrow.DataType) error {
	p, sc := DecimalPS(to)
	valid, off := validBits(a), a.Data().Offset()
	for i, v := range vals {
		if !wideFits(v, p) && isValid(valid, off, i) {
			return errs.New(errs.Execution, "value %s out of range for %s", FormatDecimal128(v, sc), TypeName(to))
		}
	}
	return nil
}

// castWide is a cast from or to a decimal128 type (not to a string).
func castWide(c *ctx, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	from := a.DataType()
	valid := validBits(a)
	off := a.Data().Offset()
	ok := func(i int) bool { return isValid(valid, off, i) }
	ts := ScaleOf(to)
	rangeErr := func(v string) error {
		return errs.New(errs.Execution, "value %s out of range for %s", v, TypeName(to))
	}
	if !isWide(to) { // from a decimal128
		vals := w128s(a)
		switch to.ID() {
		case arrow.FLOAT64:
			buf, out := outF64(c.mem, c.n)
			s := ScaleOf(from)
			for i, v := range vals {
				out[i] = Decimal128ToFloat64(v, s)
			}
			return finish(to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
		case arrow.BOOL:
			bm := newBitmap(c.mem, c.n)
			for i, v := range vals {
				if v.Sign() != 0 {
					setBit(bm.Bytes(), i)
				}
			}
			return finish(to, c.n, mergeValidity(c.mem, c.n, a), bm), nil
		case arrow.INT64, arrow.DECIMAL64:
			buf, out := outI64(c.mem, c.n)
			p := int32(MaxDecimalPrecision)
			if to.ID() == arrow.DECIMAL64 {
				p, _ = DecimalPS(to)
			}
			for i, v := range vals {
				if !ok(i) {
					continue
				}
				r, fits := rescaleW(v, ScaleOf(from), ts)
				small := r.HighBits() == int64(r.LowBits())>>63
				if !fits || !small || (to.ID() == arrow.DECIMAL64 && !wideFits(r, p)) {
					buf.Release()
					return nil, rangeErr(FormatDecimal128(v, ScaleOf(from)))
				}
				out[i] = int64(r.LowBits())
			}
			return finish(to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
		}
		return nil, errs.New(errs.Unsupported, "cast from %s to %s", TypeName(from), TypeName(to))
	}
	p, _ := DecimalPS(to)
	buf, out := outW128(c.mem, c.n)
	fail := func(err error) (arrow.Array, error) {
		buf.Release()
		return nil, err
	}
	switch from.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128:
		vals, rel := wideVals(c, a)
		defer rel()
		fs := ScaleOf(from)
		for i, v := range vals {
			if !ok(i) {
				continue
			}
			r, fits := rescaleW(v, fs, ts)
			if !fits || !wideFits(r, p) {
				return fail(rangeErr(FormatDecimal128(v, fs)))
			}
			out[i] = r
		}
	case arrow.FLOAT64:
		for i, f := range f64s(a) {
			if !ok(i) {
				continue
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fail(rangeErr(strconv.FormatFloat(f, 'g', -1, 64)))
			}
			r, fits := ParseDecimal128(strconv.FormatFloat(f, 'g', -1, 64), ts)
			if !fits || !wideFits(r, p) {
				return fail(rangeErr(strconv.FormatFloat(f, 'g', -1, 64)))
			}
			out[i] = r
		}
	case arrow.BOOL:
		bm := a.Data().Buffers()[1].Bytes()
		for i := range out {
			if bitSet(bm, off+i) {
				out[i] = pow10W[ts]
			}
		}
	case arrow.STRING:
		offs, data := strView(a)
		for i := range out {
			if !ok(i) {
				continue
			}
			s := strings.TrimSpace(bstr(data[offs[i]:offs[i+1]]))
			if !isDecimalText(s) {
				return fail(errs.New(errs.Execution, "cannot cast '%s' to %s", s, TypeName(to)))
			}
			r, fits := ParseDecimal128(s, ts)
			if !fits || !wideFits(r, p) {
				return fail(errs.New(errs.Execution, "value '%s' out of range for %s", s, TypeName(to)))
			}
			out[i] = r
		}
	default:
		return fail(errs.New(errs.Unsupported, "cast from %s to %s", TypeName(from), TypeName(to)))
	}
	return finish(to, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}

// isDecimalText: optional sign, digits with at most one point, and an
// optional exponent — the text ParseDecimal128 may read (big.Rat would
// also take fractions such as "1/3").
func isDecimalText(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	digits, point := 0, false
	for i := 0; i < len(mant); i++ {
		switch {
		case mant[i] >= '0' && mant[i] <= '9':
			digits++
		case mant[i] == '.' && !point:
			point = true
		default:
			return false
		}
	}
	if digits == 0 {
		return false
	}
	if hasExp {
		if exp != "" && (exp[0] == '-' || exp[0] == '+') {
			exp = exp[1:]
		}
		if exp == "" || len(exp) > 4 {
			return false
		}
		for i := 0; i < len(exp); i++ {
			if exp[i] < '0' || exp[i] > '9' {
				return false
			}
		}
	}
	return true
}
