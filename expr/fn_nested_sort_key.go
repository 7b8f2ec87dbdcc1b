package expr

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// nested_sort_key(x) is bytes whose bytewise order is the order of the
// nested values x as DuckDB sorts them: lists element by element, a list
// before the longer lists it begins; structs field by field; a NULL
// element or field after every value (so before them when the key sorts
// descending, the whole order reversed). NULL x is a NULL key, which the
// sort places by its own NULLS FIRST/LAST. Only the planner emits it, for
// ORDER BY of a nested value. Flat values are encoded so that byte order
// is value order: integers big-endian with the sign bit flipped, doubles
// by their bits (negatives inverted), strings with their 0 bytes escaped
// and a 0 0 terminator. CPU only.
func init() {
	Register(&Function{Name: "nested_sort_key", MinArgs: 1, MaxArgs: 1,
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if !IsNested(args[0].typ()) || !isType(call.Type, arrow.STRING) {
				return nil, argErr(call, "wants a nested argument and a VARCHAR result, got %s → %s", args[0].typ(), call.Type)
			}
			if err := sortKeyable(args[0].typ()); err != nil {
				return nil, argErr(call, "%v", err)
			}
			return &nestedKeyNode{a: args[0], key: appendSortKey}, nil
		},
		Doc: "nested_sort_key(x) → VARCHAR: a key whose byte order is the nested values' order (planner only)"})
}

// NestedSortable reports whether nested_sort_key can order values of t.
func NestedSortable(t arrow.DataType) bool { return sortKeyable(t) == nil }

func sortKeyable(t arrow.DataType) error {
	if _, ok := t.(*arrow.MapType); ok {
		return errs.New(errs.Unsupported, "no order of values of %s", TypeName(t))
	}
	if t.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
		return errs.New(errs.Unsupported, "no order of values of %s inside a nested value", TypeName(t))
	}
	return keyable(t)
}

// Markers: a value, then its bytes; the end of a list; a NULL part.
const (
	sortKeyEnd   = 0
	sortKeyValue = 1
	sortKeyNull  = 2
)

func appendSortKey(dst []byte, a arrow.Array, i int) []byte {
	if a.IsNull(i) {
		return append(dst, sortKeyNull)
	}
	dst = append(dst, sortKeyValue)
	signed := func(v int64) []byte { return binary.BigEndian.AppendUint64(dst, uint64(v)^(1<<63)) }
	switch x := a.(type) {
	case *array.List:
		s, e := x.ValueOffsets(i)
		for k := s; k < e; k++ {
			dst = appendSortKey(dst, x.ListValues(), int(k))
		}
		return append(dst, sortKeyEnd)
	case *array.Struct:
		for f := range x.NumField() {
			dst = appendSortKey(dst, x.Field(f), i)
		}
		return dst
	case *array.Boolean:
		if x.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *array.Int64:
		return signed(x.Value(i))
	case *array.Decimal64:
		return signed(int64(x.Value(i)))
	case *array.Date32:
		return signed(int64(x.Value(i)))
	case *array.Timestamp:
		return signed(int64(x.Value(i)))
	case *array.Time64:
		return signed(int64(x.Value(i)))
	case *array.Decimal128:
		v := x.Value(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.HighBits())^(1<<63))
		return binary.BigEndian.AppendUint64(dst, v.LowBits())
	case *array.Float64:
		v := x.Value(i)
		if v == 0 {
			v = 0 // -0 is 0
		}
		if math.IsNaN(v) {
			v = math.NaN() // one NaN, after +Inf as DuckDB orders it
		}
		u := math.Float64bits(v)
		if u>>63 == 1 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		return binary.BigEndian.AppendUint64(dst, u)
	case *array.String:
		for _, c := range []byte(x.Value(i)) {
			dst = append(dst, c)
			if c == 0 {
				dst = append(dst, 0xff)
			}
		}
		return append(dst, 0, 0)
	}
	return dst
}
