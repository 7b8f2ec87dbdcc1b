package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// keyCastNode widens an Int64 or Decimal equi-join key to the Decimal
// scale both sides of the join are hashed at ("key_cast"). A value with
// no representation at that scale (beyond int64 once rescaled, such as
// BIGINT 9223372036854775807 at scale 2) cannot equal any value of the
// other side, whose keys all fit, so it becomes NULL, a key that matches
// nothing, where "cast" would fail the query with an overflow. Only for
// joins in which a NULL key means "no match" (not NOT IN's null-aware
// anti join, where NULL changes the answer).
type keyCastNode struct {
	a  node
	to arrow.DataType
}

func newKeyCast(a node, to arrow.DataType) (node, error) {
	from := a.typ().ID()
	if to.ID() != arrow.DECIMAL64 || (from != arrow.INT64 && from != arrow.DECIMAL64) || scaleOf(a.typ()) > scaleOf(to) {
		return nil, errs.New(errs.Internal, "key_cast from %s to %s", a.typ(), to)
	}
	return &keyCastNode{a: a, to: to}, nil
}

func (n *keyCastNode) typ() arrow.DataType { return n.to }

func (n *keyCastNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	buf, out := outI64(c.mem, c.n)
	valid := mergeValidity(c.mem, c.n, a)
	m := pow10[scaleOf(n.to)-scaleOf(a.DataType())]
	var bits []byte
	for i, v := range i64s(a) {
		p, ok := mulOvf(v, m)
		out[i] = p
		if !ok {
			if bits == nil {
				valid = ownValidity(c.mem, c.n, valid)
				bits = valid.Bytes()
			}
			clearBit(bits, i)
		}
	}
	return finish(n.to, c.n, valid, buf), nil
}
