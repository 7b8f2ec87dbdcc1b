package exec

import (
	"math"
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// JoinType selects a join's semantics: expr.JoinType (expr.JoinInner, …),
// shared with the planner.
type JoinType = expr.JoinType

// HashJoin builds a hash table on Right (keys RightKeys) and probes it with
// Left (keys LeftKeys); keys match when all are equal and none is NULL.
// Extra (may be nil) is a further condition over Left's columns followed by
// Right's columns, applied to key matches. Out: left columns then right
// columns (semi/anti: left only). NullAware (anti only): NOT IN semantics —
// if Right is non-empty, a left row with a NULL key, or any NULL key on the
// right, yields no output for that left row. BuildLeft (semi, anti and
// left joins, not NullAware) builds the table on Left instead and streams
// Right through it (see hashjoin_left.go).
type HashJoin struct {
	Type      JoinType
	Left      Node
	Right     Node
	LeftKeys  []expr.Expr
	RightKeys []expr.Expr
	Extra     expr.Expr
	NullAware bool
	BuildLeft bool
	Out       *arrow.Schema
	// Publish, when set, offers the built table as a filter to scans below
	// the probe side: Left, or Right under BuildLeft (joinfilter.go).
	Publish *JoinFilter
}

func (h *HashJoin) Schema() *arrow.Schema { return h.Out }
func (h *HashJoin) Children() []Node      { return []Node{h.Left, h.Right} }
func (h *HashJoin) Explain() string       { return "HashJoin " + h.Type.String() }

// Open reads the whole Right input, builds a table of its distinct keys
// with a chain of right rows per key (row ids int32), then c.Threads
// workers probe it with Left batches. Output order is unspecified.
func (h *HashJoin) Open(c *Context) <-chan arrow.RecordBatch {
	if h.graceEligible(c) { // under a memory limit: hashjoin_grace.go
		if h.Publish != nil { // no filter from a spilling join
			c.joinFilterRun(h.Publish).settle()
		}
		return h.openGrace(c)
	}
	if h.BuildLeft {
		return h.openBuildLeft(c)
	}
	var jf *joinFilterRun // joinfilter.go
	if h.Publish != nil {
		jf = c.joinFilterRun(h.Publish)
		c.markDirectProbe(h.Publish, h.Left) // the probe below starts after publishing
	}
	left, right := h.Left.Open(c), h.Right.Open(c)
	jc, err := newJoinCore(h.Type, h.Left.Schema(), h.Right.Schema(), h.Out, h.Extra)
	var lkeys, rkeys []compiledExpr
	var codec keyCodec
	if err == nil {
		lkeys, rkeys, codec, err = h.compileKeys()
	}
	if err != nil {
		hashDrainLater(c, left)
		return hashFailedDrain(c, right, err)
	}
	jc.alias = keyAliases(h.RightKeys, h.LeftKeys, h.Right.Schema(), h.Left.Schema())
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		bt, err := buildJoinTable(c, right, h.Right.Schema(), rkeys, codec)
		if err != nil {
			hashDrainLater(c, left)
			close(out)
			return err
		}
		jc.right = bt.rows
		if jf != nil {
			if err := jf.publishFor(c, h.Publish, bt, rkeys, codec); err != nil {
				hashDrainLater(c, left)
				bt.release()
				close(out)
				return err
			}
		}
		bt.dropBuilt() // only a join filter reuses them
		var wg sync.WaitGroup
		for range max(c.Threads, 1) {
			wg.Add(1)
			c.Go(func() error {
				defer wg.Done()
				defer hashDrainLater(c, left)
				p := &hashProber{bt: bt, codec: codec, keys: lkeys, nullAware: h.NullAware && h.Type == expr.JoinAnti}
				for b := range left {
					err := p.probe(c, jc, b, out)
					b.Release()
					if err != nil {
						return err
					}
				}
				return c.Err()
			})
		}
		c.Go(func() error {
			wg.Wait()
			if jf != nil {
				jf.withdraw()
			}
			bt.release()
			close(out)
			return nil
		})
		return nil
	})
	return out
}

func (h *HashJoin) compileKeys() (l, r []compiledExpr, codec keyCodec, err error) {
	if len(h.LeftKeys) != len(h.RightKeys) || len(h.LeftKeys) == 0 {
		return nil, nil, codec, errs.New(errs.Internal, "HashJoin: %d left keys, %d right keys", len(h.LeftKeys), len(h.RightKeys))
	}
	types := make([]arrow.DataType, len(h.LeftKeys))
	for i, lk := range h.LeftKeys {
		lt, rt := lk.DataType(), h.RightKeys[i].DataType()
		if lt.ID() != rt.ID() || expr.ScaleOf(lt) != expr.ScaleOf(rt) {
			return nil, nil, codec, errs.New(errs.Internal, "HashJoin: key %d types differ: %s and %s", i, lt, rt)
		}
		types[i] = lt
	}
	if codec, err = newKeyCodec(types); err != nil {
		return nil, nil, codec, err
	}
	if l, err = compileExprs(h.LeftKeys); err != nil {
		return nil, nil, codec, err
	}
	r, err = compileExprs(h.RightKeys)
	return l, r, codec, err
}

// keyAliases maps each build column compared, as a plain column, with a
// plain probe column of the same type to that probe column, other build
// columns to -1; nil when there is none. A matched pair's keys are equal
// and not NULL, and for these types equal values are the same value, so
// the probe's copy, read in probe order, can stand for the build's,
// which would be gathered at random from a table larger than the caches.
func keyAliases(buildKeys, probeKeys []expr.Expr, build, probe *arrow.Schema) []int {
	var alias []int
	for k, bk := range buildKeys {
		bc, ok := bk.(*expr.Column)
		pc, pok := probeKeys[k].(*expr.Column)
		if !ok || !pok || bc.Index >= build.NumFields() || pc.Index >= probe.NumFields() {
			continue
		}
		bt := build.Field(bc.Index).Type
		if !arrow.TypeEqual(bt, probe.Field(pc.Index).Type) {
			continue
		}
		switch bt.ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.STRING, arrow.BOOL:
		default: // floats: -0 and 0; intervals: equal in normal form only
			continue
		}
		if alias == nil {
			alias = make([]int, build.NumFields())
			for i := range alias {
				alias[i] = -1
			}
		}
		alias[bc.Index] = pc.Index
	}
	return alias
}

// joinTable is the build side: every right row in one batch, its keys
// in nparts tables (partition by hash, built in parallel), and per key a
// chain of the rows holding it. Key ids are global: partition p's id i is
// base[p]+i.
type joinTable struct {
	rows     arrow.RecordBatch
	tables   []*keyTable
	base     []int32
	head     []int32 // per global key id: first row, -1 at the end
	next     []int32 // per row: next row with the same key
	nullKeys bool    // some right row has a NULL key
	unique   bool    // no two rows share a key: every chain is one row long
	// built holds the rows' prepared keys (which may alias builtArrs, the
	// evaluated key columns) until dropBuilt, for a join filter over the
	// same keys to reuse instead of preparing them again.
	built     *batchKeys
	builtArrs []arrow.Array
}

// dropBuilt lets go of the build's prepared keys.
func (bt *joinTable) dropBuilt() {
	releaseArrays(bt.builtArrs)
	bt.built, bt.builtArrs = nil, nil
}

func buildJoinTable(c *Context, in <-chan arrow.RecordBatch, schema *arrow.Schema, keys []compiledExpr, codec keyCodec) (*joinTable, error) {
	var batches []arrow.RecordBatch
	for b := range in {
		batches = append(batches, b)
	}
	if err := c.Err(); err != nil {
		releaseBatchList(batches)
		return nil, err
	}
	rows, err := concatParallel(c.Alloc, schema, batches, c.Threads)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "hash join build")
	}
	n := int(rows.NumRows())
	nparts := 1
	if n >= 1<<16 {
		nparts = max(c.Threads, 1)
	}
	bt := &joinTable{rows: rows, tables: make([]*keyTable, nparts), base: make([]int32, nparts+1), next: make([]int32, n)}
	karr, err := evalAll(c.Alloc, keys, rows)
	if err != nil {
		rows.Release()
		return nil, err
	}
	bk := &batchKeys{}
	bt.built, bt.builtArrs = bk, karr // bk may alias the key arrays
	if err := codec.prepareRows(karr, n, bk, c.Threads); err != nil {
		bt.release()
		return nil, err
	}
	ids := make([]int32, n)
	guess, err := distinctGuess(bk, c.Threads)
	if err != nil {
		bt.release()
		return nil, err
	}
	if nparts > 1 {
		nparts = joinParts(guess, nparts)
		bt.tables, bt.base = make([]*keyTable, nparts), make([]int32, nparts+1)
	}
	// Each partition inserts the rows whose hash falls in it; rows of a
	// partition are written by its goroutine only. With several
	// partitions each also lists its rows, so that the chains are linked
	// in parallel below rather than by one goroutine over every row.
	var partRows [][]int32
	if nparts > 1 {
		partRows = make([][]int32, nparts)
	}
	perr := parallel(nparts, func(p int) {
		t := newFullKeyTable(codec, guess/nparts)
		var mine []int32
		if nparts > 1 {
			mine = make([]int32, 0, n/nparts+n/(4*nparts)+16)
		}
		for i := range n {
			if bk.null != nil && bk.null[i] {
				if p == 0 {
					ids[i] = -1
				}
				continue
			}
			h := bk.hashes[i]
			if partitionOf(h, nparts) != p {
				continue
			}
			if codec.pair {
				ids[i] = t.insertPair(bk.ints[i], bk.ints2[i], 0, h) // no NULLs here
			} else if codec.single {
				ids[i] = t.insertInt(bk.ints[i], h)
			} else {
				ids[i] = t.insertBytes(bk.row(i), h)
			}
			if nparts > 1 {
				mine = append(mine, int32(i))
			}
		}
		bt.tables[p] = t
		if nparts > 1 {
			partRows[p] = mine
		}
	})
	if perr != nil {
		bt.release()
		return nil, perr
	}
	for p, t := range bt.tables {
		bt.base[p+1] = bt.base[p] + int32(t.len())
	}
	bt.head = make([]int32, bt.base[nparts])
	nulls := 0
	if bk.null != nil {
		for _, isNull := range bk.null[:n] {
			if isNull {
				nulls++
			}
		}
		bt.nullKeys = nulls > 0
	}
	bt.unique = int(bt.base[nparts]) == n-nulls
	// Link from the last row back so each chain runs in row order. A
	// partition's key ids and rows are its own, so partitions link apart.
	if nparts == 1 {
		linkChains(bt.head, bt.next, ids, nil, n)
		return bt, nil
	}
	perr = parallel(nparts, func(p int) {
		linkChains(bt.head[bt.base[p]:bt.base[p+1]], bt.next, ids, partRows[p], 0)
	})
	if perr != nil {
		bt.release()
		return nil, perr
	}
	return bt, nil
}

// joinParts is the number of partitions, from threads to four times
// threads, whose key tables for keys keys have the fewest slots together.
// Tables are powers of two, so a count of partitions that leaves each
// just past a size doubles the memory: 7.3M keys in two partitions need
// two tables of 8M slots, 268 MB with 16-byte slots, where five need five
// of 2M, 168 MB. Each partition's goroutine reads every row's hash to
// find its own, a cost that grows with the partitions but stays small
// beside the inserts.
func joinParts(keys, threads int) int {
	best, bestSlots := threads, -1
	for p := threads; p <= 4*threads; p++ {
		size := 1024
		for keys/p > growLimit(size, true) {
			size *= 2
		}
		if slots := p * size; bestSlots < 0 || slots < bestSlots {
			best, bestSlots = p, slots
		}
	}
	return best
}

// linkChains sets head (one partition's slice of the key ids) and next so
// that each key's rows chain in row order: over rows when given (all of
// the partition's, none with a NULL key), else over rows 0..n-1. ids are
// partition-local; rows with id < 0 (NULL keys) stay out of every chain.
func linkChains(head, next, ids, rows []int32, n int) {
	for i := range head {
		head[i] = -1
	}
	if rows == nil {
		for r := n - 1; r >= 0; r-- {
			if id := ids[r]; id >= 0 {
				next[r] = head[id]
				head[id] = int32(r)
			}
		}
		return
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		id := ids[r]
		next[r] = head[id]
		head[id] = r
	}
}

// distinctGuess estimates how many distinct keys bk holds, to size the
// join table once: growing it rehashes every key (q05 spent 8% of its CPU
// there), while sizing for every row wastes memory where keys repeat
// (lineitem by order). A HyperLogLog sketch over the hashes (2^11 one-byte
// registers, about 2% error) costs a pass of shifts and compares, made by
// up to threads goroutines over ranges of the rows, whose sketches merge
// by taking each register's maximum (the same sketch as one pass makes).
func distinctGuess(bk *batchKeys, threads int) (int, error) {
	const p = 11
	const m = 1 << p
	if bk.n <= m {
		return bk.n, nil
	}
	parts := rowParts(bk.n, threads)
	regs := make([][m]uint8, parts)
	if err := parallel(parts, func(q int) {
		lo, hi := rowRange(q, parts, bk.n)
		reg := &regs[q]
		for _, h := range bk.hashes[lo:hi] {
			r := uint8(bits.LeadingZeros64(h<<p|1<<(p-1))) + 1
			i := h >> (64 - p)
			reg[i] = max(reg[i], r)
		}
	}); err != nil {
		return 0, err
	}
	reg := &regs[0]
	for q := 1; q < parts; q++ {
		for i, r := range &regs[q] {
			reg[i] = max(reg[i], r)
		}
	}
	sum, zeros := 0.0, 0
	for _, r := range reg {
		sum += 1 / float64(uint64(1)<<r)
		if r == 0 {
			zeros++
		}
	}
	est := 0.7213 / (1 + 1.079/m) * m * m / sum
	if est <= 2.5*m && zeros > 0 { // small range: linear counting
		est = m * math.Log(float64(m)/float64(zeros))
	}
	return min(bk.n, int(est*1.05)+1), nil
}

// lookup sets out[i] to the global key id of row i, -1 if none.
func (bt *joinTable) lookup(bk *batchKeys, out []int32) {
	nparts := len(bt.tables)
	if nparts == 1 {
		bt.tables[0].lookup(bk, out)
		return
	}
	// A single int key equal to the previous row's reuses its id (see
	// keyTable.insertInts).
	single := bt.tables[0].single
	prevK, prevID, havePrev := int64(0), int32(-1), false
	pf := bt.tables[0].wantsPrefetch()
	for i := range bk.n {
		if pf && i%prefetchRows == 0 {
			bk.sink += bt.touch(bk.hashes[i:min(i+prefetchRows, bk.n)])
		}
		if bk.null != nil && bk.null[i] {
			out[i] = -1
			continue
		}
		if single && havePrev && bk.ints[i] == prevK {
			out[i] = prevID
			continue
		}
		p := partitionOf(bk.hashes[i], nparts)
		id := bt.tables[p].find(bk, i)
		if id >= 0 {
			id += bt.base[p]
		}
		out[i] = id
		if single {
			prevK, prevID, havePrev = bk.ints[i], id, true
		}
	}
}

// firstRows replaces each key id in ids (-1: no match) with the first
// row of its chain. The loads depend on nothing loaded before them, so
// the core overlaps their cache misses (head is as large as the build),
// where a chain walk starting from the id would wait for each in turn.
func (bt *joinTable) firstRows(ids []int32) {
	head := bt.head
	for i, id := range ids {
		if id >= 0 {
			ids[i] = head[id]
		}
	}
}

// release frees the build rows and gives the slot arrays back for reuse;
// no probe may run any more.
func (bt *joinTable) release() {
	bt.dropBuilt()
	if bt.rows != nil { // nil: a join filter's own key table
		bt.rows.Release()
	}
	for _, t := range bt.tables {
		if t != nil { // nil: a build that failed before its partition's table
			t.dropSlots()
		}
	}
}

func releaseBatchList(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// hashProber is one probe worker's state.
type hashProber struct {
	bt        *joinTable
	codec     keyCodec
	keys      []compiledExpr
	nullAware bool
	bk        batchKeys
	ids       []int32
}

func (p *hashProber) probe(c *Context, jc *joinCore, b arrow.RecordBatch, out chan<- arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	if p.nullAware && p.bt.rows.NumRows() > 0 && p.bt.nullKeys {
		return nil // x NOT IN (…, NULL, …) is never true
	}
	karr, err := evalAll(c.Alloc, p.keys, b)
	if err != nil {
		return err
	}
	p.codec.prepare(karr, n, &p.bk)
	p.ids = grown(p.ids, n)
	p.bt.lookup(&p.bk, p.ids)
	releaseArrays(karr) // only now: bk aliases the key arrays' values
	p.bt.firstRows(p.ids[:n])
	var exclude []bool
	if p.nullAware && p.bt.rows.NumRows() > 0 {
		exclude = p.bk.null // NULL NOT IN (non-empty set) is never true
	}
	rows, next := p.ids, p.bt.next
	// Semi/anti without a condition only need to know a match exists;
	// with unique build keys no row has a next one to read.
	firstOnly := p.bt.unique || jc.cond == nil && (jc.typ == expr.JoinSemi || jc.typ == expr.JoinAnti)
	i, r := 0, int32(-1)
	gen := func(li, ri []int32, limit int) ([]int32, []int32, bool) {
		for len(li) < limit {
			if r < 0 {
				if i >= n {
					return li, ri, false
				}
				r = rows[i]
				i++
				continue
			}
			li = append(li, int32(i-1))
			ri = append(ri, r)
			if firstOnly {
				r = -1
			} else {
				r = next[r]
			}
		}
		return li, ri, true
	}
	return jc.joinBatch(c, b, gen, exclude, out)
}

// NestedLoopJoin materialises Right and tests Cond (over left columns then
// right columns; nil: true) for every pair. Types as HashJoin; used for
// cross products and joins without equality keys.
type NestedLoopJoin struct {
	Type  JoinType
	Left  Node
	Right Node
	Cond  expr.Expr
	Out   *arrow.Schema
	// Feed, when set (a single join without Cond), is given Right's row
	// once it is read, for a GPUAggregate below (scalar_feed.go).
	Feed *ScalarFeed
}

func (n *NestedLoopJoin) Schema() *arrow.Schema { return n.Out }
func (n *NestedLoopJoin) Children() []Node      { return []Node{n.Left, n.Right} }
func (n *NestedLoopJoin) Explain() string       { return "NestedLoopJoin " + n.Type.String() }

// Open reads all of Right, then c.Threads workers pair each left batch
// with every right row in chunks of c.BatchSize pairs.
func (n *NestedLoopJoin) Open(c *Context) <-chan arrow.RecordBatch {
	left, right := n.Left.Open(c), n.Right.Open(c)
	jc, err := newJoinCore(n.Type, n.Left.Schema(), n.Right.Schema(), n.Out, n.Cond)
	if err != nil {
		hashDrainLater(c, left)
		return hashFailedDrain(c, right, err)
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		if n.Feed != nil {
			// Given nothing if the join ends before Right's row.
			defer c.FeedRun(n.Feed).give(c, nil)
		}
		var batches []arrow.RecordBatch
		for b := range right {
			batches = append(batches, b)
		}
		if err := c.Err(); err != nil {
			releaseBatchList(batches)
			hashDrainLater(c, left)
			close(out)
			return err
		}
		rows, err := ConcatBatches(c.Alloc, n.Right.Schema(), batches)
		releaseBatchList(batches)
		if err != nil {
			hashDrainLater(c, left)
			close(out)
			return errs.Wrap(errs.Internal, err, "nested loop join")
		}
		jc.right = rows
		if n.Feed != nil {
			c.FeedRun(n.Feed).give(c, rows)
		}
		nr := int32(rows.NumRows())
		var wg sync.WaitGroup
		for range max(c.Threads, 1) {
			wg.Add(1)
			c.Go(func() error {
				defer wg.Done()
				defer hashDrainLater(c, left)
				for b := range left {
					nl := int32(b.NumRows())
					i, r := int32(0), int32(0)
					gen := func(li, ri []int32, limit int) ([]int32, []int32, bool) {
						for len(li) < limit {
							if r >= nr {
								i, r = i+1, 0
							}
							if i >= nl || nr == 0 {
								return li, ri, false
							}
							li = append(li, i)
							ri = append(ri, r)
							r++
						}
						return li, ri, true
					}
					err := jc.joinBatch(c, b, gen, nil, out)
					b.Release()
					if err != nil {
						return err
					}
				}
				return c.Err()
			})
		}
		c.Go(func() error {
			wg.Wait()
			rows.Release()
			close(out)
			return nil
		})
		return nil
	})
	return out
}
