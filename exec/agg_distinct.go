package exec

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
)

// Distinct aggregates: each worker keeps the (group, value) pairs new to
// it; phase 2 re-checks them against a per-partition set and feeds the
// globally new values to the aggregate's ordinary state.

func (l *aggLocal) addDistinct(c *Context, i int, arg arrow.Array) error {
	sel := l.dist[i].addNew(l.gids, arg)
	if len(sel) == 0 {
		return nil
	}
	ch := distinctChunk{gids: make([]int32, len(sel)), vals: TakeArray(c.Alloc, arg, sel)}
	for k, r := range sel {
		ch.gids[k] = l.gids[r]
	}
	l.chunks[i] = append(l.chunks[i], ch)
	return nil
}

// distinctSet is a set of (group id, value) pairs.
type distinctSet struct {
	codec keyCodec
	table *keyTable
	ints  bool // integer-like values: the pairs go into a pair table
	bk    batchKeys
	buf   []byte
	sel   []int32
}

// newDistinctSet is a set for values of type t, sized for about pairs
// pairs (0 when unknown).
func newDistinctSet(t arrow.DataType, pairs int) *distinctSet {
	if kc, err := newKeyCodec([]arrow.DataType{t}); err == nil && kc.single {
		// Integers, decimals and dates: (group id, value) as two int64s
		// in a pair table, not serialised and hashed as bytes (TPC-H q16's
		// count(distinct ps_suppkey) spent 45% of its time there at SF10).
		return &distinctSet{ints: true, table: newFullKeyTable(keyCodec{pair: true}, pairs)}
	}
	return &distinctSet{codec: keyCodec{types: []arrow.DataType{t}}, table: newFullKeyTable(keyCodec{}, pairs)}
}

// addNew adds the pairs (gids[i], arg[i]) for non-NULL values and returns
// the rows whose pair was not in the set yet.
func (d *distinctSet) addNew(gids []int32, arg arrow.Array) []int32 {
	n := arg.Len()
	d.sel = d.sel[:0]
	if d.ints {
		vals := keyInts(arg, n, &d.bk.own)
		nulls := arg.NullN() > 0
		for i, v := range vals[:n] {
			if nulls && arg.IsNull(i) {
				continue
			}
			g := int64(gids[i])
			before := d.table.len()
			if int(d.table.insertPair(g, v, 0, pairHash(g, v, 0))) == before {
				d.sel = append(d.sel, int32(i))
			}
		}
		return d.sel
	}
	d.codec.encode([]arrow.Array{arg}, n, &d.bk)
	for i := range n {
		if arg.IsNull(i) {
			continue
		}
		d.buf = binary.LittleEndian.AppendUint32(d.buf[:0], uint32(gids[i]))
		d.buf = append(d.buf, d.bk.row(i)...)
		before := d.table.len()
		if int(d.table.insertBytes(d.buf, maphash.Bytes(hashSeed, d.buf))) == before {
			d.sel = append(d.sel, int32(i))
		}
	}
	return d.sel
}

// mergeDistinct feeds the values of aggregate i that are new to the
// partition's set into its state.
func (ap *aggPlan) mergeDistinct(c *Context, i int, s aggState, locals []*aggLocal, toFinal [][]int32, p, nparts int) error {
	// Sized for this partition's share of the workers' pairs, so that
	// the set does not grow through every size from the smallest.
	pairs := 0
	for _, l := range locals {
		for _, ch := range l.chunks[i] {
			pairs += len(ch.gids)
		}
	}
	set := newDistinctSet(ap.node.Aggs[i].Arg.DataType(), pairs/nparts)
	var sel, fg []int32
	for w, l := range locals {
		for _, ch := range l.chunks[i] {
			sel, fg = sel[:0], fg[:0]
			for r, g := range ch.gids {
				if l.table == nil || partitionOf(l.table.hashOf(g), nparts) == p {
					sel = append(sel, int32(r))
					fg = append(fg, toFinal[w][g])
				}
			}
			if len(sel) == 0 {
				continue
			}
			sub := TakeArray(c.Alloc, ch.vals, sel)
			fresh := set.addNew(fg, sub)
			gids := make([]int32, len(fresh))
			for k, r := range fresh {
				gids[k] = fg[r]
			}
			vals := TakeArray(c.Alloc, sub, fresh)
			sub.Release()
			err := s.update(gids, vals)
			vals.Release()
			if err != nil {
				return err
			}
		}
	}
	return nil
}
