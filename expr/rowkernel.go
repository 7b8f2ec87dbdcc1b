package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// The row kernels: the CPU kernel of a function whose work per row (a
// string scan, a digest, a regex, a transcendental) dwarfs one closure
// call, written as the function of one row over its evaluated arguments.
// The kernel evaluates the arguments once per batch, keeps constants as
// scalars, merges their NULLs and builds the result array; the function's
// own file holds only the row. A row returns ok false for a NULL result
// (sha2 of an unknown length, json_extract of a missing path) and an error
// for a value it cannot compute (that error fails the query).
//
// A string row appends its value to dst and returns it: it never returns
// a slice of an argument's bytes, since the kernel reuses dst's storage.

// rowNode is a call computed row by row; exactly one of the row functions
// is set, the one of the result type.
type rowNode struct {
	fn   string
	args []node
	t    arrow.DataType
	// seesNulls: the row is called for every row and reads args[j].null(i)
	// itself (concat_ws); otherwise a row with a NULL argument is NULL.
	seesNulls bool
	str       func(dst []byte, a []strArg, i int) ([]byte, bool, error)
	i64       func(a []strArg, i int) (int64, bool, error)
	f64       func(a []strArg, i int) (float64, bool, error)
	bl        func(a []strArg, i int) (bool, bool, error)
	day       func(a []strArg, i int) (int32, bool, error)
}

// Constructors of the CPU kernel of a registry entry from its row.

func strRows(row func(dst []byte, a []strArg, i int) ([]byte, bool, error)) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) { return newRowNode(call, args, &rowNode{str: row}) }
}

func intRows(row func(a []strArg, i int) (int64, bool, error)) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) { return newRowNode(call, args, &rowNode{i64: row}) }
}

func floatRows(row func(a []strArg, i int) (float64, bool, error)) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) { return newRowNode(call, args, &rowNode{f64: row}) }
}

func boolRows(row func(a []strArg, i int) (bool, bool, error)) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) { return newRowNode(call, args, &rowNode{bl: row}) }
}

func dateRows(row func(a []strArg, i int) (int32, bool, error)) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) { return newRowNode(call, args, &rowNode{day: row}) }
}

// newRowNode checks that the arguments have the types a row reads (the
// type rules cast to these) and that the result type is the row's.
func newRowNode(call *Call, args []node, n *rowNode) (node, error) {
	for _, a := range args {
		if err := wantType(call, a, arrow.STRING, arrow.INT64, arrow.FLOAT64, arrow.DATE32); err != nil {
			return nil, err
		}
	}
	want := arrow.STRING
	switch {
	case n.i64 != nil:
		want = arrow.INT64
	case n.f64 != nil:
		want = arrow.FLOAT64
	case n.bl != nil:
		want = arrow.BOOL
	case n.day != nil:
		want = arrow.DATE32
	}
	if call.Type.ID() != want {
		return nil, argErr(call, "result type %s, the kernel makes %s", call.Type, want)
	}
	n.fn, n.args, n.t = call.Fn, args, call.Type
	return n, nil
}

func (n *rowNode) typ() arrow.DataType { return n.t }

// strArg binding for the row kernels: every argument type a row reads.
func (a *strArg) bind(o operand) {
	a.o = o
	if o.arr == nil {
		return
	}
	a.valid, a.off = validBits(o.arr), o.arr.Data().Offset()
	switch o.arr.DataType().ID() {
	case arrow.STRING:
		a.offs, a.data = strView(o.arr)
	case arrow.FLOAT64:
		a.floats = f64s(o.arr)
	case arrow.INT64:
		a.ints = i64s(o.arr)
	case arrow.DATE32:
		a.dates = i32s(o.arr)
	}
}

// null reports whether the argument is NULL at row i.
func (a *strArg) null(i int) bool {
	if a.o.sc != nil {
		return a.o.sc.null
	}
	return a.valid != nil && !bitSet(a.valid, a.off+i)
}

// float is a DOUBLE argument at row i.
func (a *strArg) float(i int) float64 {
	if a.o.sc != nil {
		return a.o.sc.f
	}
	return a.floats[i]
}

// date is a DATE argument at row i (days since the epoch).
func (a *strArg) date(i int) int32 {
	if a.o.sc != nil {
		return int32(a.o.sc.i)
	}
	return a.dates[i]
}

func (n *rowNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	ops, err := evalOperands(c, b, n.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ops)
	args := make([]strArg, len(ops))
	var arrs []arrow.Array
	for j, o := range ops {
		if !n.seesNulls && (o.nullScalar() || o.arr != nil && o.arr.DataType().ID() == arrow.NULL) {
			return allNull(c, n.t), nil
		}
		args[j].bind(o)
		if o.arr != nil {
			arrs = append(arrs, o.arr)
		}
	}
	var valid *memory.Buffer
	if !n.seesNulls {
		valid = mergeValidity(c.mem, c.n, arrs...)
	}
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	owned := false
	setNull := func(i int) {
		if !owned {
			valid, owned = ownValidity(c.mem, c.n, valid), true
			vb = valid.Bytes()
		}
		clearBit(vb, i)
	}
	fail := func(bufs ...*memory.Buffer) {
		for _, x := range append(bufs, valid) {
			releaseBuf(x)
		}
	}
	present := func(i int) bool { return vb == nil || bitSet(vb, i) }
	switch {
	case n.str != nil:
		size := 0
		if len(args) > 0 && args[0].data != nil {
			size = len(args[0].data)
		}
		s := newStrOut(c.mem, c.n, size)
		var tmp []byte
		for i := 0; i < c.n; i++ {
			if !present(i) {
				s.empty()
				continue
			}
			v, ok, err := n.str(tmp[:0], args, i)
			if err != nil {
				fail(s.offs, s.data)
				return nil, err
			}
			if !ok {
				setNull(i)
				s.empty()
				continue
			}
			s.add(v)
			tmp = v
		}
		return s.finish(valid), nil
	case n.i64 != nil:
		buf, out := outI64(c.mem, c.n)
		for i := range out {
			if !present(i) {
				continue
			}
			v, ok, err := n.i64(args, i)
			if err != nil {
				fail(buf)
				return nil, err
			}
			if !ok {
				setNull(i)
			}
			out[i] = v
		}
		return finish(n.t, c.n, valid, buf), nil
	case n.f64 != nil:
		buf, out := outF64(c.mem, c.n)
		for i := range out {
			if !present(i) {
				continue
			}
			v, ok, err := n.f64(args, i)
			if err != nil {
				fail(buf)
				return nil, err
			}
			if !ok {
				setNull(i)
			}
			out[i] = v
		}
		return finish(n.t, c.n, valid, buf), nil
	case n.day != nil:
		buf, out := outI32(c.mem, c.n)
		for i := range out {
			if !present(i) {
				continue
			}
			v, ok, err := n.day(args, i)
			if err != nil {
				fail(buf)
				return nil, err
			}
			if !ok {
				setNull(i)
			}
			out[i] = v
		}
		return finish(n.t, c.n, valid, buf), nil
	case n.bl != nil:
		vals := newBitmap(c.mem, c.n)
		db := vals.Bytes()
		for i := 0; i < c.n; i++ {
			if !present(i) {
				continue
			}
			v, ok, err := n.bl(args, i)
			if err != nil {
				fail(vals)
				return nil, err
			}
			if !ok {
				setNull(i)
			}
			if v {
				setBit(db, i)
			}
		}
		return finish(n.t, c.n, valid, vals), nil
	}
	fail()
	return nil, errs.New(errs.Internal, "%s: row kernel without a row", n.fn)
}
