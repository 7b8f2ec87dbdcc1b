package catalog

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	gqmem "gq/memory"
)

// ColumnTest is a conjunct of a scan's filter that reads one column only
// and cannot fail (comparisons, IN and LIKE against constants), handed to
// the table apart from RowFilter.Select so that it can be decided once per
// distinct value instead of once per row.
//
// Why: low-cardinality string columns (flags, modes, segments) are
// dictionary encoded in Parquet files. Materialising every row's string
// only to compare it with a constant cost TPC-H q19 40% of its CPU. A
// column read only by its tests is instead decoded to dictionary indices,
// Keep runs over the dictionary (a handful of values per row group), and
// each row is decided by one lookup of its index. Where the column is not
// dictionary encoded, or is read for other purposes too, Keep runs over
// the decoded values.
type ColumnTest struct {
	// Col is the column's position in the Read columns list.
	Col int
	// Keep reports, for each value of vals (an array of the column's
	// type; NULLs possible), whether a row holding it passes the test.
	Keep func(vals arrow.Array) ([]bool, error)
}

// columnTest is a ColumnTest while one row group is read.
type columnTest struct {
	ColumnTest
	dc *directColumn
	// only: Select does not read the column, so the tests decode it, in
	// index mode where they can (dc.indexed); take then gathers the
	// strings of the surviving rows alone from the dictionary.
	only bool
	// keep is Keep over the dictionary of dictGen (index mode).
	keep    []bool
	dictGen int
}

// readIndices reads the dictionary indices of up to len(idx) values. It
// stops early, returning how many it read, at a PLAIN page (a writer's
// fallback once the dictionary grew too large).
func (pc *pageColumn) readIndices(idx []int32) (int, error) {
	done := 0
	for done < len(idx) {
		ok, err := pc.page()
		if err != nil {
			return done, err
		}
		if !ok {
			return done, errs.New(errs.IO, "column %s: chunk ends early", pc.name)
		}
		if pc.plain {
			return done, nil
		}
		k := min(pc.left, len(idx)-done)
		got, err := pc.indices(k, len(pc.dictOffs)-1)
		if err != nil {
			return done, err
		}
		copy(idx[done:], got)
		pc.left -= k
		done += k
	}
	return done, nil
}

// dictionary returns the current dictionary as a String array (a view).
func (pc *pageColumn) dictionary(typ arrow.DataType) arrow.Array {
	n := len(pc.dictOffs) - 1
	d := array.NewData(typ, n, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(pc.dictOffs)), memory.NewBufferBytes(pc.dictData)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// decode reads the next n rows of a test's column that Select does not
// read (decodeIndexed).
func (ct *columnTest) decode(n int) error { return ct.dc.decodeIndexed(n) }

// decodeIndexed reads the next n rows of a string column that the filter's
// Select does not read: their dictionary indices into dc.tidx where every
// value of the batch is dictionary encoded (dc.indexed; take then gathers
// only the surviving rows' strings, from the dictionary), else the values
// as decode would. Tests decide rows by their index.
func (dc *directColumn) decodeIndexed(n int) error {
	dc.indexed = false
	if dc.pc == nil || dc.kind != directBytes {
		return dc.decodeValues(n)
	}
	got, err := dc.readBatchIndices(n)
	if err != nil || dc.indexed {
		return err
	}
	// A PLAIN page in the batch: materialise what was read as indices,
	// then decode the rest as values.
	dc.offs = gqmem.GrowScratch(dc.offs, n+1)
	dc.offs[0] = 0
	do, dd := dc.pc.dictOffs, dc.pc.dictData
	total := 0
	for _, j := range dc.tidx[:got] {
		total += int(do[j+1] - do[j])
	}
	data := growBytes(dc.data[:0], total)
	for i, j := range dc.tidx[:got] {
		data = append(data, dd[do[j]:do[j+1]]...)
		dc.offs[i+1] = int32(len(data))
	}
	data, more, err := dc.pc.readStrings(n-got, dc.offs[got:], data)
	dc.data = data
	if err != nil {
		return err
	}
	if got+more != n {
		return errs.New(errs.IO, "column %s: %d rows decoded, want %d", dc.pc.name, got+more, n)
	}
	dc.n, dc.valid, dc.nulls = n, nil, 0
	return nil
}

// readBatchIndices reads the dictionary indices of the batch's n rows
// into dc.tidx, up to a PLAIN page; it returns how many it read, and
// sets dc.indexed (and dc.n) when that is all n.
func (dc *directColumn) readBatchIndices(n int) (int, error) {
	dc.tidx = gqmem.GrowScratch(dc.tidx, n)
	got, err := dc.pc.readIndices(dc.tidx[:n])
	if err == nil && got == n {
		dc.indexed, dc.n = true, n
	}
	return got, err
}

// decodeIndexedSome is decodeIndexed for the rows sel (ascending; empty
// to step over the batch) alone: a batch of dictionary indices
// throughout is held so (take picks sel from it); otherwise the strings
// of sel alone are materialised (dc.picked), those of other rows stepped
// over.
func (dc *directColumn) decodeIndexedSome(n int, sel []int32) error {
	dc.indexed, dc.picked = false, false
	got, err := dc.readBatchIndices(n)
	if err != nil || dc.indexed {
		return err
	}
	j, _ := slices.BinarySearch(sel, int32(got)) // sel[:j] are held as indices
	dc.offs = gqmem.GrowScratch(dc.offs, len(sel)+1)
	dc.offs[0] = 0
	data := appendDictStrings(dc.data[:0], dc.pc.dictOffs, dc.pc.dictData, dc.tidx, sel[:j], 0, dc.offs[1:])
	data, more, err := dc.pc.pickStrings(n-got, sel[j:], got, dc.offs[j+1:], data)
	dc.data = data
	if err != nil {
		return err
	}
	if got+more != n {
		return errs.New(errs.IO, "column %s: %d rows decoded, want %d", dc.pc.name, got+more, n)
	}
	dc.n, dc.valid, dc.nulls, dc.picked = len(sel), nil, 0, true
	return nil
}

// apply keeps the rows of sel (ascending, in place) that pass the test.
func (ct *columnTest) apply(sel []int32) ([]int32, error) {
	if len(sel) == 0 {
		return sel, nil
	}
	dc := ct.dc
	if dc.indexed {
		if ct.keep == nil || ct.dictGen != dc.pc.dictGen {
			dict := dc.pc.dictionary(dc.typ)
			n := dict.Len()
			keep, err := ct.Keep(dict)
			dict.Release()
			if err != nil {
				return nil, err
			}
			if len(keep) != n {
				return nil, errs.New(errs.Internal, "column test: %d answers for %d values", len(keep), n)
			}
			ct.keep, ct.dictGen = keep, dc.pc.dictGen
		}
		keep, idx := ct.keep, dc.tidx
		k := 0
		for _, r := range sel {
			if keep[idx[r]] {
				sel[k] = r
				k++
			}
		}
		return sel[:k], nil
	}
	vals := dc.view()
	keep, err := ct.Keep(vals)
	n := vals.Len()
	vals.Release()
	if err != nil {
		return nil, err
	}
	if len(keep) != n {
		return nil, errs.New(errs.Internal, "column test: %d answers for %d values", len(keep), n)
	}
	k := 0
	for _, r := range sel {
		if keep[r] {
			sel[k] = r
			k++
		}
	}
	return sel[:k], nil
}

// applyColumnTests runs every test of filter over b's columns (Read
// columns list) and keeps the rows of sel that pass them all; for readers
// that decode every value (the pqarrow path).
func applyColumnTests(filter *RowFilter, b arrow.RecordBatch, sel []int32) ([]int32, error) {
	for _, t := range filter.Tests {
		if len(sel) == 0 {
			break
		}
		if t.Col < 0 || t.Col >= int(b.NumCols()) {
			return nil, errs.New(errs.Internal, "column test on column %d of %d", t.Col, b.NumCols())
		}
		keep, err := t.Keep(b.Column(t.Col))
		if err != nil {
			return nil, err
		}
		k := 0
		for _, r := range sel {
			if keep[r] {
				sel[k] = r
				k++
			}
		}
		sel = sel[:k]
	}
	return sel, nil
}

// columnTests prepares filter's tests over the row group's columns
// (order: the directColumn of each Read position). The tests decode a
// column Select does not read (inPred), in index mode where they can.
func columnTests(table string, filter *RowFilter, order []*directColumn, columns []int, inPred map[*directColumn]bool) ([]*columnTest, error) {
	if len(filter.Tests) == 0 {
		return nil, nil
	}
	tests := make([]*columnTest, len(filter.Tests))
	for i, t := range filter.Tests {
		if t.Col < 0 || t.Col >= len(columns) {
			return nil, errs.New(errs.Internal, "table %s: column test on column %d of %d", table, t.Col, len(columns))
		}
		dc := order[t.Col]
		tests[i] = &columnTest{ColumnTest: t, dc: dc, only: !inPred[dc]}
	}
	return tests, nil
}

// testOnly reports whether the tests decode dc.
func testOnly(tests []*columnTest, dc *directColumn) bool {
	for _, ct := range tests {
		if ct.dc == dc && ct.only {
			return true
		}
	}
	return false
}

// runColumnTests decodes the test-only columns' next n rows (each once,
// whatever the selection: they must keep pace) and keeps the rows of sel
// that pass every test.
func runColumnTests(path string, tests []*columnTest, n int, sel []int32) ([]int32, error) {
	for i, ct := range tests {
		if !ct.only || slices.ContainsFunc(tests[:i], func(o *columnTest) bool { return o.dc == ct.dc }) {
			continue // decoded by Select's reads, or by the column's first test
		}
		if err := guard(path, func() error { return ct.decode(n) }); err != nil {
			return nil, err
		}
	}
	var err error
	for _, ct := range tests {
		if sel, err = ct.apply(sel); err != nil {
			return nil, err
		}
	}
	return sel, nil
}

// identityInto returns the rows 0..n-1 in s's storage.
func identityInto(s []int32, n int) []int32 {
	s = grow(s, n)[:n]
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// takeIndexed is take for a batch held as dictionary indices: the
// strings of the rows sel (nil: all) straight from the dictionary.
func (dc *directColumn) takeIndexed(sel []int32) arrow.Array {
	idx := dc.tidx[:dc.n]
	pc := dc.pc
	if pc.dictLen1 { // one-byte strings (flags): a byte each, in one pass
		return dc.takeIndexed1(idx, sel)
	}
	if sel != nil {
		picked := gqmem.Scratch[int32](len(sel))
		for i, r := range sel {
			picked[i] = idx[r]
		}
		idx = picked
	}
	do := pc.dictOffs
	total := 0
	for _, j := range idx {
		total += int(do[j+1] - do[j])
	}
	offs := gqmem.Scratch[int32](len(idx) + 1)
	offs[0] = 0
	var data []byte
	if pc.dictPad != nil {
		data = copySlots(gqmem.Scratch[byte](total + dictSlot)[:0], total, idx, do, pc.dictPad, offs[1:])
	} else {
		data = gqmem.Scratch[byte](total)[:0]
		for i, j := range idx {
			data = append(data, pc.dictData[do[j]:do[j+1]]...)
			offs[i+1] = int32(len(data))
		}
	}
	return dc.array(dc.mem, nil, nil, offs, data, len(idx), 0)
}

// takeIndexed1 is takeIndexed for a dictionary of one-byte strings (TPC-H
// q01's l_returnflag, l_linestatus): each row's byte straight from the
// dictionary through sel, without first gathering the rows' indices and
// summing their lengths (two passes more over every row, a fifth of q01's
// string work).
func (dc *directColumn) takeIndexed1(idx, sel []int32) arrow.Array {
	dict := dc.pc.dictData
	n := len(idx)
	if sel != nil {
		n = len(sel)
	}
	offs := gqmem.Scratch[int32](n + 1)
	offs[0] = 0
	data := gqmem.Scratch[byte](n)
	if sel == nil {
		for i, j := range idx {
			data[i] = dict[j]
			offs[i+1] = int32(i + 1)
		}
	} else {
		for i, r := range sel {
			data[i] = dict[idx[r]]
			offs[i+1] = int32(i + 1)
		}
	}
	return dc.array(dc.mem, nil, nil, offs, data, n, 0)
}
