package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// try_cast is TRY_CAST(x AS type) (DuckDB's): CAST, but a value that does
// not convert is NULL instead of an error. The planner emits it (the
// grammar's TRY_CAST), so it has no SQL names of its own; the device has
// no code for it, so placement leaves it to the CPU.
func init() {
	Register(&Function{Name: "try_cast", MinArgs: 1, MaxArgs: 1,
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			cn, err := newCast(args[0], call.Type)
			if err != nil {
				return nil, err
			}
			return &tryCastNode{cast: cn.(*castNode)}, nil
		},
		Doc: "try_cast(x AS type) → type: CAST, NULL where a value does not convert"})
}

type tryCastNode struct{ cast *castNode }

func (n *tryCastNode) typ() arrow.DataType { return n.cast.to }

func (n *tryCastNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.cast.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	r, err := n.cast.convert(c, a)
	if err == nil {
		return r, nil
	}
	if errs.KindOf(err) != errs.Execution {
		return nil, err
	}
	// Some value does not convert: find which, one row at a time, make
	// them NULL in a copy of the argument and convert that.
	off := a.Data().Offset()
	valid := validBits(a)
	mask := newBitmap(c.mem, off+c.n)
	defer mask.Release()
	mb := mask.Bytes()
	one := &ctx{mem: c.mem, n: 1}
	for i := 0; i < c.n; i++ {
		if !isValid(valid, off, i) {
			continue
		}
		row := array.NewSlice(a, int64(i), int64(i+1))
		v, err := n.cast.convert(one, row)
		row.Release()
		if err != nil {
			if errs.KindOf(err) != errs.Execution {
				return nil, err
			}
			continue
		}
		v.Release()
		setBit(mb, off+i)
	}
	d := a.Data()
	bufs := append([]*memory.Buffer{mask}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), d.Len(), bufs, d.Children(), array.UnknownNullCount, off)
	defer nd.Release()
	masked := array.MakeFromData(nd)
	defer masked.Release()
	return n.cast.convert(c, masked)
}
