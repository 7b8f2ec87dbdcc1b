package arrowgpu

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// AggTable is the device hash table of one AggKernel: its groups and their
// accumulators, filled chunk by chunk (Add) and read back once (Result).
type AggTable struct {
	k        *AggKernel
	q        *Queue
	kern     *kernel
	groups   *kernel // k.GroupsName (Having, Top), or nil
	capacity int
	state    Buffer
	scratch  Buffer // ngroups (u32) then err (u32)
	keys     []Buffer
	knull    Buffer
	accs     [][]Buffer // per op: count, then value, then high word

	// params are the values of k.Params (SetParams); nil: not given.
	params []Param

	// Local, set by the caller before Add when the aggregation has few
	// groups (its kernel Local), has each block add its rows up in shared
	// memory before adding them to the table: with a handful of groups,
	// every warp's atomics on the same few slots serialise.
	Local bool
}

// NewAggTable allocates a table of capacity slots (a power of two) for k
// and compiles k (once per device; the module is cached).
func (q *Queue) NewAggTable(k *AggKernel, capacity int) (*AggTable, error) {
	if capacity < 64 || capacity&(capacity-1) != 0 || capacity > 1<<31 {
		return nil, errs.New(errs.Internal, "arrowgpu: aggregation table of %d slots", capacity)
	}
	m, err := q.dv.module(k.fullSource(), k.Name+".cu")
	if err != nil {
		return nil, err
	}
	kern, err := q.dv.kernel(m, k.Name)
	if err != nil {
		return nil, err
	}
	fill, err := q.kernels("gq_fill_u64")
	if err != nil {
		return nil, err
	}
	t := &AggTable{k: k, q: q, kern: kern, capacity: capacity}
	if k.GroupsName != "" {
		if t.groups, err = q.dv.kernel(m, k.GroupsName); err != nil {
			return nil, err
		}
	}
	words := int64(capacity) * 8
	var zero []Buffer // buffers that start as zeros
	alloc := func(n int64, zeroed bool) (Buffer, error) {
		b, err := q.pool.Alloc(n)
		if err == nil && zeroed {
			zero = append(zero, b)
		}
		return b, err
	}
	if t.state, err = alloc(int64(capacity)*4, true); err != nil {
		return nil, t.fail(err)
	}
	if t.scratch, err = alloc(8, true); err != nil {
		return nil, t.fail(err)
	}
	for range k.Keys {
		b, err := alloc(words, false)
		if err != nil {
			return nil, t.fail(err)
		}
		t.keys = append(t.keys, b)
	}
	if t.knull, err = alloc(words, false); err != nil {
		return nil, t.fail(err)
	}
	type fillWith struct {
		b Buffer
		v uint64
	}
	var fills []fillWith
	for j, op := range k.Ops {
		n := 1 // count
		switch {
		case op.Fn == "count" || op.Fn == "count_star":
		case op.Fn == "sum" && k.ArgTypes[j].ID() != arrow.FLOAT64:
			n = 3
		default:
			n = 2
		}
		var bs []Buffer
		for w := range n {
			b, err := alloc(words, true)
			if err != nil {
				t.accs = append(t.accs, bs)
				return nil, t.fail(err)
			}
			bs = append(bs, b)
			if w == 1 && (op.Fn == "min" || op.Fn == "max") {
				fills = append(fills, fillWith{b, minMaxIdentity(op.Fn, k.ArgTypes[j])})
			}
		}
		t.accs = append(t.accs, bs)
	}
	err = q.dv.Do(func() error {
		for _, b := range zero {
			if err := q.stream.memsetLocked(b.Ptr, 0, b.Size); err != nil {
				return err
			}
		}
		for _, f := range fills {
			if err := fill[0].launchLocked(q.stream, q.grid(int64(capacity)), d1(blockSize), 0, f.b.Ptr, f.v, int64(capacity)); err != nil {
				return err
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		return nil, t.fail(err)
	}
	return t, nil
}

// minMaxIdentity is the bit pattern a min or max accumulator starts from:
// the largest or least value of the type, for doubles in gq_less's order
// (NaN above +Inf).
func minMaxIdentity(fn string, t arrow.DataType) uint64 {
	if t.ID() == arrow.FLOAT64 {
		if fn == "min" {
			return math.Float64bits(math.NaN())
		}
		return math.Float64bits(math.Inf(-1))
	}
	if fn == "min" {
		return math.MaxInt64
	}
	return 1 << 63 // math.MinInt64
}

func (t *AggTable) fail(err error) error {
	t.Free()
	return err
}

// Add aggregates the rows of b. full reports that the table has run out of
// room (no free slot, or more than half the slots taken, when probing gets
// slow): its contents are then incomplete, and the caller starts again
// with a larger table.
func (t *AggTable) Add(b *Batch) (full bool, err error) { return t.AddOn(t.q, b) }

// AddOn is Add on queue q's stream: several queues may add to one table
// at once (its slots are claimed and its accumulators added to with
// atomics), each syncing only its own stream.
func (t *AggTable) AddOn(q *Queue, b *Batch) (full bool, err error) {
	k := t.k
	for i, c := range k.Inputs {
		if c >= len(b.Cols) || b.Cols[c] == nil || b.Cols[c].Type.ID() != k.InTypes[i].ID() || scale(b.Cols[c].Type) != scale(k.InTypes[i]) {
			return false, errs.New(errs.Internal, "arrowgpu: aggregation kernel expects column %d of type %s", c, k.InTypes[i])
		}
	}
	if b.Len == 0 {
		return false, nil
	}
	args := inputArgs(k.Inputs, b)
	args = append(args, t.state.Ptr, uint32(t.capacity-1), t.scratch.Ptr)
	args = t.slotArgs(args)
	local := t.Local && k.Local
	args = append(args, t.scratch.Ptr.Add(4), int64(b.Len), boolArg(local))
	grid := q.grid(int64(b.Len))
	if local {
		// One wave of blocks (8 of 256 threads fill a multiprocessor),
		// each looping over more rows: fewer blocks' tables to add up.
		grid.X = min(grid.X, uint32(max(q.dv.info.SMs, 1)*8))
	}
	var words [8]byte
	err = q.dv.Do(func() error {
		if err := t.kern.launchLocked(q.stream, grid, d1(blockSize), 0, args...); err != nil {
			return err
		}
		if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(words[:], t.scratch.Ptr)
	})
	if err != nil {
		return false, err
	}
	groups := int(binary.LittleEndian.Uint32(words[:4]))
	code := binary.LittleEndian.Uint32(words[4:])
	switch {
	case code == aggFull:
		return true, nil
	case code == aggWideBig:
		return false, errs.New(errs.Unsupported, "GPU aggregation: a DECIMAL(38) value of 2^%d or more in a sum", 64+aggWideHeadroomBits)
	case code != 0:
		site := "an expression"
		if int(code) <= len(k.Sites) {
			site = k.Sites[code-1]
		}
		return false, errs.New(errs.Execution, "overflow or value out of range in %s", site)
	}
	return groups > t.capacity/2, nil
}

// AggResult is a table's groups on the host, one row per group, as the
// raw 64-bit words of the table (the caller gives them their SQL types):
// per key its int64 image, the keys' NULL bitmask, and per op the count
// of values, the value (sum's low word, min, max; float64 bits for
// doubles) and for integer sums the high word.
type AggResult struct {
	Rows     int
	Groups   int // groups in the table (Rows: those read back)
	Keys     []*array.Int64
	KeyNulls *array.Int64
	Ops      [][]*array.Int64
	// PartOffsets, under a GroupPartition, delimit its partitions: the
	// rows of partition p are [PartOffsets[p], PartOffsets[p+1]).
	PartOffsets []uint32
}

// GroupPartition has Result bring the groups back grouped by a hash
// exchange's partition (HashPartition's hash) of the table's keys Keys
// (Double marks a double key) into Parts partitions.
type GroupPartition struct {
	Keys   []int
	Double []bool
	// Lookup, where set, holds per code the value a code key hashes as
	// (a string key: its string's FNV-1a; StringHashes).
	Lookup []Buffer
	Parts  int
}

// Release releases the arrays.
func (r *AggResult) Release() {
	for _, a := range r.Keys {
		a.Release()
	}
	if r.KeyNulls != nil {
		r.KeyNulls.Release()
	}
	for _, as := range r.Ops {
		for _, a := range as {
			a.Release()
		}
	}
}

// Result downloads the groups (in slot order, or by partition under
// part) — with a groups kernel
// (AggKernel.WithHaving, WithTopN) those where Having holds and, when
// topN > 0, only those a top-N of them by Top may keep (topThreshold).
// Every buffer's groups are gathered by one kernel into one device buffer
// and downloaded at once: a transfer per buffer cost milliseconds of round
// trips per query.
func (t *AggTable) Result(mem memory.Allocator, topN int, part *GroupPartition) (*AggResult, error) {
	q := t.q
	ks, err := q.kernels(append([]string{"gq_agg_ready", "gq_gather_64_many", "gq_topn_hist", "gq_topn_keep"}, selectKernels...)...)
	if err != nil {
		return nil, err
	}
	mask := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: t.capacity}
	if mask.Data, err = q.pool.Alloc(bitmapBytes(t.capacity)); err != nil {
		return nil, err
	}
	defer mask.Free()
	top := t.groups != nil && t.k.Top != nil && topN > 0
	var okey, cand Buffer // the groups' order keys, and the bitmap of the candidates
	defer okey.Free()
	defer cand.Free()
	if t.k.Top != nil && t.groups != nil { // the kernel writes them
		if okey, err = q.pool.Alloc(int64(t.capacity) * 8); err != nil {
			return nil, err
		}
		if cand, err = q.pool.Alloc(bitmapBytes(t.capacity)); err != nil {
			return nil, err
		}
	}
	var idx Buffer
	var m int
	var scratch [8]byte // groups, error code
	sel := ks[4:]
	err = q.dv.Do(func() error {
		if err := t.markLocked(ks[0], mask, okey, cand); err != nil {
			return err
		}
		if !top {
			var err error
			if idx, m, err = q.selectLocked(sel, mask, nil); err != nil {
				return err
			}
		} else if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(scratch[:], t.scratch.Ptr)
	})
	defer idx.Free()
	if err != nil {
		return nil, err
	}
	if err := t.scratchErr(scratch); err != nil {
		return nil, err
	}
	if top {
		th, err := q.topThreshold(ks[2], okey, cand, t.capacity, topN)
		if err != nil {
			return nil, err
		}
		err = q.dv.Do(func() error {
			if err := ks[3].launchLocked(q.stream, q.grid(int64(t.capacity)), d1(blockSize), 0, okey.Ptr, cand.Ptr, th, mask.Data.Ptr, int64(t.capacity)); err != nil {
				return err
			}
			var err error
			idx, m, err = q.selectLocked(sel, mask, nil)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	groups := m
	if t.groups != nil {
		groups = int(binary.LittleEndian.Uint32(scratch[:4]))
	}
	var offsets []uint32
	if part != nil {
		hk, err := q.kernels("gq_part_hash_words")
		if err != nil {
			return nil, err
		}
		perm, offs, err := q.partition(idx, m, part.Parts, func(hash Buffer) error {
			for i, k := range part.Keys {
				var lookup DevPtr
				if i < len(part.Lookup) {
					lookup = part.Lookup[i].Ptr
				}
				if err := hk[0].launchLocked(q.stream, q.grid(int64(m)), d1(blockSize), 0, t.keys[k].Ptr, boolArg(part.Double[i]), lookup, t.knull.Ptr, int32(k), idx.Ptr, hash.Ptr, int64(m)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		idx.Free()
		idx, offsets = perm, offs // slots, by partition
	}
	bufs := append(append(append([]Buffer(nil), t.keys...), t.knull), slices.Concat(t.accs...)...)
	ptrs := make([]byte, 8*len(bufs))
	for j, b := range bufs {
		binary.LittleEndian.PutUint64(ptrs[8*j:], uint64(b.Ptr))
	}
	host := memory.NewResizableBuffer(mem)
	defer host.Release()
	host.Resize(8 * m * len(bufs))
	if m > 0 {
		dptrs, err := q.UploadBytes(ptrs)
		if err != nil {
			return nil, err
		}
		defer dptrs.Free()
		out, err := q.pool.Alloc(int64(8 * m * len(bufs)))
		if err != nil {
			return nil, err
		}
		defer out.Free()
		err = q.dv.Do(func() error {
			if err := ks[1].launchLocked(q.stream, q.grid(int64(m)), d1(blockSize), 0, dptrs.Ptr, int32(len(bufs)), idx.Ptr, out.Ptr, int64(m)); err != nil {
				return err
			}
			if err := q.stream.syncLocked(); err != nil {
				return err
			}
			return q.getLocked(host.Bytes(), out.Ptr)
		})
		if err != nil {
			return nil, err
		}
	}
	next := 0
	column := func() *array.Int64 {
		part := memory.SliceBuffer(host, 8*m*next, 8*m)
		defer part.Release()
		next++
		d := array.NewData(arrow.PrimitiveTypes.Int64, m, []*memory.Buffer{nil, part}, nil, 0, 0)
		defer d.Release()
		return array.NewInt64Data(d)
	}
	res := &AggResult{Rows: m, Groups: groups, PartOffsets: offsets}
	for range t.keys {
		res.Keys = append(res.Keys, column())
	}
	res.KeyNulls = column()
	for _, bs := range t.accs {
		as := make([]*array.Int64, len(bs))
		for w := range bs {
			as[w] = column()
		}
		res.Ops = append(res.Ops, as)
	}
	return res, nil
}

// markLocked (inside Do) queues the kernel that marks in mask the table's
// groups — ready, and where Having holds (the groups kernel, which also
// writes Top's order keys okey and candidates cand, and an overflow to
// the scratch error word) — on q's stream. ready is gq_agg_ready.
func (t *AggTable) markLocked(ready *kernel, mask *Column, okey, cand Buffer) error {
	q := t.q
	grid := q.grid(int64(t.capacity))
	if t.groups == nil {
		return ready.launchLocked(q.stream, grid, d1(blockSize), 0, t.state.Ptr, mask.Data.Ptr, int64(t.capacity))
	}
	args := t.slotArgs([]any{t.state.Ptr})
	args = append(args, mask.Data.Ptr)
	if t.k.Top != nil {
		args = append(args, okey.Ptr, cand.Ptr)
	}
	args = append(args, t.scratch.Ptr.Add(4))
	if len(t.k.Params) > 0 {
		all := int64(0)
		if len(t.params) != len(t.k.Params) {
			all = 1 // not given: every group is kept
		}
		for j := range t.k.Params {
			var p Param
			if all == 0 {
				p = t.params[j]
			}
			null := int64(0)
			if p.Null {
				null = 1
			}
			args = append(args, p.Bits)
			if isWide(t.k.Params[j]) {
				args = append(args, p.High)
			}
			args = append(args, null)
		}
		args = append(args, all)
	}
	args = append(args, int64(t.capacity))
	return t.groups.launchLocked(q.stream, grid, d1(blockSize), 0, args...)
}

// Param is the value of a HAVING parameter (AggKernel.Params): an
// integer's, decimal's or date's value, or a double's bits; a
// DECIMAL(38)'s low word, and its high word in High.
type Param struct {
	Bits int64
	High int64
	Null bool
}

// ParamAt is row i of a as a parameter, of the types WithHaving takes
// (false for another).
func ParamAt(a arrow.Array, i int) (Param, bool) {
	if a.IsNull(i) {
		return Param{Null: true}, paramType(a.DataType())
	}
	switch a := a.(type) {
	case *array.Int64:
		return Param{Bits: a.Value(i)}, true
	case *array.Decimal64:
		return Param{Bits: int64(a.Value(i))}, true
	case *array.Decimal128:
		v := a.Value(i)
		return Param{Bits: int64(v.LowBits()), High: v.HighBits()}, true
	case *array.Date32:
		return Param{Bits: int64(a.Value(i))}, true
	case *array.Float64:
		return Param{Bits: int64(math.Float64bits(a.Value(i)))}, true
	}
	return Param{}, false
}

// paramType reports whether values of t can be HAVING parameters.
func paramType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.FLOAT64:
		return true
	}
	return false
}

// SetParams gives the values of the kernel's HAVING parameters, before
// Result; without them (or with ps of another length) Result keeps every
// group its predicate would have judged.
func (t *AggTable) SetParams(ps []Param) { t.params = ps }

// slotArgs appends the kernel arguments of the table's slot buffers: each
// key's, the keys' NULL masks, each op's accumulators.
func (t *AggTable) slotArgs(args []any) []any {
	for _, kb := range t.keys {
		args = append(args, kb.Ptr)
	}
	args = append(args, t.knull.Ptr)
	for _, bs := range t.accs {
		for _, a := range bs {
			args = append(args, a.Ptr)
		}
	}
	return args
}

// scratchErr is the error the groups kernel left in the scratch words
// (groups, error code) read back, or nil.
func (t *AggTable) scratchErr(scratch [8]byte) error {
	switch c := binary.LittleEndian.Uint32(scratch[4:]); {
	case c == sumOverflowCode:
		return ErrSumOverflow
	case c != 0:
		site := "an expression"
		if int(c) <= len(t.k.GroupsSites) {
			site = t.k.GroupsSites[c-1]
		}
		return errs.New(errs.Execution, "overflow or value out of range in %s", site)
	}
	return nil
}

// ImageType is the type of the words the table holds for output column
// col (the keys, then one per op), as Rows presents them: decimals and
// doubles as themselves, every other integer-like value (dates, Booleans,
// string codes) as Int64.
func (k *AggKernel) ImageType(col int) arrow.DataType {
	t := arrow.DataType(arrow.PrimitiveTypes.Int64) // count
	switch nk := len(k.Keys); {
	case col < nk:
		t = k.Keys[col]
	case k.Ops[col-nk].Fn != "count" && k.Ops[col-nk].Fn != "count_star":
		t = k.ArgTypes[col-nk]
	}
	switch t.ID() {
	case arrow.DECIMAL64, arrow.FLOAT64:
		return t
	}
	return arrow.PrimitiveTypes.Int64
}

// Rows presents the table's groups as a batch of Capacity rows for
// another aggregation to read (an aggregation over an aggregation): slot
// i is output column cols[i] of type ImageType (its words, in place, and
// a validity: a key's NULL bit, or count > 0 for sum, min and max), and a
// last Boolean slot marks the rows that are groups (ready, and where
// Having holds). A sum that overflowed is ErrSumOverflow, as in Result.
// Free the batch before the table; it frees only what Rows allocated.
// groups is the number of groups in the table.
func (t *AggTable) Rows(cols []int) (b *Batch, groups int, err error) {
	q := t.q
	ks, err := q.kernels("gq_agg_ready", "gq_agg_key_valid", "gq_agg_count_valid")
	if err != nil {
		return nil, 0, err
	}
	n := t.capacity
	b = &Batch{Len: n, Cols: make([]*Column, len(cols)+1)}
	fail := func(err error) (*Batch, int, error) {
		b.Free()
		return nil, 0, err
	}
	nk := len(t.keys)
	type valid struct {
		col   *Column
		count Buffer // count > 0; else key bit
		bit   int32
	}
	var valids []valid
	for i, c := range cols {
		col := &Column{Type: t.k.ImageType(c), Len: n, NullCount: unknownNullCount}
		b.Cols[i] = col
		switch {
		case c < nk:
			col.Data = t.keys[c].Borrow()
			valids = append(valids, valid{col: col, bit: int32(c)})
		case len(t.accs[c-nk]) == 1: // a count: never NULL
			col.Data, col.NullCount = t.accs[c-nk][0].Borrow(), 0
			continue
		default:
			col.Data = t.accs[c-nk][1].Borrow()
			valids = append(valids, valid{col: col, count: t.accs[c-nk][0]})
		}
		if col.Valid, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			return fail(err)
		}
	}
	mask := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
	b.Cols[len(cols)] = mask
	if mask.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
		return fail(err)
	}
	var okey, cand Buffer // a Top's, unused here but written
	defer okey.Free()
	defer cand.Free()
	if t.k.Top != nil && t.groups != nil {
		if okey, err = q.pool.Alloc(int64(n) * 8); err != nil {
			return fail(err)
		}
		if cand, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			return fail(err)
		}
	}
	var scratch [8]byte
	err = q.dv.Do(func() error {
		if err := t.markLocked(ks[0], mask, okey, cand); err != nil {
			return err
		}
		grid := q.grid(int64(n))
		for _, v := range valids {
			var err error
			if v.count.Ptr != 0 {
				err = ks[2].launchLocked(q.stream, grid, d1(blockSize), 0, v.count.Ptr, v.col.Valid.Ptr, int64(n))
			} else {
				err = ks[1].launchLocked(q.stream, grid, d1(blockSize), 0, t.knull.Ptr, v.bit, v.col.Valid.Ptr, int64(n))
			}
			if err != nil {
				return err
			}
		}
		if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(scratch[:], t.scratch.Ptr)
	})
	if err != nil {
		return fail(err)
	}
	if err := t.scratchErr(scratch); err != nil {
		return fail(err)
	}
	return b, int(binary.LittleEndian.Uint32(scratch[:4])), nil
}

// Free returns the table's memory to the pool.
func (t *AggTable) Free() {
	t.state.Free()
	t.scratch.Free()
	for _, b := range t.keys {
		b.Free()
	}
	t.keys = nil
	t.knull.Free()
	for _, bs := range t.accs {
		for _, b := range bs {
			b.Free()
		}
	}
	t.accs = nil
}
