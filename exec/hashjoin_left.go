package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
	"gq/expr"
)

// A semi or anti join keeps or drops left rows, so the usual plan builds
// its table on the right input. When the left input is much the smaller
// (TPC-H q04: 57K orders against 3.8M lineitem rows; q21: 76K rows
// against all of lineitem), building on the right costs far more than
// the probe it saves: BuildLeft builds on the left rows instead, streams
// the right input through the table marking the left rows that have a
// match, and emits the marked (semi) or unmarked (anti) rows at the end.
// A left outer join does the same (q13: 150K customers against 1.5M
// orders), sending each matching pair as it is found and the unmarked
// left rows, padded with NULLs, at the end.

// openBuildLeft is Open for a semi/anti HashJoin with BuildLeft.
func (h *HashJoin) openBuildLeft(c *Context) <-chan arrow.RecordBatch {
	if h.Publish != nil {
		// The right side is the probe here: its scan starts after publishing.
		c.markDirectProbe(h.Publish, h.Right)
	}
	left, right := h.Left.Open(c), h.Right.Open(c)
	var err error
	if h.Type != expr.JoinSemi && h.Type != expr.JoinAnti && h.Type != expr.JoinLeft || h.NullAware {
		err = errs.New(errs.Internal, "HashJoin: BuildLeft is for semi, anti and left joins without NOT IN semantics, not %s", h.Type)
	}
	var jc *joinCore
	if err == nil {
		jc, err = newJoinCore(h.Type, h.Left.Schema(), h.Right.Schema(), h.Out, h.Extra)
	}
	var lkeys, rkeys []compiledExpr
	var codec keyCodec
	if err == nil {
		lkeys, rkeys, codec, err = h.compileKeys()
	}
	if err != nil {
		hashDrainLater(c, right)
		return hashFailedDrain(c, left, err)
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		bt, err := buildJoinTable(c, left, h.Left.Schema(), lkeys, codec)
		if err != nil {
			hashDrainLater(c, right)
			close(out)
			return err
		}
		defer bt.release()
		if h.Publish != nil { // the right side's scan may skip rows no left row matches
			jf := c.joinFilterRun(h.Publish)
			defer jf.withdraw()
			if err := jf.publishFor(c, h.Publish, bt, lkeys, codec); err != nil {
				hashDrainLater(c, right)
				close(out)
				return err
			}
		}
		bt.dropBuilt() // only a join filter reuses them
		workers := max(c.Threads, 1)
		marks := make([]*leftMarks, workers)
		alias := keyAliases(h.LeftKeys, h.RightKeys, h.Left.Schema(), h.Right.Schema())
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			c.Go(func() error {
				defer wg.Done()
				defer hashDrainLater(c, right)
				m := &leftMarks{bt: bt, codec: codec, keys: rkeys, jc: jc, out: out, emit: h.Type == expr.JoinLeft, alias: alias,
					keyHit: make([]bool, len(bt.head)), rowHit: make([]bool, len(bt.next))}
				for b := range right {
					err := m.probe(c, b)
					b.Release()
					if err != nil {
						return err
					}
				}
				marks[w] = m
				return c.Err()
			})
		}
		wg.Wait()
		if err := c.Err(); err != nil {
			close(out)
			return err
		}
		for _, m := range marks {
			if m == nil { // a worker failed: the query is already failing
				close(out)
				return nil
			}
		}
		err = emitMarked(c, h, bt, marks, out)
		close(out)
		return err
	})
	return out
}

// leftMarks is one probe worker's record of the left rows that matched:
// keyHit per key id when there is no Extra condition (every row of the
// key matches), rowHit per left row otherwise.
type leftMarks struct {
	bt     *joinTable
	codec  keyCodec
	keys   []compiledExpr
	jc     *joinCore
	out    chan<- arrow.RecordBatch
	emit   bool  // left join: send the matching pairs
	alias  []int // per left column, the right column equal to it in a pair (keyAliases)
	bk     batchKeys
	ids    []int32
	keyHit []bool
	rowHit []bool
	// li, ri and sel are probe's pair and selection buffers, kept from
	// batch to batch: made afresh for each, they grew by appending to a
	// batch's worth of pairs every time, the most garbage of TPC-H q13.
	li, ri, sel []int32
}

func (m *leftMarks) probe(c *Context, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	karr, err := evalAll(c.Alloc, m.keys, b)
	if err != nil {
		return err
	}
	m.codec.prepare(karr, n, &m.bk)
	m.ids = grown(m.ids, n)
	m.bt.lookup(&m.bk, m.ids)
	releaseArrays(karr) // only now: bk aliases the key arrays' values
	cond := m.jc.cond
	if cond == nil {
		for _, id := range m.ids[:n] {
			if id >= 0 {
				m.keyHit[id] = true
			}
		}
		if !m.emit {
			return nil
		}
	}
	// Pairs of (left row, right row), in chunks of c.BatchSize: tested
	// by the condition, if any, and sent for a left join. Semi and anti
	// joins skip left rows already known to match.
	li, ri, sel := m.li[:0], m.ri[:0], m.sel[:0]
	defer func() { m.li, m.ri, m.sel = li, ri, sel }()
	flush := func() error {
		if len(li) == 0 {
			return nil
		}
		pb := m.pairBatch(c, b, li, ri)
		if cond != nil {
			var err error
			sel, err = cond.filter(c.Alloc, pb, sel[:0])
			if err != nil {
				pb.Release()
				return err
			}
			for _, s := range sel {
				m.rowHit[li[s]] = true
			}
			if m.emit && len(sel) < len(li) {
				t := TakeBatch(c.Alloc, pb, sel)
				pb.Release()
				pb = t
			}
		}
		li, ri = li[:0], ri[:0]
		if !m.emit || pb.NumRows() == 0 {
			pb.Release()
			return c.Err()
		}
		if !Send(c, m.out, array.NewRecordBatch(m.outSchema(), pb.Columns(), pb.NumRows())) {
			pb.Release()
			return c.Err()
		}
		pb.Release()
		return c.Err()
	}
	m.bt.firstRows(m.ids[:n])
	next := m.bt.next
	if m.bt.unique { // chains of one row: no next to read
		next = nil
	}
	for i, r := range m.ids[:n] {
		for r >= 0 {
			if m.emit || !m.rowHit[r] {
				li, ri = append(li, r), append(ri, int32(i))
				if len(li) >= c.BatchSize {
					if err := flush(); err != nil {
						return err
					}
				}
			}
			if next == nil {
				break
			}
			r = next[r]
		}
	}
	return flush()
}

func (m *leftMarks) outSchema() *arrow.Schema { return m.jc.out }

// pairBatch gathers left rows li of the build side and right rows ri of b
// into one batch of the join's pair schema (left columns, then right); a
// left key column with an alias in b is taken from b (see keyAliases).
func (m *leftMarks) pairBatch(c *Context, b arrow.RecordBatch, li, ri []int32) arrow.RecordBatch {
	cols := make([]arrow.Array, 0, m.jc.pairSchema.NumFields())
	whole := isIdentity(ri, int(b.NumRows()))
	for i := range int(m.bt.rows.NumCols()) {
		if m.alias != nil && m.alias[i] >= 0 {
			if a := b.Column(m.alias[i]); arrow.TypeEqual(a.DataType(), m.bt.rows.Column(i).DataType()) {
				cols = append(cols, takeOrWhole(c.Alloc, a, ri, whole))
				continue
			}
		}
		cols = append(cols, TakeArray(c.Alloc, m.bt.rows.Column(i), li))
	}
	for i := range int(b.NumCols()) {
		cols = append(cols, takeOrWhole(c.Alloc, b.Column(i), ri, whole))
	}
	out := array.NewRecordBatch(m.jc.pairSchema, cols, int64(len(li)))
	releaseArrays(cols)
	return out
}

// emitMarked merges the workers' marks and sends the left rows that
// matched (semi) or did not (anti, left), the latter NULL-padded for a
// left join; rows with a NULL key are in no chain and never match. With
// many left rows the merge and the sending are split into ranges on
// c.Threads goroutines: done by one, they leave the other cores idle at
// the end of the join.
func emitMarked(c *Context, h *HashJoin, bt *joinTable, marks []*leftMarks, out chan<- arrow.RecordBatch) error {
	nrows, nkeys := len(bt.next), len(bt.head)
	parts := 1
	if nrows >= 1<<16 {
		parts = max(c.Threads, 1)
	}
	hit := make([]bool, nrows)
	// Rows are split for the per-row marks, then key ids for the per-key
	// ones: each row is in one key's chain, so no two goroutines write
	// one row in either pass.
	if err := parallel(parts, func(p int) {
		lo, hi := nrows*p/parts, nrows*(p+1)/parts
		for _, m := range marks {
			for r, x := range m.rowHit[lo:hi] {
				if x {
					hit[lo+r] = true
				}
			}
		}
	}); err != nil {
		return err
	}
	if err := parallel(parts, func(p int) {
		lo, hi := nkeys*p/parts, nkeys*(p+1)/parts
		for _, m := range marks {
			for id, x := range m.keyHit[lo:hi] {
				if !x {
					continue
				}
				for r := bt.head[lo+id]; r >= 0; r = bt.next[r] {
					hit[r] = true
				}
			}
		}
	}); err != nil {
		return err
	}
	want := h.Type == expr.JoinSemi
	perr := parallel(parts, func(p int) {
		lo, hi := nrows*p/parts, nrows*(p+1)/parts
		sel := make([]int32, 0, min(hi-lo, c.BatchSize))
		send := func() bool {
			if len(sel) == 0 {
				return true
			}
			t := TakeBatch(c.Alloc, bt.rows, sel)
			cols := append([]arrow.Array{}, t.Columns()...)
			var pads []arrow.Array
			for i := len(cols); i < h.Out.NumFields(); i++ {
				pads = append(pads, array.MakeArrayOfNull(c.Alloc, h.Out.Field(i).Type, len(sel)))
			}
			b := array.NewRecordBatch(h.Out, append(cols, pads...), t.NumRows())
			t.Release()
			releaseArrays(pads)
			sel = sel[:0]
			return Send(c, out, b)
		}
		for r := lo; r < hi; r++ {
			if hit[r] != want {
				continue
			}
			sel = append(sel, int32(r))
			if len(sel) >= c.BatchSize && !send() {
				return
			}
		}
		send()
	})
	if perr != nil {
		return perr
	}
	return c.Err()
}
