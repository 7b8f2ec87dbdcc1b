package catalog

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// csvColumn accumulates one column's values in typed slices, switching on
// the type per value (no interface calls), then wraps them as an array.
type csvColumn struct {
	typ arrow.DataType
	// declared: the type came from read_csv's columns or types option, so
	// a decimal's extra fraction digits round (see decimal).
	declared bool
	valid    []byte // bitmap
	nulls    int
	n        int
	i64      []int64
	f64      []float64
	i32      []int32
	w128     []decimal128.Num
	bools    []byte // bitmap
	offsets  []int32
	bytes    []byte
}

// add appends one field; false when it does not parse as the column's type.
func (c *csvColumn) add(f []byte, quoted bool) bool {
	if c.n&7 == 0 {
		c.valid = append(c.valid, 0)
		if c.typ.ID() == arrow.BOOL {
			c.bools = append(c.bools, 0)
		}
	}
	null := len(f) == 0 && (!quoted || c.typ.ID() != arrow.STRING)
	if null {
		c.nulls++
	} else {
		c.valid[c.n>>3] |= 1 << (c.n & 7)
	}
	switch c.typ.ID() {
	case arrow.INT64:
		var v int64
		if !null {
			var ok bool
			if v, ok = parseInt(f); !ok {
				return false
			}
		}
		c.i64 = append(c.i64, v)
	case arrow.FLOAT64:
		var v float64
		if !null {
			var ok bool
			if v, ok = parseFloat(f); !ok {
				return false
			}
		}
		c.f64 = append(c.f64, v)
	case arrow.DECIMAL128, arrow.DECIMAL64:
		var v decimal128.Num
		if !null {
			var ok bool
			if v, ok = c.decimal(f); !ok {
				return false
			}
		}
		if c.typ.ID() == arrow.DECIMAL64 {
			c.i64 = append(c.i64, int64(v.LowBits()))
		} else {
			c.w128 = append(c.w128, v)
		}
	case arrow.DATE32:
		var v int32
		if !null {
			var ok bool
			if v, ok = parseDate(f); !ok {
				return false
			}
		}
		c.i32 = append(c.i32, v)
	case arrow.TIMESTAMP, arrow.TIME64:
		var v int64
		if !null {
			var ok bool
			if v, ok = parseTemporal(f, c.typ); !ok {
				return false
			}
		}
		c.i64 = append(c.i64, v)
	case arrow.BOOL:
		if !null {
			v, ok := parseBool(f)
			if !ok {
				return false
			}
			if v {
				c.bools[c.n>>3] |= 1 << (c.n & 7)
			}
		}
	default:
		if len(c.offsets) == 0 {
			c.offsets = append(c.offsets, 0)
		}
		c.bytes = append(c.bytes, f...)
		if len(c.bytes) > math.MaxInt32 {
			return false
		}
		c.offsets = append(c.offsets, int32(len(c.bytes)))
	}
	c.n++
	return true
}

// finish returns the n accumulated values as an array, its buffers
// counted on mem, the query's allocator (see buffer), and resets c.
func (c *csvColumn) finish(n int, mem memory.Allocator) arrow.Array {
	var validity *memory.Buffer
	if c.nulls > 0 {
		validity = buffer(mem, c.valid)
	}
	var bufs []*memory.Buffer
	switch c.typ.ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DECIMAL64:
		bufs = []*memory.Buffer{validity, buffer(mem, capBytes(c.i64))}
	case arrow.FLOAT64:
		bufs = []*memory.Buffer{validity, buffer(mem, capBytes(c.f64))}
	case arrow.DATE32:
		bufs = []*memory.Buffer{validity, buffer(mem, capBytes(c.i32))}
	case arrow.DECIMAL128:
		bufs = []*memory.Buffer{validity, buffer(mem, capBytes(c.w128))}
	case arrow.BOOL:
		bufs = []*memory.Buffer{validity, buffer(mem, c.bools)}
	default:
		if len(c.offsets) == 0 {
			c.offsets = append(c.offsets, 0)
		}
		bufs = []*memory.Buffer{validity, buffer(mem, capBytes(c.offsets)), buffer(mem, c.bytes)}
	}
	d := array.NewData(c.typ, n, bufs, nil, c.nulls, 0)
	a := array.MakeFromData(d)
	d.Release()
	for _, b := range bufs {
		if b != nil {
			b.Release() // d held them
		}
	}
	// The array owns the slices now: start fresh ones, sized like these.
	*c = csvColumn{typ: c.typ, declared: c.declared,
		i64: make([]int64, 0, cap(c.i64)), f64: make([]float64, 0, cap(c.f64)), i32: make([]int32, 0, cap(c.i32)),
		w128:    make([]decimal128.Num, 0, cap(c.w128)),
		offsets: make([]int32, 0, cap(c.offsets)), bytes: make([]byte, 0, cap(c.bytes))}
	return a
}

// decimal reads f at the column's scale. A sniffed column's scale is the
// widest in the sample, so a value with more fraction digits does not
// fit it (an error naming the sniffed type); a declared one is read as
// DuckDB casts text to DECIMAL(p,s): extra fraction digits round half
// away from zero, and an exponent is allowed. Either way a value past p
// digits does not fit.
func (c *csvColumn) decimal(f []byte) (decimal128.Num, bool) {
	p, s := expr.DecimalPS(c.typ)
	v, ok := parseDecimal128(f, int(s))
	if !ok && c.declared && plainNumber(f) {
		v, ok = expr.ParseDecimal128(string(f), s)
	}
	if !ok || p < expr.MaxWidePrecision && v.Abs().Cmp(decimal128.GetScaleMultiplier(int(p))) >= 0 {
		return decimal128.Num{}, false
	}
	return v, true
}

// plainNumber: f is a sign, digits, a point and an exponent at most (not
// the fractions or other spellings math/big also reads).
func plainNumber(f []byte) bool {
	digit := false
	for i, c := range f {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == '.', c == 'e', c == 'E':
		case (c == '-' || c == '+') && (i == 0 || f[i-1] == 'e' || f[i-1] == 'E'):
		default:
			return false
		}
	}
	return digit
}
