package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// logicNode is AND or OR over two or more Booleans (SQL three-valued).
type logicNode struct {
	or   bool
	args []node
}

func (n *logicNode) typ() arrow.DataType { return Boolean }

// filter refines the selection: AND evaluates each conjunct only on the
// rows the previous ones kept; OR evaluates each disjunct only on the rows
// not yet selected.
func (n *logicNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	if !n.or {
		base := len(dst)
		out, err := filterRows(c, b, n.args[0], cand, dst)
		if err != nil {
			return nil, err
		}
		for _, a := range n.args[1:] {
			if len(out) == base {
				break
			}
			sel := out[base:]
			r, err := filterRows(c, b, a, sel, sel[:0])
			if err != nil {
				return nil, err
			}
			out = append(out[:base], r...)
		}
		return out, nil
	}
	rest := cand
	if rest == nil {
		rest = make([]int32, c.n)
		for i := range rest {
			rest[i] = int32(i)
		}
	} else {
		rest = append([]int32(nil), cand...)
	}
	var acc []int32
	for _, a := range n.args {
		if len(rest) == 0 {
			break
		}
		hit, err := filterRows(c, b, a, rest, nil)
		if err != nil {
			return nil, err
		}
		if len(hit) == 0 {
			continue
		}
		acc = mergeSorted(acc, hit)
		rest = minusSorted(rest, hit)
	}
	return append(dst, acc...), nil
}

// mergeSorted unions two disjoint ascending lists.
func mergeSorted(a, b []int32) []int32 {
	if len(a) == 0 {
		return append([]int32(nil), b...)
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// minusSorted removes the (ascending) rows of b from a, in place.
func minusSorted(a, b []int32) []int32 {
	k, j := 0, 0
	for _, r := range a {
		for j < len(b) && b[j] < r {
			j++
		}
		if j < len(b) && b[j] == r {
			continue
		}
		a[k] = r
		k++
	}
	return a[:k]
}

// truthBits returns fresh bitmaps (bit 0 = row 0) of the rows where a is
// TRUE and where it is FALSE.
func truthBits(a arrow.Array, n int) (t, f []byte) {
	nb := int(bitutil.BytesForBits(int64(n)))
	t, f = make([]byte, nb), make([]byte, nb)
	if a.DataType().ID() == arrow.NULL {
		return t, f
	}
	d := a.Data()
	bitutil.CopyBitmap(d.Buffers()[1].Bytes(), d.Offset(), n, t, 0)
	for i := range f {
		f[i] = ^t[i]
	}
	if v := validBits(a); v != nil {
		vb := make([]byte, nb)
		bitutil.CopyBitmap(v, d.Offset(), n, vb, 0)
		for i := range t {
			t[i] &= vb[i]
			f[i] &= vb[i]
		}
	}
	return t, f
}

func (n *logicNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	var T, F []byte
	for i, an := range n.args {
		a, err := an.eval(c, b)
		if err != nil {
			return nil, err
		}
		t, f := truthBits(a, c.n)
		a.Release()
		if i == 0 {
			T, F = t, f
			continue
		}
		for j := range T {
			if n.or {
				T[j] |= t[j]
				F[j] &= f[j]
			} else {
				T[j] &= t[j]
				F[j] |= f[j]
			}
		}
	}
	vals := newBitmap(c.mem, c.n)
	valid := newBitmap(c.mem, c.n)
	vb, db := valid.Bytes(), vals.Bytes()
	for j := range T {
		db[j] = T[j]
		vb[j] = T[j] | F[j]
	}
	return finish(Boolean, c.n, valid, vals), nil
}

// notNode is NOT: TRUE ↔ FALSE, NULL stays NULL.
type notNode struct{ a node }

func (n *notNode) typ() arrow.DataType { return Boolean }

func (n *notNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.DataType().ID() == arrow.NULL {
		return allNull(c, Boolean), nil
	}
	vals := newBitmap(c.mem, c.n)
	d := a.Data()
	bitutil.InvertBitmap(d.Buffers()[1].Bytes(), d.Offset(), c.n, vals.Bytes(), 0)
	return finish(Boolean, c.n, mergeValidity(c.mem, c.n, a), vals), nil
}

func (n *notNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.DataType().ID() == arrow.NULL {
		return dst, nil
	}
	d := a.Data()
	off := d.Offset()
	vals := d.Buffers()[1].Bytes()
	valid := validBits(a)
	return selectRows(c, cand, dst, func(i int) bool {
		return !bitSet(vals, off+i) && isValid(valid, off, i)
	}), nil
}

// selectRows is the generic per-row selection for the rarer predicates.
func selectRows(c *ctx, cand, dst []int32, keep func(i int) bool) []int32 {
	if cand == nil {
		for i := 0; i < c.n; i++ {
			if keep(i) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for _, r := range cand {
		if keep(int(r)) {
			dst = append(dst, r)
		}
	}
	return dst
}

// isNullNode is IS NULL / IS NOT NULL: never NULL itself.
type isNullNode struct {
	a   node
	not bool
}

func (n *isNullNode) typ() arrow.DataType { return Boolean }

// nullsOf describes where o is NULL: everywhere (all), nowhere (valid nil
// and !all) or per the bitmap valid from bit off.
func nullsOf(o operand) (all bool, valid []byte, off int) {
	if o.sc != nil {
		return o.sc.null, nil, 0
	}
	if o.arr.DataType().ID() == arrow.NULL {
		return true, nil, 0
	}
	return false, validBits(o.arr), o.arr.Data().Offset()
}

func (n *isNullNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	o, err := evalOperand(c, b, n.a)
	if err != nil {
		return nil, err
	}
	defer o.release()
	all, valid, off := nullsOf(o)
	vals := newBitmap(c.mem, c.n)
	vb := vals.Bytes()
	for i := 0; i < c.n; i++ {
		isNull := all || (valid != nil && !bitSet(valid, off+i))
		if isNull != n.not {
			setBit(vb, i)
		}
	}
	return finish(Boolean, c.n, nil, vals), nil
}

func (n *isNullNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	o, err := evalOperand(c, b, n.a)
	if err != nil {
		return nil, err
	}
	defer o.release()
	all, valid, off := nullsOf(o)
	if all || valid == nil {
		if all != n.not {
			return appendCand(c, cand, dst), nil
		}
		return dst, nil
	}
	return selectRows(c, cand, dst, func(i int) bool { return !bitSet(valid, off+i) != n.not }), nil
}
