package expr

import (
	"math"

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
//
// nn_key_cast is the same widening for NOT IN's null-aware anti join,
// where a NULL key would change the answer: the key must stay a value
// that matches nothing. A value beyond int64 at the wider scale becomes
// math.MaxInt64 or math.MinInt64 by its sign. The join rescales one side
// only (its key type has the larger of the two scales), by 10^k with
// k >= 1, so that side's real keys are multiples of 10 and neither
// sentinel (…807, …808) is one; the other side, cast at scale difference
// 0, moves its own values equal to a sentinel one step inward (…806,
// …807, again not multiples of 10), so nothing of it equals a sentinel
// either. Values that could not match still cannot, and every key that
// was a value stays a value. (With no scale difference on either side
// nothing can overflow, and the join uses plain casts.)
type keyCastNode struct {
	a       node
	to      arrow.DataType
	notNull bool // nn_key_cast
}

func newKeyCast(a node, to arrow.DataType, notNull bool) (node, error) {
	if !IsDecimal(to) || !isIntOrDec(a.typ()) || (isWide(a.typ()) && !isWide(to)) || ScaleOf(a.typ()) > ScaleOf(to) {
		name := "key_cast"
		if notNull {
			name = "nn_key_cast"
		}
		return nil, errs.New(errs.Internal, "%s from %s to %s", name, a.typ(), to)
	}
	return &keyCastNode{a: a, to: to, notNull: notNull}, nil
}

func (n *keyCastNode) typ() arrow.DataType { return n.to }

func (n *keyCastNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if isWide(n.to) {
		return n.evalWide(c, a), nil
	}
	buf, out := rawI64(c.mem, c.n)
	valid := mergeValidity(c.mem, c.n, a)
	m := pow10[ScaleOf(n.to)-ScaleOf(a.DataType())]
	if n.notNull {
		notNullKeys(out, i64s(a), m)
		return finish(n.to, c.n, valid, buf), nil
	}
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

// notNullKeys is nn_key_cast's kernel: out = v*m, a sentinel by sign
// where that overflows; at m = 1, the sentinels' own values step inward.
func notNullKeys(out, in []int64, m int64) {
	if m == 1 {
		for i, v := range in {
			switch v {
			case math.MaxInt64:
				v--
			case math.MinInt64:
				v++
			}
			out[i] = v
		}
		return
	}
	for i, v := range in {
		p, ok := mulOvf(v, m)
		if !ok {
			p = math.MaxInt64
			if v < 0 {
				p = math.MinInt64
			}
		}
		out[i] = p
	}
}

// evalWide is the widening to a decimal128 key type: a value past 38
// digits once rescaled becomes NULL (key_cast) or, for nn_key_cast,
// ±10^38, which no decimal128 value of the other side (38 digits at
// most) equals.
func (n *keyCastNode) evalWide(c *ctx, a arrow.Array) arrow.Array {
	vals, rel := wideVals(c, a)
	defer rel()
	buf, out := rawW128(c.mem, c.n)
	valid := mergeValidity(c.mem, c.n, a)
	fs, ts := ScaleOf(a.DataType()), ScaleOf(n.to)
	var bits []byte
	for i, v := range vals {
		r, ok := rescaleW(v, fs, ts)
		if ok {
			out[i] = r
			continue
		}
		if n.notNull {
			out[i] = pow10W[38]
			if v.Sign() < 0 {
				out[i] = pow10W[38].Negate()
			}
			continue
		}
		out[i] = num{}
		if bits == nil {
			valid = ownValidity(c.mem, c.n, valid)
			bits = valid.Bytes()
		}
		clearBit(bits, i)
	}
	return finish(n.to, c.n, valid, buf)
}
