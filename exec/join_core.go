package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// joinCore turns candidate (left row, right row) pairs into a join's
// output; hash and nested-loop joins differ only in how they find pairs.
type joinCore struct {
	typ        JoinType
	out        *arrow.Schema
	pairSchema *arrow.Schema // left columns then right columns
	cond       *compiledExpr // over pairSchema; nil: every pair qualifies
	right      arrow.RecordBatch
	// alias, when set, gives per right column the left column that holds
	// the same values in every matched pair (keyAliases), else -1.
	alias []int
}

// pairGen appends up to limit-len(li) further pairs to li/ri and reports
// whether more may follow.
type pairGen func(li, ri []int32, limit int) ([]int32, []int32, bool)

var errSingleRow = errs.New(errs.Execution, "subquery returns more than 1 row")

func newJoinCore(typ JoinType, ls, rs, out *arrow.Schema, cond expr.Expr) (*joinCore, error) {
	if typ < expr.JoinInner || typ > expr.JoinSingle {
		return nil, errs.New(errs.Internal, "join type %d", typ)
	}
	fields := append(append([]arrow.Field{}, ls.Fields()...), rs.Fields()...)
	want := len(fields)
	if typ == expr.JoinSemi || typ == expr.JoinAnti {
		want = ls.NumFields()
	}
	if out.NumFields() != want {
		return nil, errs.New(errs.Internal, "%s join: output has %d columns, want %d", typ, out.NumFields(), want)
	}
	for i := range want {
		if !arrow.TypeEqual(out.Field(i).Type, fields[i].Type) {
			return nil, errs.New(errs.Internal, "%s join: output column %d is %s, input gives %s", typ, i, out.Field(i).Type, fields[i].Type)
		}
	}
	jc := &joinCore{typ: typ, out: out, pairSchema: arrow.NewSchema(fields, nil)}
	if cond != nil {
		ce, err := compileExpr(cond)
		if err != nil {
			return nil, err
		}
		jc.cond = &ce
	}
	return jc, nil
}

// joinBatch joins left batch b with the pairs gen yields and sends the
// output. exclude (may be nil) marks left rows that never qualify for
// semi/anti output (NOT IN with a NULL key).
func (jc *joinCore) joinBatch(c *Context, b arrow.RecordBatch, gen pairGen, exclude []bool, out chan<- arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	limit := c.BatchSize
	var matched []bool
	if jc.typ != expr.JoinInner {
		matched = make([]bool, n)
	}
	li, ri := make([]int32, 0, min(limit, 4096)), make([]int32, 0, min(limit, 4096))
	var sel []int32
	for more := true; more; {
		li, ri, more = gen(li[:0], ri[:0], limit)
		if len(li) == 0 {
			continue
		}
		if jc.cond != nil {
			pb := jc.gather(c, jc.pairSchema, b, li, ri, true)
			var err error
			sel, err = jc.cond.filter(c.Alloc, pb, sel[:0])
			pb.Release()
			if err != nil {
				return err
			}
			for k, s := range sel {
				li[k], ri[k] = li[s], ri[s]
			}
			li, ri = li[:len(sel)], ri[:len(sel)]
		}
		if jc.typ == expr.JoinSingle {
			for _, l := range li {
				if matched[l] {
					return errSingleRow
				}
				matched[l] = true
			}
		} else if matched != nil {
			for _, l := range li {
				matched[l] = true
			}
		}
		if len(li) > 0 && jc.typ != expr.JoinSemi && jc.typ != expr.JoinAnti {
			if !Send(c, out, jc.gather(c, jc.out, b, li, ri, true)) {
				return c.Err()
			}
		}
		if err := c.Err(); err != nil {
			return err
		}
	}
	switch jc.typ {
	case expr.JoinLeft, expr.JoinSingle:
		li, ri = li[:0], ri[:0]
		for l, m := range matched {
			if !m {
				li = append(li, int32(l))
				ri = append(ri, -1)
			}
		}
		if len(li) > 0 && !Send(c, out, jc.gather(c, jc.out, b, li, ri, false)) {
			return c.Err()
		}
	case expr.JoinSemi, expr.JoinAnti:
		want := jc.typ == expr.JoinSemi
		li = li[:0]
		for l, m := range matched {
			if m == want && (exclude == nil || !exclude[l]) {
				li = append(li, int32(l))
			}
		}
		if len(li) == 0 {
			return nil
		}
		var r arrow.RecordBatch
		if len(li) == n {
			r = array.NewRecordBatch(jc.out, b.Columns(), b.NumRows())
		} else {
			t := TakeBatch(c.Alloc, b, li)
			r = array.NewRecordBatch(jc.out, t.Columns(), t.NumRows())
			t.Release()
		}
		if !Send(c, out, r) {
			return c.Err()
		}
	}
	return nil
}

// gather builds a batch of schema from left rows li of b followed by
// right rows ri of the build side (-1: NULLs), or only the left columns
// when schema has no more. matched: every pair is a key match, so a
// right key column with a left alias is taken from b, in b's order,
// instead of at random from the build side.
func (jc *joinCore) gather(c *Context, schema *arrow.Schema, b arrow.RecordBatch, li, ri []int32, matched bool) arrow.RecordBatch {
	cols := make([]arrow.Array, 0, schema.NumFields())
	whole := isIdentity(li, int(b.NumRows()))
	for i := range int(b.NumCols()) {
		cols = append(cols, takeOrWhole(c.Alloc, b.Column(i), li, whole))
	}
	for i := 0; len(cols) < schema.NumFields(); i++ {
		if matched && jc.alias != nil && jc.alias[i] >= 0 {
			if a := b.Column(jc.alias[i]); arrow.TypeEqual(a.DataType(), jc.right.Column(i).DataType()) {
				cols = append(cols, takeOrWhole(c.Alloc, a, li, whole))
				continue
			}
		}
		cols = append(cols, TakeArray(c.Alloc, jc.right.Column(i), ri))
	}
	out := array.NewRecordBatch(schema, cols, int64(len(li)))
	releaseArrays(cols)
	return out
}

// takeOrWhole is TakeArray, or arr itself (retained) when whole: idx
// takes every row once and in order (isIdentity), as a key join whose
// probe rows each match one build row does, after a join filter.
func takeOrWhole(mem memory.Allocator, arr arrow.Array, idx []int32, whole bool) arrow.Array {
	if whole {
		arr.Retain()
		return arr
	}
	return TakeArray(mem, arr, idx)
}

// isIdentity reports whether idx is 0, 1, …, n-1.
func isIdentity(idx []int32, n int) bool {
	if len(idx) != n || n == 0 || idx[n-1] != int32(n-1) {
		return false
	}
	for i, x := range idx {
		if x != int32(i) {
			return false
		}
	}
	return true
}
