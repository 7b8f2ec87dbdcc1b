package catalog

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/errs"
)

// ParquetTable is a table over one or more Parquet files of the same schema.
// Each (file, row group) pair is a split. File footers are parsed once, at
// open; Read reopens the file with the cached footer, so no file handles are
// held between reads.
type ParquetTable struct {
	name       string
	schema     *arrow.Schema // normalised: the readable columns
	fileSchema *arrow.Schema // the same columns as the first file's footer decodes them
	// unreadable are the files' columns gq has no value type for (nested,
	// timestamps, wide decimals…): kept out of schema so that the rest of
	// the file reads, and named to the binder (UnreadableTable).
	unreadable []UnreadableColumn
	files      []parquetFile
	// extra are constant columns after the files' own (hive partitions).
	extra  []partitionCol
	splits []parquetSplit
	rows   int64
	direct []directKind // per column: how readDirect decodes it
}

// fileBytes is the size of the table's column chunks, compressed as stored.
func (t *ParquetTable) fileBytes() int64 {
	var n int64
	for _, f := range t.files {
		for i := range f.md.NumRowGroups() {
			n += f.md.RowGroup(i).TotalCompressedSize()
		}
	}
	return n
}

type parquetFile struct {
	path string
	md   *metadata.FileMetaData
	// leaves maps each column of the table's schema to its leaf column in
	// this file: the two differ once a nested or unreadable column comes
	// before it.
	leaves []int
	// nested maps a nested column to all its leaves (leaves holds the first).
	nested map[int][]int
}

// leaf is the file's leaf column index of the table's column c.
func (f *parquetFile) leaf(c int) int { return f.leaves[c] }

type parquetSplit struct {
	file, rowGroup int
	rows           int64
}

// openParquet opens the footers of paths (in this order) as one table.
// Columns gq cannot read stay out of the table's schema, listed in
// t.unreadable; the files' readable columns must agree.
func openParquet(name string, paths []string) (*ParquetTable, error) {
	t := &ParquetTable{name: name}
	seen := map[string]bool{}
	for fi, path := range paths {
		pf, fs, ns, bad, err := readParquetFooter(path)
		if err != nil {
			return nil, err
		}
		if fi == 0 {
			t.schema, t.fileSchema = ns, fs
		} else if merged, ok := mergeSchemas(t.schema, ns); ok {
			t.schema = merged
		} else {
			return nil, errs.New(errs.IO, "%s and %s have different schemas (%s vs %s)",
				paths[0], path, schemaString(t.schema), schemaString(ns))
		}
		for _, u := range bad {
			if !seen[key(u.Name)] {
				seen[key(u.Name)] = true
				t.unreadable = append(t.unreadable, u)
			}
		}
		t.files = append(t.files, pf)
		md := pf.md
		for rg := 0; rg < md.NumRowGroups(); rg++ {
			n := md.RowGroup(rg).NumRows()
			t.splits = append(t.splits, parquetSplit{file: fi, rowGroup: rg, rows: n})
			t.rows += n
		}
	}
	t.directKinds()
	return t, nil
}

// readsExtra reports whether columns include a partition column.
func (t *ParquetTable) readsExtra(columns []int) bool {
	for _, c := range columns {
		if c >= t.schema.NumFields()-len(t.extra) {
			return true
		}
	}
	return false
}

// readWithExtra reads the file columns of columns and adds the partition
// columns' constants; the filter, if any, applies to whole batches.
func (t *ParquetTable) readWithExtra(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, filter *RowFilter, emit func(arrow.RecordBatch) error) error {
	nfile := t.schema.NumFields() - len(t.extra)
	var own []int
	for _, c := range columns {
		if c < nfile {
			own = append(own, c)
		}
	}
	outSchema, err := projectSchema(t.name, t.schema, columns)
	if err != nil {
		return err
	}
	file := t.splits[split].file
	emit = filteredEmit(filter, mem, emit)
	return t.ReadFiltered(ctx, split, own, batchSize, mem, nil, func(b arrow.RecordBatch) error {
		defer b.Release()
		n := int(b.NumRows())
		cols := make([]arrow.Array, len(columns))
		j := 0
		for i, c := range columns {
			if c < nfile {
				cols[i] = b.Column(j)
				cols[i].Retain()
				j++
			} else {
				cols[i] = t.extra[c-nfile].array(file, n, mem)
			}
		}
		out := array.NewRecordBatch(outSchema, cols, int64(n))
		releaseAll(cols)
		return emit(out)
	})
}

// readParquetFooter parses path's footer. fs and ns are the file's
// readable top-level columns as pqarrow decodes them and as gq reads them
// (normalizeType); bad lists the others. The parquet reader may panic on
// corrupt input; that becomes an IO error.
func readParquetFooter(path string) (pf parquetFile, fs, ns *arrow.Schema, bad []UnreadableColumn, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.IO, "%s: corrupt Parquet file: %v", path, r)
		}
	}()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return pf, nil, nil, nil, errs.Wrap(errs.IO, err, "%s: not a readable Parquet file", path)
	}
	defer rdr.Close()
	md := rdr.MetaData()
	if err := checkChunkBounds(path, md); err != nil {
		return pf, nil, nil, nil, err
	}
	man, err := pqarrow.NewSchemaManifest(md.Schema, md.KeyValueMetadata(), nil)
	if err != nil {
		return pf, nil, nil, nil, errs.Wrap(errs.IO, err, "%s: reading schema", path)
	}
	pf = parquetFile{path: path, md: md}
	var files, gqs []arrow.Field
	for i, sf := range man.Fields {
		f := *sf.Field
		why := ""
		if !sf.IsLeaf() || md.Schema.Column(sf.ColIndex).MaxRepetitionLevel() > 0 {
			var t arrow.DataType
			if t, why = addNested(&pf, sf, md.Schema.Root().Field(i), md.Schema, path); why == "" {
				files = append(files, f)
				gqs = append(gqs, arrow.Field{Name: f.Name, Type: t, Nullable: true})
				continue
			}
		} else if isParquetInterval(f, md.Schema.Column(sf.ColIndex)) {
			files = append(files, f)
			gqs = append(gqs, arrow.Field{Name: f.Name, Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Nullable: f.Nullable})
			pf.leaves = append(pf.leaves, sf.ColIndex)
			continue
		} else if t, err := normalizeType(path, f); err != nil {
			why = unreadableWhy(f)
		} else {
			t = naiveTimestamp(t, md.Schema.Column(sf.ColIndex))
			files = append(files, f)
			gqs = append(gqs, arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable})
			pf.leaves = append(pf.leaves, sf.ColIndex)
			continue
		}
		bad = append(bad, UnreadableColumn{Name: f.Name, Type: typeString(f.Type), File: path, Why: why})
	}
	return pf, arrow.NewSchema(files, nil), arrow.NewSchema(gqs, nil), bad, nil
}

// mergeSchemas reports whether a and b have the same column names and types;
// the merged schema's columns are nullable when either is.
func mergeSchemas(a, b *arrow.Schema) (*arrow.Schema, bool) {
	if a.NumFields() != b.NumFields() {
		return nil, false
	}
	fields := make([]arrow.Field, a.NumFields())
	for i := range fields {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return nil, false
		}
		fields[i] = arrow.Field{Name: fa.Name, Type: fa.Type, Nullable: fa.Nullable || fb.Nullable}
	}
	return arrow.NewSchema(fields, nil), true
}

func schemaString(s *arrow.Schema) string {
	out := ""
	for i, f := range s.Fields() {
		if i > 0 {
			out += ", "
		}
		out += f.Name + " " + f.Type.String()
	}
	return out
}

func (t *ParquetTable) Name() string          { return t.name }
func (t *ParquetTable) Schema() *arrow.Schema { return t.schema }
func (t *ParquetTable) NumSplits() int        { return len(t.splits) }
func (t *ParquetTable) Stats() Stats          { return Stats{RowCount: t.rows} }

// Files lists the table's files in split order.
func (t *ParquetTable) Files() []string {
	out := make([]string, len(t.files))
	for i, f := range t.files {
		out[i] = f.path
	}
	return out
}

// SplitRows is the number of rows in split (a row group).
func (t *ParquetTable) SplitRows(split int) int64 { return t.splits[split].rows }

// Read implements Table: it reads the requested columns of one row group.
func (t *ParquetTable) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	return t.ReadFiltered(ctx, split, columns, batchSize, mem, nil, emit)
}

// ReadDictionaries is Read for a reader that keeps dictionaries (the GPU
// table load): a string column's batch whose rows are all
// dictionary-encoded in the file comes as a Dictionary array (Int32
// indices into the row group's dictionary) instead of strings, so that
// the reader need not materialise the strings only to encode them again.
// Other batches — a writer's PLAIN fallback pages, a column with NULLs,
// a file the direct decoder does not take — come as Read gives them.
func (t *ParquetTable) ReadDictionaries(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= len(t.splits) || len(columns) == 0 || t.readsExtra(columns) || !t.canReadDirect(t.splits[split].file, columns) {
		return t.Read(ctx, split, columns, batchSize, mem, emit)
	}
	outSchema, err := projectSchema(t.name, t.schema, columns)
	if err != nil {
		return err
	}
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	return t.readDirect(ctx, t.splits[split], columns, outSchema, batchSize, mem, nil, true, emit)
}

// ReadFiltered implements FilteredTable. Where the direct decoder cannot
// take the columns it reads through pqarrow and applies the filter to
// each whole batch.
func (t *ParquetTable) ReadFiltered(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, filter *RowFilter, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= len(t.splits) {
		return errs.New(errs.Internal, "table %s: split %d out of range [0,%d)", t.name, split, len(t.splits))
	}
	if t.readsExtra(columns) {
		return t.readWithExtra(ctx, split, columns, batchSize, mem, filter, emit)
	}
	outSchema, err := projectSchema(t.name, t.schema, columns)
	if err != nil {
		return err
	}
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	sp := t.splits[split]
	if len(columns) == 0 {
		return emitEmptyBatches(ctx, sp.rows, batchSize, outSchema, filteredEmit(filter, mem, emit))
	}
	if t.canReadDirect(sp.file, columns) {
		return t.readDirect(ctx, sp, columns, outSchema, batchSize, mem, filter, false, emit)
	}
	emit = filteredEmit(filter, mem, emit)
	pf := t.files[sp.file]

	// pqarrow returns columns in file order: read each wanted column once, in
	// ascending order, and place them as asked. Leaves ascend with the
	// table's columns, which keep the file's order.
	wanted := slices.Clone(columns)
	slices.Sort(wanted)
	wanted = slices.Compact(wanted)
	leaves := make([]int, len(wanted))
	leaves = leaves[:0]
	for _, c := range wanted {
		leaves = append(leaves, pf.leavesOf(c)...)
	}

	f, err := os.Open(pf.path)
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", pf.path)
	}
	defer f.Close()
	var rr pqarrow.RecordReader
	err = guard(pf.path, func() error {
		rdr, err := file.NewParquetReader(f, file.WithMetadata(pf.md), file.WithReadProps(parquet.NewReaderProperties(mem)))
		if err != nil {
			return err
		}
		// Not pqarrow's Parallel: it decodes columns in goroutines of its
		// own, where a panic on a corrupt page (arrow-go panics on some)
		// escapes guard and ends the process (found by FuzzParquet; see
		// testdata/fuzz/FuzzParquet). This is the fallback path — the
		// direct decoder takes the common column types.
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: int64(batchSize)}, mem)
		if err != nil {
			return err
		}
		rr, err = fr.GetRecordReader(ctx, leaves, []int{sp.rowGroup})
		return err
	})
	if err != nil {
		return err
	}
	defer rr.Release()

	pos := make([]int, len(columns)) // position of each wanted column in rr's batches
	for i, c := range columns {
		pos[i], _ = slices.BinarySearch(wanted, c)
	}
	cols := make([]arrow.Array, len(columns))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var ok bool
		if err := guard(pf.path, func() error { ok = rr.Next(); return nil }); err != nil {
			return err
		}
		if !ok {
			break
		}
		rec := rr.RecordBatch()
		for i, p := range pos {
			a, err := normalizeNested(rec.Column(p), outSchema.Field(i).Type, mem)
			if err != nil {
				releaseAll(cols[:i])
				return errs.Wrap(errs.Execution, err, "%s: column %s", pf.path, outSchema.Field(i).Name)
			}
			cols[i] = a
		}
		out := array.NewRecordBatch(outSchema, cols, rec.NumRows())
		releaseAll(cols)
		if err := emit(out); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.Wrap(errs.IO, err, "%s: row group %d", pf.path, sp.rowGroup)
	}
	return nil
}

// guard runs fn, turning its error or panic (corrupt input) into an IO
// error naming path.
func guard(path string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.IO, "%s: corrupt Parquet file: %v", path, r)
		}
	}()
	if err := fn(); err != nil {
		return errs.Wrap(errs.IO, err, "%s", path)
	}
	return nil
}

func releaseAll(arrs []arrow.Array) {
	for i, a := range arrs {
		if a != nil {
			a.Release()
			arrs[i] = nil
		}
	}
}

// projectSchema is the schema of the given columns of s.
func projectSchema(table string, s *arrow.Schema, columns []int) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		if c < 0 || c >= s.NumFields() {
			return nil, errs.New(errs.Internal, "table %s: column %d out of range [0,%d)", table, c, s.NumFields())
		}
		fields[i] = s.Field(c)
	}
	return arrow.NewSchema(fields, nil), nil
}

// emitEmptyBatches emits column-less batches covering rows rows (for
// COUNT(*) scans, which need only row counts).
func emitEmptyBatches(ctx context.Context, rows int64, batchSize int, s *arrow.Schema, emit func(arrow.RecordBatch) error) error {
	for rows > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(rows, int64(batchSize))
		if err := emit(array.NewRecordBatch(s, nil, n)); err != nil {
			return err
		}
		rows -= n
	}
	return nil
}

// ColumnStats are a row group's statistics for one column, in gq's value
// representation (as expr.Literal values: int64 for Int64 and unscaled
// Decimal, float64, bool, string, int32 days for Date32).
type ColumnStats struct {
	Min, Max  any
	HasMinMax bool
	NullCount int64 // -1 when unknown
}

// RowGroupStats returns the statistics that split's row group stores for
// column (index into Schema); ok is false when the file stores none usable.
func (t *ParquetTable) RowGroupStats(split, column int) (st ColumnStats, ok bool) {
	if split < 0 || split >= len(t.splits) || column < 0 || column >= t.schema.NumFields()-len(t.extra) {
		return ColumnStats{}, false
	}
	sp := t.splits[split]
	defer func() {
		if recover() != nil {
			st, ok = ColumnStats{}, false
		}
	}()
	pf := &t.files[sp.file]
	if pf.nested[column] != nil { // a leaf's statistics are not the column's
		return ColumnStats{}, false
	}
	cc, err := pf.md.RowGroup(sp.rowGroup).ColumnChunk(pf.leaf(column))
	if err != nil {
		return ColumnStats{}, false
	}
	if set, err := cc.StatsSet(); err != nil || !set {
		return ColumnStats{}, false
	}
	s, err := cc.Statistics()
	if err != nil || s == nil {
		return ColumnStats{}, false
	}
	st.NullCount = -1
	if s.HasNullCount() {
		st.NullCount = s.NullCount()
	}
	if !s.HasMinMax() {
		return st, true
	}
	min, max, good := statValues(s, t.fileSchema.Field(column).Type, t.schema.Field(column).Type)
	if good {
		st.Min, st.Max, st.HasMinMax = min, max, true
	}
	return st, true
}

// statValues converts typed Parquet statistics to gq values.
func statValues(s metadata.TypedStatistics, fileType, gqType arrow.DataType) (min, max any, ok bool) {
	unsigned := false
	switch fileType.ID() {
	case arrow.UINT64, arrow.FLOAT16:
		return nil, nil, false // sort order or encoding not worth trusting
	case arrow.UINT8, arrow.UINT16, arrow.UINT32:
		unsigned = true
	}
	switch gqType.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		switch s := s.(type) {
		case *metadata.Int32Statistics:
			if unsigned {
				return int64(uint32(s.Min())), int64(uint32(s.Max())), true
			}
			return int64(s.Min()), int64(s.Max()), true
		case *metadata.Int64Statistics:
			return s.Min(), s.Max(), true
		case *metadata.FixedLenByteArrayStatistics:
			return bigEndianInt(s.Min()), bigEndianInt(s.Max()), true
		case *metadata.ByteArrayStatistics:
			return bigEndianInt(s.Min()), bigEndianInt(s.Max()), true
		}
	case arrow.DECIMAL128:
		switch s := s.(type) {
		case *metadata.Int32Statistics:
			return decimal128.FromI64(int64(s.Min())), decimal128.FromI64(int64(s.Max())), true
		case *metadata.Int64Statistics:
			return decimal128.FromI64(s.Min()), decimal128.FromI64(s.Max()), true
		case *metadata.FixedLenByteArrayStatistics:
			lo, ok1 := bigEndianInt128(s.Min())
			hi, ok2 := bigEndianInt128(s.Max())
			return lo, hi, ok1 && ok2
		case *metadata.ByteArrayStatistics:
			lo, ok1 := bigEndianInt128(s.Min())
			hi, ok2 := bigEndianInt128(s.Max())
			return lo, hi, ok1 && ok2
		}
	case arrow.FLOAT64:
		switch s := s.(type) {
		case *metadata.Float32Statistics:
			return float64(s.Min()), float64(s.Max()), true
		case *metadata.Float64Statistics:
			return s.Min(), s.Max(), true
		}
	case arrow.DATE32:
		if s, ok := s.(*metadata.Int32Statistics); ok {
			return s.Min(), s.Max(), true
		}
	case arrow.BOOL:
		if s, ok := s.(*metadata.BooleanStatistics); ok {
			return s.Min(), s.Max(), true
		}
	case arrow.STRING:
		if s, ok := s.(*metadata.ByteArrayStatistics); ok {
			return string(s.Min()), string(s.Max()), true
		}
	}
	return nil, nil, false
}

// bigEndianInt decodes a big-endian two's complement integer (a Parquet
// decimal); values of precision <= 18 fit, so wrapping above 8 bytes is exact.
func bigEndianInt(b []byte) int64 {
	var v int64
	if len(b) > 0 && b[0]&0x80 != 0 {
		v = -1
	}
	for _, c := range b {
		v = v<<8 | int64(c)
	}
	return v
}

// bigEndianInt128 decodes a big-endian two's complement integer of up to
// 16 bytes (a Parquet decimal of precision <= 38); ok is false for a
// longer one whose extra bytes are not sign extension.
func bigEndianInt128(b []byte) (decimal128.Num, bool) {
	var hi, lo uint64
	if len(b) > 0 && b[0]&0x80 != 0 {
		hi, lo = math.MaxUint64, math.MaxUint64
	}
	for i, c := range b {
		if len(b)-i > 16 && c != byte(hi) {
			return decimal128.Num{}, false
		}
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	return decimal128.New(int64(hi), lo), true
}

var _ Table = (*ParquetTable)(nil)

func (t *ParquetTable) String() string {
	return fmt.Sprintf("parquet table %s (%d files, %d row groups)", t.name, len(t.files), len(t.splits))
}

func errsSplit(table string, split, n int) error {
	return errs.New(errs.Internal, "table %s: split %d out of range [0,%d)", table, split, n)
}
