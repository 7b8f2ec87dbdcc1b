package expr

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// nested_key(x) is a flat value standing for the nested value x: two
// values have equal keys exactly when they are equal as DuckDB's DISTINCT
// compares nested values (element by element, field by field, NULL parts
// equal to each other). NULL x is a NULL key. Only the planner emits it,
// for count(DISTINCT x) of a nested x, so that the operators that count
// distinct flat values count these. The key is bytes (in a VARCHAR
// column, never shown): a tag per part, then fixed-width numbers and
// length-prefixed strings, which no two different values share. CPU only.
func init() {
	Register(&Function{Name: "nested_key", MinArgs: 1, MaxArgs: 1,
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if !IsNested(args[0].typ()) || !isType(call.Type, arrow.STRING) {
				return nil, argErr(call, "wants a nested argument and a VARCHAR result, got %s → %s", args[0].typ(), call.Type)
			}
			if err := keyable(args[0].typ()); err != nil {
				return nil, argErr(call, "%v", err)
			}
			return &nestedKeyNode{a: args[0], key: appendKey}, nil
		},
		Doc: "nested_key(x) → VARCHAR: a flat key equal for equal nested values (planner only)"})
}

// NestedKeyable reports whether nested_key can key values of type t.
func NestedKeyable(t arrow.DataType) bool { return keyable(t) == nil }

func keyable(t arrow.DataType) error {
	switch t := t.(type) {
	case *arrow.ListType:
		return keyable(t.Elem())
	case *arrow.MapType:
		return keyable(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if err := keyable(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	switch t.ID() {
	case arrow.NULL, arrow.BOOL, arrow.INT64, arrow.FLOAT64, arrow.DECIMAL64, arrow.DECIMAL128,
		arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.STRING, arrow.INTERVAL_MONTH_DAY_NANO:
		return nil
	}
	return errs.New(errs.Unsupported, "no key for values of %s", TypeName(t))
}

// nestedKeyNode is nested_key's and nested_sort_key's kernel: key appends
// one non-NULL value's key.
type nestedKeyNode struct {
	a   node
	key func(dst []byte, a arrow.Array, i int) []byte
}

func (n *nestedKeyNode) typ() arrow.DataType { return String }

func (n *nestedKeyNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	bld := array.NewStringBuilder(c.mem)
	defer bld.Release()
	bld.Reserve(a.Len())
	var buf []byte
	for i := range a.Len() {
		if a.IsNull(i) {
			bld.AppendNull()
			continue
		}
		buf = n.key(buf[:0], a, i)
		bld.BinaryBuilder.Append(buf)
	}
	return bld.NewArray(), nil
}

// appendKey appends the key of a's value i: 0 for NULL, else 1 and the
// value's bytes.
func appendKey(dst []byte, a arrow.Array, i int) []byte {
	if a.IsNull(i) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	u64 := func(v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }
	switch x := a.(type) {
	case *array.List:
		s, e := x.ValueOffsets(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(e-s))
		for k := s; k < e; k++ {
			dst = appendKey(dst, x.ListValues(), int(k))
		}
	case *array.Map:
		s, e := x.ValueOffsets(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(e-s))
		for k := s; k < e; k++ {
			dst = appendKey(dst, x.ListValues(), int(k))
		}
	case *array.Struct:
		for f := range x.NumField() {
			dst = appendKey(dst, x.Field(f), i)
		}
	case *array.Boolean:
		if x.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *array.Int64:
		return u64(uint64(x.Value(i)))
	case *array.Float64:
		v := x.Value(i)
		switch {
		case v == 0:
			v = 0 // -0 is 0
		case math.IsNaN(v):
			v = math.NaN()
		}
		return u64(math.Float64bits(v))
	case *array.Decimal64:
		return u64(uint64(x.Value(i)))
	case *array.Decimal128:
		v := x.Value(i)
		dst = u64(uint64(v.HighBits()))
		return binary.BigEndian.AppendUint64(dst, v.LowBits())
	case *array.Date32:
		return u64(uint64(x.Value(i)))
	case *array.Timestamp:
		return u64(uint64(x.Value(i)))
	case *array.Time64:
		return u64(uint64(x.Value(i)))
	case *array.MonthDayNanoInterval:
		m, d, ns := NormInterval(x.Value(i))
		dst = u64(uint64(m))
		dst = binary.BigEndian.AppendUint64(dst, uint64(d))
		return binary.BigEndian.AppendUint64(dst, uint64(ns))
	case *array.String:
		v := x.Value(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(len(v)))
		return append(dst, v...)
	}
	return dst
}
