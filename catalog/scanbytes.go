package catalog

// SplitSizer is implemented by file-backed tables that know how many file
// bytes reading one split reads, so a progress bar can count bytes scanned
// out of the total rather than rows.
type SplitSizer interface {
	// SplitBytes is the on-disk size of the given columns (indexes into
	// Schema) of split: what reading them costs in I/O.
	SplitBytes(split int, columns []int) int64
}

// SplitBytes sums the compressed column chunks of the projected columns in
// the split's row group.
func (t *ParquetTable) SplitBytes(split int, columns []int) int64 {
	sp := t.splits[split]
	pf := &t.files[sp.file]
	rg := pf.md.RowGroup(sp.rowGroup)
	var n int64
	for _, c := range columns {
		if c >= len(pf.leaves) {
			continue // a partition column
		}
		for _, l := range pf.leavesOf(c) {
			if cc, err := rg.ColumnChunk(l); err == nil {
				n += cc.TotalCompressedSize()
			}
		}
	}
	return n
}

// SplitBytes is the split's byte range: a CSV reader reads every byte of
// it whatever the columns.
func (t *csvTable) SplitBytes(split int, _ []int) int64 {
	sp := t.splits[split]
	return sp.end - sp.start
}
