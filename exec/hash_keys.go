package exec

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
	gqmem "gq/memory"
)

// Keys shared by hash aggregation and hash join. A key of one fixed-width
// integer-like column (Int64, Decimal64, Date32) is kept as int64 values and
// hashed with a mixer; any other key (several columns, strings, floats,
// booleans) is serialised per row into bytes (a NULL flag then the value per
// column), so equal keys have equal bytes, and hashed with maphash.

var hashSeed = maphash.MakeSeed()

// keyCodec knows how to prepare one batch's key columns.
type keyCodec struct {
	types  []arrow.DataType
	single bool          // one Int64/Decimal64/Date32 column
	pair   bool          // two such columns (hash_pair.go)
	reps   *intervalReps // an INTERVAL column's values as the key table gives them back (temporal.go); nil without one
}

func newKeyCodec(types []arrow.DataType) (keyCodec, error) {
	for _, t := range types {
		switch t.ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.FLOAT64, arrow.STRING, arrow.BOOL, arrow.NULL,
			arrow.TIMESTAMP, arrow.TIME64:
		case arrow.INTERVAL_MONTH_DAY_NANO:
		default:
			return keyCodec{}, errs.New(errs.Internal, "key of type %s is not a gq value type", t)
		}
	}
	single := len(types) == 1
	if single {
		switch types[0].ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64:
		default:
			single = false
		}
	}
	pair := len(types) == 2
	for _, t := range types {
		switch t.ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64:
		default:
			pair = false
		}
	}
	kc := keyCodec{types: types, single: single, pair: pair}
	for _, t := range types {
		if t.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			kc.reps = newIntervalReps()
		}
	}
	return kc, nil
}

// batchKeys is one batch's keys ready for a keyTable; its slices are
// reused from batch to batch.
type batchKeys struct {
	n      int
	ints   []int64  // single, pair: the (first) key values (may alias the input array)
	ints2  []int64  // pair: the second key values
	masks  []uint8  // pair: NULL mask per row (nil: no NULLs)
	own    []int64  // scratch for ints when the column is not int64
	own2   []int64  // pair: scratch for ints2
	enc    []byte   // general: the serialised rows
	offs   []int32  // general: row i is enc[offs[i]:offs[i+1]]
	pos    []int32  // scratch for encode
	null   []bool   // row i has a NULL in some key column; nil: no NULLs
	hashes []uint64 // hash of row i's key
	sink   uint32   // keeps prefetching loads alive (hash_prefetch.go)
}

func (bk *batchKeys) row(i int) []byte { return bk.enc[bk.offs[i]:bk.offs[i+1]] }

func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// prepare fills bk from the key arrays of one batch (all of length n).
func (kc keyCodec) prepare(arrs []arrow.Array, n int, bk *batchKeys) {
	bk.n = n
	bk.hashes = grown(bk.hashes, n)
	bk.null = nil
	anyNull := false
	for _, a := range arrs {
		if a.NullN() > 0 {
			anyNull = true
		}
	}
	if anyNull {
		bk.null = grown(bk.null[:0:cap(bk.null)], n)
		clear(bk.null)
		for _, a := range arrs {
			if a.NullN() == 0 {
				continue
			}
			for i := range n {
				if a.IsNull(i) {
					bk.null[i] = true
				}
			}
		}
	}
	if kc.pair {
		kc.preparePair(arrs, n, bk)
		return
	}
	if kc.single {
		switch a := arrs[0].(type) {
		case *array.Int64:
			bk.ints = a.Int64Values()
		case *array.Decimal64:
			bk.ints = asInt64s(a.Values())
		case *array.Timestamp, *array.Time64:
			bk.ints = temporalInts(a)
		case *array.Date32:
			bk.own = grown(bk.own, n)
			for i, v := range a.Date32Values() {
				bk.own[i] = int64(v)
			}
			bk.ints = bk.own
		}
		for i, v := range bk.ints[:n] {
			bk.hashes[i] = expr.Mix64(uint64(v))
		}
		return
	}
	kc.encode(arrs, n, bk)
	for i := range n {
		bk.hashes[i] = maphash.Bytes(hashSeed, bk.row(i))
	}
}

// encode serialises the rows: per column a flag byte (0 NULL, 1 value)
// then, for a value, 24 bytes (Interval: its normal form's months, days
// and nanoseconds, so that equal intervals have equal bytes), 16
// (Decimal128: low word, high word), 8 (Int64, Decimal64, Float64), 4
// (Date32), 1 (Boolean) or a 4-byte length and the bytes (String).
func (kc keyCodec) encode(arrs []arrow.Array, n int, bk *batchKeys) {
	offs := grown(bk.offs, n+1)
	clear(offs)
	for _, a := range arrs {
		w := int32(1 + fixedWidth(a.DataType()))
		if a.DataType().ID() == arrow.NULL {
			// Every row NULL, though a NULL array has no bitmap for
			// IsValid and IsNull to read.
			for i := range n {
				offs[i+1]++
			}
			continue
		}
		if s, ok := a.(*array.String); ok {
			so := s.ValueOffsets()
			for i := range n {
				if s.IsValid(i) {
					offs[i+1] += w + 4 + so[i+1] - so[i]
				} else {
					offs[i+1]++
				}
			}
			continue
		}
		for i := range n {
			if a.IsValid(i) {
				offs[i+1] += w
			} else {
				offs[i+1]++
			}
		}
	}
	for i := range n {
		offs[i+1] += offs[i]
	}
	// Scratch: every byte is written below; zeroed, a batch of long
	// string keys was as many fresh pages again.
	enc := gqmem.GrowScratch(bk.enc, int(offs[n]))
	bk.pos = grown(bk.pos, n)
	pos := bk.pos
	copy(pos, offs[:n])
	for _, a := range arrs {
		if a.NullN() == 0 && encodeNoNulls(a, n, enc, pos) {
			continue
		}
		// One typed loop per column; put writes row i's value at p and
		// returns the position after it.
		var put func(i int, p int32) int32
		switch x := a.(type) {
		case *array.Int64, *array.Timestamp, *array.Time64:
			vals := temporalInts(x)
			if vals == nil {
				vals = x.(*array.Int64).Int64Values()
			}
			put = func(i int, p int32) int32 {
				binary.LittleEndian.PutUint64(enc[p:], uint64(vals[i]))
				return p + 8
			}
		case *array.Decimal64:
			vals := asInt64s(x.Values())
			put = func(i int, p int32) int32 {
				binary.LittleEndian.PutUint64(enc[p:], uint64(vals[i]))
				return p + 8
			}
		case *array.Decimal128:
			vals := x.Values()
			put = func(i int, p int32) int32 {
				binary.LittleEndian.PutUint64(enc[p:], vals[i].LowBits())
				binary.LittleEndian.PutUint64(enc[p+8:], uint64(vals[i].HighBits()))
				return p + 16
			}
		case *array.Float64:
			vals := x.Float64Values()
			put = func(i int, p int32) int32 {
				v := vals[i]
				if v == 0 {
					v = 0 // -0 groups with 0
				} else if v != v {
					v = math.NaN()
				}
				binary.LittleEndian.PutUint64(enc[p:], math.Float64bits(v))
				return p + 8
			}
		case *array.Date32:
			vals := x.Date32Values()
			put = func(i int, p int32) int32 {
				binary.LittleEndian.PutUint32(enc[p:], uint32(vals[i]))
				return p + 4
			}
		case *array.MonthDayNanoInterval:
			put = kc.reps.encoder(x, enc)
		case *array.Boolean:
			put = func(i int, p int32) int32 {
				enc[p] = 0
				if x.Value(i) {
					enc[p] = 1
				}
				return p + 1
			}
		case *array.String:
			so, data := x.ValueOffsets(), x.ValueBytes()
			base := so[0] // a sliced array: offsets are absolute, data is not
			put = func(i int, p int32) int32 {
				s := data[so[i]-base : so[i+1]-base]
				binary.LittleEndian.PutUint32(enc[p:], uint32(len(s)))
				return p + 4 + int32(copy(enc[p+4:], s))
			}
		default: // Null: every row is NULL
			put = func(i int, p int32) int32 { return p }
		}
		hasNulls := a.NullN() > 0
		allNull := a.DataType().ID() == arrow.NULL
		for i := range n {
			p := pos[i]
			if allNull || hasNulls && a.IsNull(i) {
				enc[p] = 0
				pos[i] = p + 1
				continue
			}
			enc[p] = 1
			pos[i] = put(i, p+1)
		}
	}
	bk.enc, bk.offs = enc, offs
}

// encodeNoNulls is encode's loop for a column without NULLs of the most
// common key types, with no call per row (TPC-H q01 spent a fifth of its
// time encoding l_returnflag, l_linestatus). It reports whether it knew
// the type.
func encodeNoNulls(a arrow.Array, n int, enc []byte, pos []int32) bool {
	switch x := a.(type) {
	case *array.String:
		so, data := x.ValueOffsets(), x.ValueBytes()
		base := so[0] // a sliced array: offsets are absolute, data is not
		for i := range n {
			p := pos[i]
			v := data[so[i]-base : so[i+1]-base]
			enc[p] = 1
			binary.LittleEndian.PutUint32(enc[p+1:], uint32(len(v)))
			if len(v) <= 8 { // flags, codes: a loop beats copy's call to memmove
				d := enc[p+5 : p+5+int32(len(v))]
				for j := range d {
					d[j] = v[j]
				}
			} else {
				copy(enc[p+5:], v)
			}
			pos[i] = p + 5 + int32(len(v))
		}
		return true
	case *array.Int64:
		putInts(x.Int64Values(), n, enc, pos)
		return true
	case *array.Decimal64:
		putInts(asInt64s(x.Values()), n, enc, pos)
		return true
	case *array.Timestamp, *array.Time64:
		putInts(temporalInts(x), n, enc, pos)
		return true
	}
	return false
}

func putInts(vals []int64, n int, enc []byte, pos []int32) {
	for i, v := range vals[:n] {
		p := pos[i]
		enc[p] = 1
		binary.LittleEndian.PutUint64(enc[p+1:], uint64(v))
		pos[i] = p + 9
	}
}

func fixedWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return 24
	case arrow.DECIMAL128:
		return 16
	case arrow.INT64, arrow.DECIMAL64, arrow.FLOAT64, arrow.TIMESTAMP, arrow.TIME64:
		return 8
	case arrow.DATE32:
		return 4
	case arrow.BOOL:
		return 1
	}
	return 0
}

// keyTable maps distinct keys to dense ids 0..n-1 by open addressing
// (linear probing, load ≤ 1/2). NULL keys either get one id of their own
// (aggregation: NULLs form a group) or none (joins: NULL never matches).
type keyTable struct {
	single   bool
	pair     bool
	pslots   []pairSlot // pair: both keys, NULL mask and id+1
	ikeys2   []int64    // pair: second key of id (ikeys: the first)
	masks    []uint8    // pair: NULL mask of id
	slots    []intSlot  // single: key and id+1 together (one cache miss per probe)
	slotIDs  []int32    // general: id+1; 0: empty
	slotHash []uint64   // general: hash of the slot's key
	mask     uint64
	n        int32    // number of ids
	ikeys    []int64  // single: key of id
	hashes   []uint64 // general: hash of id's key
	arena    []byte   // general: key bytes of id at arena[offs[id]:offs[id+1]]
	offs     []int32
	nullID   int32         // id of the NULL key (single path), -1 if none yet
	reps     *intervalReps // the codec's, for keyArrays
	full     bool          // fills to three quarters before growing, not half
	growAt   int           // n past which the table doubles
}

func newKeyTable(single bool) *keyTable { return newKeyTableSized(single, 0) }

// newKeyTableSized returns a table with room for about keys keys before
// it has to grow (a join build knows its row count).
func newKeyTableSized(single bool, keys int) *keyTable {
	return newKeyTableFor(keyCodec{single: single}, keys)
}

// newKeyTableFor returns a table for codec's keys with room for about
// keys keys.
func newKeyTableFor(codec keyCodec, keys int) *keyTable {
	return newKeyTableLoad(codec, keys, false)
}

// newFullKeyTable is newKeyTableFor for a table that fills to three
// quarters before it doubles instead of half: a hash join's build, and a
// distinct aggregate's set of (group, value) pairs. Both mostly insert
// keys that are new or probe for one hit, so their tables are probed far
// more often than they grow, and are the largest structures of their
// operators: at half load a table with 16-byte slots costs 32 to 64
// bytes a key, at three quarters 21 to 43 (a pair table's slots are 32
// bytes). An aggregation's group table keeps the half load until it
// has bigTable slots (growLimit).
func newFullKeyTable(codec keyCodec, keys int) *keyTable {
	return newKeyTableLoad(codec, keys, true)
}

func newKeyTableLoad(codec keyCodec, keys int, full bool) *keyTable {
	t := &keyTable{single: codec.single, pair: codec.pair, nullID: -1, offs: []int32{0}, reps: codec.reps, full: full}
	size := 1024
	for keys > growLimit(size, full) {
		size *= 2
	}
	t.alloc(size)
	return t
}

// bigTable is the size from which every table fills to three quarters.
// A smaller aggregation table fills to half: every input row probes it
// for a hit, it sits in the caches, and there the longer runs of a fuller
// table cost more than the memory saved. From 2^20 slots (16 MiB of
// 16-byte slots) nearly every probe misses the caches whatever the load,
// the extra slots a fuller table's run walks mostly share the first's
// cache line, and the table is what holds the memory: an aggregation of
// 1.5M groups per thread (TPC-H q13's by c_custkey at SF10) took 64 MiB
// of slots per thread at half load and 32 at three quarters.
const bigTable = 1 << 20

// growLimit is the number of keys a table of size slots holds before it
// doubles.
func growLimit(size int, full bool) int {
	if full || size >= bigTable {
		return size / 4 * 3
	}
	return size / 2
}

type intSlot struct {
	key int64
	id  int32 // id+1; 0: empty
}

func (t *keyTable) len() int { return int(t.n) }

// hashOf returns the hash of id's key (0 for the NULL key).
func (t *keyTable) hashOf(id int32) uint64 {
	if t.pair {
		return t.pairHashOf(id)
	}
	if !t.single {
		return t.hashes[id]
	}
	if id == t.nullID {
		return 0
	}
	return expr.Mix64(uint64(t.ikeys[id]))
}

func (t *keyTable) alloc(size int) {
	if t.pair {
		t.pslots = pairSlotSlabs.get(size)
	} else if t.single {
		t.slots = intSlotSlabs.get(size)
	} else {
		t.slotIDs = int32Slabs.get(size)
		t.slotHash = uint64Slabs.get(size)
	}
	t.mask = uint64(size - 1)
	t.growAt = growLimit(size, t.full)
}

// grow doubles the table. It walks the old slots in order, not the ids:
// a key's new slot is its old one or that plus the old size (give or take
// probing), so the writes stream through memory instead of landing at
// random in a table far larger than the caches (q18's 1.5M groups spent
// a third of the aggregation in grow). Inserting in slot order into a
// table of the same or smaller size would instead pile keys into long
// probe runs, so merges still insert in id order. The old slots go to
// the slab pools: another table of their size (the other workers',
// the merge's) takes them instead of fresh memory.
func (t *keyTable) grow() {
	if t.pair {
		t.growPair()
		return
	}
	if t.single {
		old := t.slots
		t.alloc(len(old) * 2)
		for _, sl := range old {
			if sl.id == 0 {
				continue
			}
			s := expr.Mix64(uint64(sl.key)) & t.mask
			for t.slots[s].id != 0 {
				s = (s + 1) & t.mask
			}
			t.slots[s] = sl
		}
		intSlotSlabs.put(old)
		return
	}
	oldIDs, oldHash := t.slotIDs, t.slotHash
	t.alloc(len(oldIDs) * 2)
	for i, id := range oldIDs {
		if id == 0 {
			continue
		}
		h := oldHash[i]
		s := h & t.mask
		for t.slotIDs[s] != 0 {
			s = (s + 1) & t.mask
		}
		t.slotIDs[s] = id
		t.slotHash[s] = h
	}
	int32Slabs.put(oldIDs)
	uint64Slabs.put(oldHash)
}

// push appends v, doubling the capacity when full (append grows large
// slices by only 1.25x, which copies a growing table too often). The
// grown array is scratch (gqmem.Scratch): not zeroed, as every element
// is written before it is read, and a recycled buffer where one is free;
// zeroed, its unused half was faulted in by a one-query process for
// nothing.
func push[T gqmem.Fixed](s []T, v ...T) []T {
	if len(s)+len(v) > cap(s) {
		ns := gqmem.Scratch[T](max(2*cap(s), len(s)+len(v), 64))[:len(s)]
		copy(ns, s)
		s = ns
	}
	return append(s, v...)
}

// dropSlots frees the hash slots of a table that will only be read by id
// from now on (hashOf, insertFrom, keyArrays); it can no longer insert or
// find.
func (t *keyTable) dropSlots() {
	intSlotSlabs.put(t.slots)
	pairSlotSlabs.put(t.pslots)
	int32Slabs.put(t.slotIDs)
	uint64Slabs.put(t.slotHash)
	t.slots, t.slotIDs, t.slotHash, t.pslots = nil, nil, nil, nil
}

// freeSlots is dropSlots for slots no table will take again: they go to
// the collector instead of the slab pools.
func (t *keyTable) freeSlots() {
	t.slots, t.slotIDs, t.slotHash, t.pslots = nil, nil, nil, nil
}

func (t *keyTable) addNull() int32 {
	if t.nullID < 0 {
		t.nullID = t.n
		t.ikeys = push(t.ikeys, 0)
		t.n++
	}
	return t.nullID
}

func (t *keyTable) keyBytes(id int32) []byte { return t.arena[t.offs[id]:t.offs[id+1]] }

// insert assigns the id of each row's key to out[i], adding new keys. A
// row with a NULL key gets the NULL group's id when nullGroup, else -1
// (only the single path needs this: the general encoding already makes a
// NULL key an ordinary byte string).
func (t *keyTable) insert(bk *batchKeys, out []int32, nullGroup bool) {
	if t.pair {
		t.insertPairs(bk, out, nullGroup)
		return
	}
	if t.single {
		t.insertInts(bk, out, nullGroup)
		return
	}
	for i := range bk.n {
		if !nullGroup && bk.null != nil && bk.null[i] {
			out[i] = -1
			continue
		}
		out[i] = t.insertBytes(bk.row(i), bk.hashes[i])
	}
}

// insertInts skips the table for a key equal to the previous row's:
// input sorted or clustered by the key (lineitem by l_orderkey) then
// costs one probe per run instead of one per row.
func (t *keyTable) insertInts(bk *batchKeys, out []int32, nullGroup bool) {
	keys, hashes := bk.ints[:bk.n], bk.hashes[:bk.n]
	prevK, prevID := int64(0), int32(-1)
	for i, k := range keys {
		if i%prefetchRows == 0 && t.wantsPrefetch() { // the table grows as we go
			bk.sink += t.touch(hashes[i:min(i+prefetchRows, len(hashes))])
		}
		if bk.null != nil && bk.null[i] {
			if !nullGroup {
				out[i] = -1
				continue
			}
			out[i] = t.addNull()
			continue
		}
		if k == prevK && prevID >= 0 {
			out[i] = prevID
			continue
		}
		prevK, prevID = k, t.insertInt(k, hashes[i])
		out[i] = prevID
	}
}

func (t *keyTable) insertInt(k int64, h uint64) int32 {
	s := h & t.mask
	for {
		sl := t.slots[s]
		if sl.id == 0 {
			break
		}
		if sl.key == k {
			return sl.id - 1
		}
		s = (s + 1) & t.mask
	}
	id := t.n
	t.slots[s] = intSlot{k, id + 1}
	t.ikeys = push(t.ikeys, k)
	t.n++
	if int(t.n) > t.growAt {
		t.grow()
	}
	return id
}

func (t *keyTable) insertBytes(key []byte, h uint64) int32 {
	s := h & t.mask
	for {
		id := t.slotIDs[s]
		if id == 0 {
			break
		}
		if t.slotHash[s] == h && string(t.keyBytes(id-1)) == string(key) {
			return id - 1
		}
		s = (s + 1) & t.mask
	}
	id := t.n
	t.slotIDs[s] = id + 1
	t.slotHash[s] = h
	t.arena = push(t.arena, key...)
	t.offs = push(t.offs, int32(len(t.arena)))
	t.hashes = push(t.hashes, h)
	t.n++
	if int(t.n) > t.growAt {
		t.grow()
	}
	return id
}

// insertFrom adds key id of src (a table of the same kind) and returns its id here.
func (t *keyTable) insertFrom(src *keyTable, id int32) int32 {
	if t.pair {
		a, b, m := src.ikeys[id], src.ikeys2[id], src.masks[id]
		return t.insertPair(a, b, m, pairHash(a, b, m))
	}
	if !t.single {
		return t.insertBytes(src.keyBytes(id), src.hashes[id])
	}
	if id == src.nullID {
		return t.addNull()
	}
	k := src.ikeys[id]
	return t.insertInt(k, expr.Mix64(uint64(k)))
}

// lookup sets out[i] to the id of row i's key, or -1 when the key is
// absent or has a NULL.
// A single int key equal to the previous row's reuses its id (see
// insertInts).
func (t *keyTable) lookup(bk *batchKeys, out []int32) {
	prevK, prevID, havePrev := int64(0), int32(-1), false
	pf := t.wantsPrefetch()
	for i := range bk.n {
		if pf && i%prefetchRows == 0 {
			bk.sink += t.touch(bk.hashes[i:min(i+prefetchRows, bk.n)])
		}
		if bk.null != nil && bk.null[i] {
			out[i] = -1
			continue
		}
		if t.single {
			k := bk.ints[i]
			if havePrev && k == prevK {
				out[i] = prevID
				continue
			}
			prevK, havePrev = k, true
			prevID = t.find(bk, i)
			out[i] = prevID
			continue
		}
		out[i] = t.find(bk, i)
	}
}

// find returns the id of row i's key (not NULL), or -1 when absent.
func (t *keyTable) find(bk *batchKeys, i int) int32 {
	h := bk.hashes[i]
	if t.pair {
		return t.findPair(bk.ints[i], bk.ints2[i], bk.maskOf(i), h)
	}
	s := h & t.mask
	if t.single {
		k := bk.ints[i]
		for {
			sl := t.slots[s]
			if sl.id == 0 {
				return -1
			}
			if sl.key == k {
				return sl.id - 1
			}
			s = (s + 1) & t.mask
		}
	}
	key := bk.row(i)
	for {
		id := t.slotIDs[s]
		if id == 0 {
			return -1
		}
		if t.slotHash[s] == h && string(t.keyBytes(id-1)) == string(key) {
			return id - 1
		}
		s = (s + 1) & t.mask
	}
}

// keyArrays rebuilds the key columns (types) for ids 0..n-1.
func (t *keyTable) keyArrays(mem memory.Allocator, types []arrow.DataType) []arrow.Array {
	if t.pair {
		return t.pairArrays(mem, types)
	}
	n := t.len()
	if t.single && types[0].ID() != arrow.DATE32 {
		var valid []bool
		if t.nullID >= 0 {
			valid = make([]bool, n)
			for i := range valid {
				valid[i] = int32(i) != t.nullID
			}
		}
		return []arrow.Array{aggArray(mem, types[0], t.ikeys[:n], valid)}
	}
	if t.single {
		bld := array.NewBuilder(mem, types[0])
		defer bld.Release()
		bld.Reserve(n)
		for id, k := range t.ikeys {
			if int32(id) == t.nullID {
				bld.AppendNull()
				continue
			}
			appendImage(bld, k) // Int64, Decimal64 or Date32 (a single integer-like key)
		}
		return []arrow.Array{bld.NewArray()}
	}
	pos := make([]int32, n)
	copy(pos, t.offs[:n])
	out := make([]arrow.Array, len(types))
	for c, typ := range types {
		bld := array.NewBuilder(mem, typ)
		bld.Reserve(n)
		for id := range n {
			p := pos[id]
			if t.arena[p] == 0 {
				bld.AppendNull()
				pos[id] = p + 1
				continue
			}
			p++
			switch b := bld.(type) {
			case *array.Int64Builder:
				b.Append(int64(binary.LittleEndian.Uint64(t.arena[p:])))
				p += 8
			case *array.Decimal64Builder:
				b.Append(decimal.Decimal64(binary.LittleEndian.Uint64(t.arena[p:])))
				p += 8
			case *array.Decimal128Builder:
				lo := binary.LittleEndian.Uint64(t.arena[p:])
				hi := int64(binary.LittleEndian.Uint64(t.arena[p+8:]))
				b.Append(decimal128.New(hi, lo))
				p += 16
			case *array.TimestampBuilder:
				b.Append(arrow.Timestamp(binary.LittleEndian.Uint64(t.arena[p:])))
				p += 8
			case *array.Time64Builder:
				b.Append(arrow.Time64(binary.LittleEndian.Uint64(t.arena[p:])))
				p += 8
			case *array.Float64Builder:
				b.Append(math.Float64frombits(binary.LittleEndian.Uint64(t.arena[p:])))
				p += 8
			case *array.Date32Builder:
				b.Append(arrow.Date32(binary.LittleEndian.Uint32(t.arena[p:])))
				p += 4
			case *array.MonthDayNanoIntervalBuilder:
				b.Append(t.reps.decode(t.arena[p:]))
				p += 24
			case *array.BooleanBuilder:
				b.Append(t.arena[p] == 1)
				p++
			case *array.StringBuilder:
				l := int32(binary.LittleEndian.Uint32(t.arena[p:]))
				p += 4
				b.BinaryBuilder.Append(t.arena[p : p+l])
				p += l
			}
			pos[id] = p
		}
		out[c] = bld.NewArray()
		bld.Release()
	}
	return out
}

// appendImage appends the value whose 64-bit image the device table holds
// (int64, decimal unscaled, date as days, Boolean as 0/1, double bits) to
// b; false for a builder of another type.
func appendImage(b array.Builder, v int64) bool {
	switch bb := b.(type) {
	case *array.Int64Builder:
		bb.Append(v)
	case *array.Decimal64Builder:
		bb.Append(decimal.Decimal64(v))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v))
	case *array.BooleanBuilder:
		bb.Append(v != 0)
	case *array.Float64Builder:
		bb.Append(math.Float64frombits(uint64(v)))
	default:
		return false
	}
	return true
}
