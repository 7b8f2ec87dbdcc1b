package expr

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// The string functions. Arguments are cast to VARCHAR (positions and
// lengths to BIGINT); NULL in → NULL out. Their CPU kernel is strFnNode;
// the device runs only substring, as a view that comparisons with
// constants and LIKE read (a string result cannot leave a kernel).
func init() {
	Register(&Function{Name: "upper", SQL: []string{"upper", "ucase"}, MinArgs: 1, MaxArgs: 1,
		Bind: unary("upper", String, String), CPU: newStringFn, NullPropagating: true,
		Doc: "upper(s VARCHAR) → VARCHAR"})
	Register(&Function{Name: "lower", SQL: []string{"lower", "lcase"}, MinArgs: 1, MaxArgs: 1,
		Bind: unary("lower", String, String), CPU: newStringFn, NullPropagating: true,
		Doc: "lower(s VARCHAR) → VARCHAR"})
	for _, fn := range []string{"trim", "ltrim", "rtrim"} {
		Register(&Function{Name: fn, SQL: []string{fn}, MinArgs: 1, MaxArgs: 1,
			Bind: unary(fn, String, String), CPU: newStringFn,
			Doc: fn + "(s VARCHAR) → VARCHAR: spaces removed"})
	}
	Register(&Function{Name: "length", SQL: []string{"length", "char_length", "character_length"}, MinArgs: 1, MaxArgs: 1,
		Bind: unary("length", String, Int64), CPU: newStringFn, NullPropagating: true,
		Doc: "length(s VARCHAR) → BIGINT: characters"})
	Register(&Function{Name: "substring", SQL: []string{"substring", "substr", "mid"}, MinArgs: 2, MaxArgs: 3,
		Bind: bindSubstring, CPU: newStringFn, GPU: gpuSubstring,
		Doc: "substring(s VARCHAR, start BIGINT [, len BIGINT]) → VARCHAR: 1-based, MySQL rules"})
	Register(&Function{Name: "concat", SQL: []string{"concat"}, MinArgs: 1, MaxArgs: Variadic,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			out, err := castAll(b, args, String)
			if err != nil {
				return nil, err
			}
			return b.Call("concat", out, String), nil
		}, CPU: newStringFn, NullPropagating: true,
		Doc: "concat(s VARCHAR, …) → VARCHAR: NULL if any is NULL"})
	// starts_with(s, prefix) → Boolean; the planner also emits it for
	// LIKE 'p%'.
	Register(&Function{Name: "starts_with", SQL: []string{"starts_with", "prefix"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("starts_with", "s", Boolean), CPU: newStringFn, NullPropagating: true,
		Doc: "starts_with(s VARCHAR, prefix VARCHAR) → BOOLEAN"})
}

func bindSubstring(b Binder, _ string, args []Operand) (Operand, error) {
	s, err := b.Cast(args[0], String)
	if err != nil {
		return nil, err
	}
	out := []Operand{s}
	for _, a := range args[1:] {
		if !isIntType(a.Type()) && !isNullType(a.Type()) {
			return nil, errs.New(errs.Binding, "substring position and length must be integers, got %s", TypeName(a.Type()))
		}
		a, _ = b.Cast(a, Int64)
		out = append(out, a)
	}
	return b.Call("substring", out, String), nil
}

// gpuSubstring is SUBSTRING(s, start[, len]) of a string column as a view
// of its bytes (a pointer and a length, no copy).
func gpuSubstring(g DeviceGen, call *Call) (DevValue, error) {
	args, err := g.Args(call)
	if err != nil {
		return DevValue{}, err
	}
	s := args[0]
	if s.Len == "" || len(args) < 2 || len(args) > 3 {
		return DevValue{}, g.Unsupported("substring of a constant")
	}
	nulls := []string{s.Null}
	for _, a := range args[1:] {
		if a.Type.ID() != arrow.INT64 {
			return DevValue{}, g.Unsupported(fmt.Sprintf("substring with a %s position", a.Type))
		}
		nulls = append(nulls, a.Null)
	}
	t := g.Fresh()
	v := DevValue{Val: t, Len: t + "_len", Null: t + "_n", Type: String}
	g.Line("const u8* %s = %s; i32 %s = 0; bool %s = %s;", v.Val, s.Val, v.Len, v.Null, strings.Join(nulls, " || "))
	length, hasLen := "0", "false"
	if len(args) == 3 {
		length, hasLen = args[2].Val, "true"
	}
	g.Line("if (!%s) { i32 o; gq_substring(%s, %s, (i64)%s, (i64)%s, %s, &o, &%s); %s += o; }", v.Null, s.Val, s.Len, args[1].Val, length, hasLen, v.Len, v.Val)
	return v, nil
}

// strFnNode is one of the string functions; every argument is evaluated
// and the function runs row by row over the byte views (no per-row
// allocation on ASCII data).
type strFnNode struct {
	fn   string
	args []node
	t    arrow.DataType
	// row, when set, computes a VARCHAR result of one row (appending it
	// to dst) in place of the built-in functions' switch.
	row func(dst []byte, args []strArg, i int) []byte
}

// stringKernel is the CPU kernel of a function returning VARCHAR whose
// first argument is a VARCHAR, given as the function of one row: the
// kernel evaluates the arguments, merges their NULLs and calls row for
// each row where none is NULL (an argument that is a NULL constant makes
// the whole result NULL). A new string function needs only its row.
func stringKernel(row func(dst []byte, args []strArg, i int) []byte) func(*Call, []node) (node, error) {
	return func(call *Call, args []node) (node, error) {
		if len(args) == 0 {
			return nil, argErr(call, "wrong number of arguments (0)")
		}
		if err := wantType(call, args[0], arrow.STRING); err != nil {
			return nil, err
		}
		return &strFnNode{fn: call.Fn, args: args, t: call.Type, row: row}, nil
	}
}

func newStringFn(call *Call, args []node) (node, error) {
	var err error
	switch call.Fn {
	case "substring":
		err = wantArgs(call, args, 2, 3)
		if err == nil {
			err = wantType(call, args[0], arrow.STRING)
		}
		for _, a := range args[1:] {
			if err == nil {
				err = wantType(call, a, arrow.INT64)
			}
		}
	case "concat":
		err = wantArgs(call, args, 1, -1)
		for _, a := range args {
			if err == nil {
				err = wantType(call, a, arrow.STRING)
			}
		}
	case "starts_with":
		err = wantArgs(call, args, 2, 2)
		for _, a := range args {
			if err == nil {
				err = wantType(call, a, arrow.STRING)
			}
		}
	default:
		err = wantArgs(call, args, 1, 1)
		if err == nil {
			err = wantType(call, args[0], arrow.STRING)
		}
	}
	if err != nil {
		return nil, err
	}
	return &strFnNode{fn: call.Fn, args: args, t: call.Type}, nil
}

func (n *strFnNode) typ() arrow.DataType { return n.t }

// strArg is an evaluated string or integer argument.
type strArg struct {
	o    operand
	offs []int32
	data []byte
	ints []int64
	// The row kernels' views (rowkernel.go): DOUBLE and DATE values, and
	// the validity bitmap (indexed from off) where the row reads NULLs.
	floats []float64
	dates  []int32
	valid  []byte
	off    int
}

func (a *strArg) str(i int) []byte {
	if a.o.sc != nil {
		return []byte(a.o.sc.s)
	}
	return a.data[a.offs[i]:a.offs[i+1]]
}

func (a *strArg) int(i int) int64 {
	if a.o.sc != nil {
		return a.o.sc.i
	}
	return a.ints[i]
}

func (n *strFnNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	ops, err := evalOperands(c, b, n.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ops)
	args := make([]strArg, len(ops))
	var arrs []arrow.Array
	for j, o := range ops {
		if o.nullScalar() {
			return allNull(c, n.t), nil
		}
		args[j].o = o
		if o.sc != nil {
			continue
		}
		arrs = append(arrs, o.arr)
		if o.arr.DataType().ID() == arrow.STRING {
			args[j].offs, args[j].data = strView(o.arr)
		} else {
			args[j].ints = i64s(o.arr)
		}
	}
	valid := mergeValidity(c.mem, c.n, arrs...)
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	ok := func(i int) bool { return vb == nil || bitSet(vb, i) }
	switch n.fn {
	case "length":
		buf, out := outI64(c.mem, c.n)
		for i := range out {
			out[i] = 0
			if ok(i) {
				out[i] = int64(utf8.RuneCount(args[0].str(i)))
			}
		}
		return finish(n.t, c.n, valid, buf), nil
	case "starts_with":
		vals := newBitmap(c.mem, c.n)
		db := vals.Bytes()
		for i := 0; i < c.n; i++ {
			if ok(i) && bytes.HasPrefix(args[0].str(i), args[1].str(i)) {
				setBit(db, i)
			}
		}
		return finish(n.t, c.n, valid, vals), nil
	}
	size := 0
	if len(ops) > 0 && ops[0].arr != nil && ops[0].arr.DataType().ID() == arrow.STRING {
		size = len(args[0].data)
	}
	s := newStrOut(c.mem, c.n, size)
	var tmp []byte
	for i := 0; i < c.n; i++ {
		if !ok(i) {
			s.empty()
			continue
		}
		if n.row != nil {
			tmp = n.row(tmp[:0], args, i)
			s.add(tmp)
			continue
		}
		v := args[0].str(i)
		switch n.fn {
		case "substring":
			l := int64(-1)
			if len(args) == 3 {
				l = args[2].int(i)
			}
			s.add(substring(v, args[1].int(i), l, len(args) == 3))
		case "upper", "lower":
			tmp = changeCase(tmp[:0], v, n.fn == "upper")
			s.add(tmp)
		case "trim":
			s.add(bytes.Trim(v, " "))
		case "ltrim":
			s.add(bytes.TrimLeft(v, " "))
		case "rtrim":
			s.add(bytes.TrimRight(v, " "))
		case "concat":
			tmp = tmp[:0]
			for j := range args {
				tmp = append(tmp, args[j].str(i)...)
			}
			s.add(tmp)
		}
	}
	return s.finish(valid), nil
}

// substring follows MySQL: 1-based, negative start counts from the end,
// start 0 or past the end gives ”, a negative length gives ”.
func substring(s []byte, start, length int64, hasLen bool) []byte {
	ascii := isASCII(s)
	var nch int64
	if ascii {
		nch = int64(len(s))
	} else {
		nch = int64(utf8.RuneCount(s))
	}
	if start == 0 || (hasLen && length <= 0) {
		return nil
	}
	if start < 0 {
		start = nch + start
		if start < 0 {
			return nil
		}
	} else {
		start--
	}
	if start >= nch {
		return nil
	}
	end := nch
	if hasLen && length < nch-start {
		end = start + length
	}
	if ascii {
		return s[start:end]
	}
	// character positions → byte positions
	bs, be, ch := len(s), len(s), int64(0)
	for bi := range bstr(s) {
		if ch == start {
			bs = bi
		}
		if ch == end {
			be = bi
			break
		}
		ch++
	}
	return s[bs:be]
}

func isASCII(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func changeCase(dst, s []byte, upper bool) []byte {
	if !isASCII(s) {
		if upper {
			return append(dst, strings.ToUpper(bstr(s))...)
		}
		return append(dst, strings.ToLower(bstr(s))...)
	}
	for _, c := range s {
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
