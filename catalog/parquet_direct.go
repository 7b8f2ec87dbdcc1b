package catalog

import (
	"context"
	"os"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"gq/errs"
	gqmem "gq/memory"
)

// The direct reader decodes Parquet column chunks straight into gq's value
// types with the typed column readers of parquet/file, bypassing pqarrow.
// Profiles of TPC-H Q1 at SF1 showed the pqarrow path spending most of the
// scan on work gq then undoes: dictionary strings appended one by one into a
// BinaryBuilder (12% of the query), INT64 decimals widened to Decimal128
// (6%) and narrowed back to Decimal64 by normalizeArray (6%), plus zeroing
// of the intermediate buffers. Here an INT64 decimal is decoded into the
// Decimal64 value buffer itself, and a string column is gathered from the
// page's (aliased) values into one offsets and one data buffer.

// directKind is how the direct reader decodes one column.
type directKind uint8

const (
	directNone   directKind = iota // not supported: use pqarrow
	directInt64                    // INT64 → Int64 or Decimal64 as is
	directInt32                    // INT32 (signed) → Int64 or Decimal64
	directUint32                   // INT32 holding uint8/16/32 → Int64
	directDate32                   // INT32 date → Date32
	directDouble                   // DOUBLE → Float64
	directFloat                    // FLOAT → Float64
	directBytes                    // BYTE_ARRAY → String
	directBool                     // BOOLEAN → Boolean
	directInt96                    // INT96 (Impala/Spark) timestamp → Timestamp µs
)

// directKindOf chooses the direct decoding of column c of a file with
// physical type phys, Arrow type fileType and gq type gqType.
func directKindOf(phys parquet.Type, fileType, gqType arrow.DataType) directKind {
	switch phys {
	case parquet.Types.Int64:
		switch gqType.ID() {
		case arrow.INT64:
			if fileType.ID() == arrow.INT64 {
				return directInt64
			}
		case arrow.DECIMAL64:
			return directInt64
		}
	case parquet.Types.Int32:
		switch gqType.ID() {
		case arrow.INT64:
			switch fileType.ID() {
			case arrow.INT8, arrow.INT16, arrow.INT32:
				return directInt32
			case arrow.UINT8, arrow.UINT16, arrow.UINT32:
				return directUint32
			}
		case arrow.DECIMAL64:
			return directInt32
		case arrow.DATE32:
			if fileType.ID() == arrow.DATE32 {
				return directDate32
			}
		}
	case parquet.Types.Double:
		if gqType.ID() == arrow.FLOAT64 {
			return directDouble
		}
	case parquet.Types.Float:
		if gqType.ID() == arrow.FLOAT64 && fileType.ID() == arrow.FLOAT32 {
			return directFloat
		}
	case parquet.Types.ByteArray:
		if gqType.ID() == arrow.STRING {
			return directBytes
		}
	case parquet.Types.Boolean:
		if gqType.ID() == arrow.BOOL {
			return directBool
		}
	case parquet.Types.Int96:
		// pqarrow converts INT96 to nanoseconds and refuses a value
		// outside 1677-2262; gq's µs hold what Spark and DuckDB read.
		if gqType.ID() == arrow.TIMESTAMP {
			return directInt96
		}
	}
	return directNone
}

// directKinds fills t.direct from the first file's schema (every file has
// the same gq schema; a later file whose physical layout differs is read
// through pqarrow, see canReadDirect).
func (t *ParquetTable) directKinds() {
	md := t.files[0].md
	t.direct = make([]directKind, t.schema.NumFields())
	for c := range t.direct {
		col := md.Schema.Column(t.files[0].leaf(c))
		if col.MaxRepetitionLevel() > 0 || t.files[0].nested[c] != nil {
			continue
		}
		t.direct[c] = directKindOf(col.PhysicalType(), t.fileSchema.Field(c).Type, t.schema.Field(c).Type)
	}
}

// canReadDirect reports whether every wanted column of file fi can be
// decoded directly.
func (t *ParquetTable) canReadDirect(fi int, columns []int) bool {
	if t.direct == nil {
		return false
	}
	md := t.files[fi].md
	first := t.files[0].md
	for _, c := range columns {
		if t.direct[c] == directNone {
			return false
		}
		if fi > 0 && md.Schema.Column(t.files[fi].leaf(c)).PhysicalType() != first.Schema.Column(t.files[0].leaf(c)).PhysicalType() {
			return false
		}
	}
	return true
}

// directColumn decodes one column chunk batch by batch into scratch
// buffers reused across batches; take copies the wanted rows out (or hands
// the scratch buffers over when every row is wanted).
type directColumn struct {
	kind  directKind
	typ   arrow.DataType
	rd    file.ColumnChunkReader // nil when pc decodes the pages
	pc    *pageColumn
	maxDL int16
	defs  []int16
	i32   []int32
	f32   []float32
	bools []bool
	bas   []parquet.ByteArray
	i96   []parquet.Int96

	// The decoded batch: n rows; fixed-width values (width bytes each, or
	// a bitmap for Boolean) or string offsets and data; validity from defs.
	n     int
	width int
	fixed []byte
	offs  []int32
	data  []byte
	valid []byte // nil: no NULLs in the batch
	nulls int
	// dataHint sizes a new string data buffer from the previous batch.
	dataHint int
	// mem is the query's allocator: the arrays take hands out are counted
	// on it (see buffer). The scratch buffers that stay with the column
	// are not: they are a fixed overhead per scanning worker.
	mem memory.Allocator
	// lazy: a string column that Select does not read, decoded as
	// dictionary indices where it can be (decodeIndexed); indexed: the
	// batch is held so, as tidx (parquet_columntest.go).
	lazy    bool
	indexed bool
	// picked: the batch holds only the filter's rows (decodeSome), n of
	// them; take hands them over or copies them all.
	picked bool
	tidx   []int32
	// keepDict: take hands an indexed batch over as a Dictionary array
	// (ReadDictionaries); dict is the current dictionary as an array,
	// shared by the batches of its dictGen.
	keepDict bool
	dict     arrow.Array
	dictGen  int
}

// recycle gives the column's scratch buffers back (gqmem.Recycle) at the
// end of its chunk. Those take handed over belong to arrays and are not
// here (handOver clears them); views of the rest (view) live only while
// a batch is filtered.
func (dc *directColumn) recycle() {
	gqmem.Recycle(dc.fixed)
	gqmem.Recycle(dc.offs)
	gqmem.Recycle(dc.data)
	gqmem.Recycle(dc.defs)
	gqmem.Recycle(dc.i32)
	gqmem.Recycle(dc.f32)
	gqmem.Recycle(dc.tidx)
	if dc.pc != nil {
		gqmem.Recycle(dc.pc.ibuf)
	}
	dc.fixed, dc.offs, dc.data, dc.defs, dc.i32, dc.f32, dc.tidx = nil, nil, nil, nil, nil, nil, nil
	if dc.dict != nil {
		dc.dict.Release()
		dc.dict = nil
	}
}

// readDirect is Read's fast path: the row group of sp decoded column by
// column with directColumn. With a filter, the filter's columns are decoded
// first and only the rows it selects are copied into the output arrays.
//
// With keepDicts (ReadDictionaries, no filter) a string column's batch
// that is dictionary-encoded throughout comes out as a Dictionary array:
// its indices against the row group's dictionary.
func (t *ParquetTable) readDirect(ctx context.Context, sp parquetSplit, columns []int, outSchema *arrow.Schema, batchSize int, mem memory.Allocator, filter *RowFilter, keepDicts bool, emit func(arrow.RecordBatch) error) error {
	pf := t.files[sp.file]
	f, err := os.Open(pf.path)
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", pf.path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", pf.path)
	}
	src := &chunkSource{r: f, size: st.Size(), md: pf.md}
	var rg *file.RowGroupReader
	err = guard(pf.path, func() error {
		rdr, err := file.NewParquetReader(f, file.WithMetadata(pf.md), file.WithReadProps(readerProps()))
		if err != nil {
			return err
		}
		rg = rdr.RowGroup(sp.rowGroup)
		return nil
	})
	if err != nil {
		return err
	}
	// One reader per distinct column; a column asked for twice is decoded
	// once.
	readers := map[int]*directColumn{}
	defer func() {
		for _, dc := range readers {
			if dc.rd != nil {
				dc.rd.Close()
			}
			if dc.pc != nil {
				dc.pc.pr.Close()
			}
			dc.recycle()
		}
	}()
	order := make([]*directColumn, len(columns))
	for i, c := range columns {
		dc := readers[c]
		if dc == nil {
			dc = &directColumn{kind: t.direct[c], typ: t.schema.Field(c).Type, mem: mem}
			readers[c] = dc
			err := guard(pf.path, func() error {
				leaf := pf.leaf(c)
				descr := pf.md.Schema.Column(leaf)
				if pc, err := t.pageColumn(rg, src, c, leaf, descr.MaxDefinitionLevel()); err != nil || pc != nil {
					dc.pc = pc
					return err
				}
				rd, err := rg.Column(leaf)
				if err != nil {
					return err
				}
				dc.rd = rd
				dc.maxDL = rd.Descriptor().MaxDefinitionLevel()
				return nil
			})
			if err != nil {
				return err
			}
		}
		order[i] = dc
	}
	// The filter's columns are decoded first; the others only when some
	// row of the batch survives.
	var first, rest []*directColumn
	var tests []*columnTest // parquet_columntest.go
	var predSchema *arrow.Schema
	if filter != nil {
		inPred := map[*directColumn]bool{}
		fields := make([]arrow.Field, len(columns))
		for i := range fields {
			fields[i] = arrow.Field{Name: outSchema.Field(i).Name, Type: arrow.Null, Nullable: true}
		}
		for _, pos := range filter.Columns {
			if pos < 0 || pos >= len(columns) {
				return errs.New(errs.Internal, "table %s: filter column %d out of range", t.name, pos)
			}
			fields[pos] = outSchema.Field(pos)
			if !inPred[order[pos]] {
				inPred[order[pos]] = true
				first = append(first, order[pos])
			}
		}
		var err error
		if tests, err = columnTests(t.name, filter, order, columns, inPred); err != nil {
			return err
		}
		for _, ct := range tests {
			if !ct.only && !inPred[ct.dc] { // decoded before the tests run
				inPred[ct.dc] = true
				first = append(first, ct.dc)
			}
		}
		for _, dc := range readers {
			if !inPred[dc] && !testOnly(tests, dc) {
				rest = append(rest, dc)
			}
		}
		predSchema = arrow.NewSchema(fields, nil)
	} else {
		for _, dc := range readers {
			first = append(first, dc)
		}
	}
	decode := func(dcs []*directColumn, n int) error {
		for _, dc := range dcs {
			if err := guard(pf.path, func() error { return dc.decode(n) }); err != nil {
				return err
			}
		}
		return nil
	}
	// The positions emitted (filter.Emit) and their schema.
	emitPos := make([]int, len(columns))
	for i := range emitPos {
		emitPos[i] = i
	}
	if filter != nil && filter.Emit != nil {
		emitPos = filter.Emit
		fields := make([]arrow.Field, len(emitPos))
		for i, p := range emitPos {
			if p < 0 || p >= len(columns) {
				return errs.New(errs.Internal, "table %s: emitted column %d out of range", t.name, p)
			}
			fields[i] = outSchema.Field(p)
		}
		outSchema = arrow.NewSchema(fields, nil)
	}
	emitted := make([]*directColumn, len(emitPos))
	for i, p := range emitPos {
		emitted[i] = order[p]
	}
	// String columns that no Select reads are gathered from dictionary
	// indices for the surviving rows only (parquet_columntest.go).
	for _, dc := range rest {
		dc.lazy = dc.pc != nil && dc.kind == directBytes
	}
	if filter == nil {
		for _, dc := range first {
			dc.lazy = dc.pc != nil && dc.kind == directBytes
			dc.keepDict = dc.lazy && keepDicts
		}
	}
	// The filter's selection: one buffer for every batch of the chunk,
	// given back at its end (a nil one grew by appending in every chunk).
	var sel []int32
	if filter != nil {
		sel = gqmem.Scratch[int32](int(min(sp.rows, int64(batchSize))))[:0]
		defer func() { gqmem.Recycle(sel) }()
	}
	cols := make([]arrow.Array, len(emitPos))
	for left := sp.rows; left > 0; left -= int64(min(left, int64(batchSize))) {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int(min(left, int64(batchSize)))
		if err := decode(first, n); err != nil {
			return err
		}
		all := true
		if filter != nil {
			var cand []int32    // nil: all rows
			if len(tests) > 0 { // column tests first: parquet_columntest.go
				if cand, err = runColumnTests(pf.path, tests, n, identityInto(sel, n)); err != nil {
					return err
				}
				sel = cand
			}
			if cand == nil || len(cand) > 0 {
				if sel, err = applyRowFilter(filter, predSchema, order, n, cand, sel); err != nil {
					return err
				}
			}
			if len(sel) == 0 {
				// Nothing survives: step the other readers over the batch.
				for _, dc := range rest {
					if err := guard(pf.path, func() error { return dc.skip(n) }); err != nil {
						return err
					}
				}
				continue
			}
			all = len(sel) == n
		}
		sparse := !all && len(sel)*sparseSel < n
		for _, dc := range rest {
			if err := guard(pf.path, func() error {
				if sparse || !all && dc.lazy {
					return dc.decodeSome(n, sel)
				}
				return dc.decode(n)
			}); err != nil {
				return err
			}
		}
		rows, pick := n, []int32(nil)
		if !all {
			rows, pick = len(sel), sel
		}
		// The scratch buffers may be handed over (take), by the last
		// position of a column asked for twice (the earlier ones copy).
		batchSchema := outSchema
		for i, dc := range emitted {
			if dc.keepDict && dc.indexed {
				cols[i] = dc.takeDict()
				batchSchema = withType(batchSchema, i, cols[i].DataType())
				continue
			}
			cols[i] = dc.take(pick, !slices.Contains(emitted[i+1:], dc))
		}
		out := array.NewRecordBatch(batchSchema, cols, int64(rows))
		releaseAll(cols)
		if err := emit(out); err != nil {
			return err
		}
	}
	return nil
}

// pageColumn returns a pageColumn for column c (the file's leaf) of rg
// when it can decode it (flat, without NULLs, a supported physical type
// and encodings), else nil. Its chunk is read whole from src
// (parquet_chunk.go), or streamed by arrow-go where src is nil.
func (t *ParquetTable) pageColumn(rg *file.RowGroupReader, src *chunkSource, c, leaf int, maxDL int16) (*pageColumn, error) {
	descr := rg.MetaData().Schema.Column(leaf)
	switch t.direct[c] {
	case directInt64, directInt32, directUint32, directDate32, directDouble, directBytes:
	default:
		return nil, nil
	}
	if maxDL > 1 || descr.MaxRepetitionLevel() != 0 {
		return nil, nil
	}
	cc, err := rg.MetaData().ColumnChunk(leaf)
	if err != nil {
		return nil, err
	}
	if !pageEncodingsOK(cc) {
		return nil, nil
	}
	// An optional column is decoded here when its chunk's statistics say
	// it holds no NULLs: DuckDB, Spark and pyarrow write every column
	// optional (with a null count), and their TPC-H files were otherwise
	// read through the typed column readers at up to twice the cost. The
	// pages' definition levels are checked (page).
	if maxDL == 1 && !noNulls(cc) {
		return nil, nil
	}
	var pr file.PageReader
	if src != nil {
		if pr, err = chunkPageReader(src, cc); err != nil {
			return nil, err
		}
	}
	if pr == nil {
		if pr, err = rg.GetColumnPageReader(leaf); err != nil {
			return nil, err
		}
	}
	return &pageColumn{pr: pr, phys: descr.PhysicalType(), name: descr.Name(), maxDL: maxDL}, nil
}

// applyRowFilter runs filter over a batch holding views of the filter's
// columns (the other columns are NULL placeholders, never read).
func applyRowFilter(filter *RowFilter, predSchema *arrow.Schema, order []*directColumn, n int, cand, sel []int32) ([]int32, error) {
	cols := make([]arrow.Array, len(order))
	for i := range cols {
		if predSchema.Field(i).Type.ID() == arrow.NULL {
			cols[i] = array.NewNull(n)
		} else {
			cols[i] = order[i].view()
		}
	}
	b := array.NewRecordBatch(predSchema, cols, int64(n))
	releaseAll(cols)
	defer b.Release()
	return filter.Select(b, cand, sel[:0])
}

// decode reads the column's next n rows into the scratch buffers (or, for
// a lazy column, their dictionary indices).
func (dc *directColumn) decode(n int) error {
	dc.picked = false
	if dc.lazy {
		return dc.decodeIndexed(n)
	}
	return dc.decodeValues(n)
}

// decodeValues reads the column's next n values into the scratch buffers.
func (dc *directColumn) decodeValues(n int) error {
	if dc.pc != nil {
		return dc.decodePages(n)
	}
	dc.n = n
	var defs []int16
	if dc.maxDL > 0 {
		dc.defs = gqmem.GrowScratch(dc.defs, n)
		defs = dc.defs[:n]
	}
	var (
		nread  int // non-null values decoded
		levels int64
		err    error
	)
	switch dc.kind {
	case directInt64:
		out := dc.fixedOf(n, 8)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Int64ColumnChunkReader).ReadBatch(int64(k), out[at:], defsFrom(defs, lvl), nil)
		})
		spread(out, nread, defs, dc.maxDL)
	case directInt32, directUint32:
		dc.i32 = gqmem.GrowScratch(dc.i32, n)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Int32ColumnChunkReader).ReadBatch(int64(k), dc.i32[at:], defsFrom(defs, lvl), nil)
		})
		out := dc.fixedOf(n, 8)
		widen32(out, dc.i32[:nread], dc.kind == directUint32)
		spread(out, nread, defs, dc.maxDL)
	case directDate32:
		dc.fixedOf(n, 4)
		out := arrow.Int32Traits.CastFromBytes(dc.fixed)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Int32ColumnChunkReader).ReadBatch(int64(k), out[at:], defsFrom(defs, lvl), nil)
		})
		spread(out, nread, defs, dc.maxDL)
	case directDouble:
		dc.fixedOf(n, 8)
		out := arrow.Float64Traits.CastFromBytes(dc.fixed)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Float64ColumnChunkReader).ReadBatch(int64(k), out[at:], defsFrom(defs, lvl), nil)
		})
		spread(out, nread, defs, dc.maxDL)
	case directFloat:
		dc.f32 = gqmem.GrowScratch(dc.f32, n)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Float32ColumnChunkReader).ReadBatch(int64(k), dc.f32[at:], defsFrom(defs, lvl), nil)
		})
		dc.fixedOf(n, 8)
		out := arrow.Float64Traits.CastFromBytes(dc.fixed)
		for i, v := range dc.f32[:nread] {
			out[i] = float64(v)
		}
		spread(out, nread, defs, dc.maxDL)
	case directInt96:
		dc.i96 = grow(dc.i96, n)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.Int96ColumnChunkReader).ReadBatch(int64(k), dc.i96[at:], defsFrom(defs, lvl), nil)
		})
		if err == nil {
			out := dc.fixedOf(n, 8)
			err = int96Micros(out, dc.i96[:nread], dc.rd.Descriptor().Name())
			spread(out, nread, defs, dc.maxDL)
		}
	case directBool:
		dc.bools = grow(dc.bools, n)
		levels, nread, err = readLevels(n, func(k, at, lvl int) (int64, int, error) {
			return dc.rd.(*file.BooleanColumnChunkReader).ReadBatch(int64(k), dc.bools[at:], defsFrom(defs, lvl), nil)
		})
		spread(dc.bools[:n], nread, defs, dc.maxDL)
		dc.width = 0
		dc.fixed = grow(dc.fixed, (n+7)/8)
		clear(dc.fixed)
		for i, v := range dc.bools[:n] {
			if v {
				dc.fixed[i>>3] |= 1 << (i & 7)
			}
		}
	case directBytes:
		levels, err = dc.decodeStrings(n, defs)
	default:
		return errs.New(errs.Internal, "direct Parquet reader: unexpected column kind %d", dc.kind)
	}
	if err != nil {
		return err
	}
	if int(levels) != n {
		// arrow-go's reader stops at a page it cannot decode and keeps
		// the cause apart; the cause is what the user needs.
		if cause := dc.rd.Err(); cause != nil {
			return errs.Wrap(errs.IO, cause, "column %s", dc.rd.Descriptor().Name())
		}
		return errs.New(errs.IO, "column %s: %d rows decoded, want %d", dc.rd.Descriptor().Name(), levels, n)
	}
	dc.validity(defs, n)
	return nil
}

// decodePages is decode through dc.pc (a column without NULLs).
func (dc *directColumn) decodePages(n int) error {
	dc.n, dc.valid, dc.nulls = n, nil, 0
	pc := dc.pc
	var got int
	var err error
	switch dc.kind {
	case directInt64, directDouble:
		got, err = pc.read64(dc.fixedOf(n, 8))
	case directInt32, directUint32:
		dc.i32 = gqmem.GrowScratch(dc.i32, n)
		got, err = pc.read32(dc.i32)
		out := dc.fixedOf(n, 8)
		widen32(out, dc.i32[:got], dc.kind == directUint32)
	case directDate32:
		dc.fixedOf(n, 4)
		got, err = pc.read32(arrow.Int32Traits.CastFromBytes(dc.fixed))
	case directBytes:
		dc.offs = gqmem.GrowScratch(dc.offs, n+1)
		dc.offs[0] = 0
		data := dc.data[:0]
		if cap(data) == 0 {
			data = gqmem.Scratch[byte](dc.dataHint)[:0]
		}
		data, got, err = pc.readStrings(n, dc.offs, data)
		dc.data = data
		dc.dataHint = len(data) + len(data)/8
	default:
		return errs.New(errs.Internal, "direct Parquet reader: unexpected page column kind %d", dc.kind)
	}
	if err != nil {
		return err
	}
	if got != n {
		return errs.New(errs.IO, "column %s: %d rows decoded, want %d", pc.name, got, n)
	}
	return nil
}

// sparseSel: a filter keeping fewer than one row in sparseSel has the
// columns it does not read decoded for its rows alone where they can be
// (decodeSome). TPC-H q05's join filters keep 3% of lineitem, whose
// l_extendedprice and l_discount were otherwise expanded from their
// dictionaries for every row. A lazy string column takes the filter's
// rows alone whatever their share: copying every row's string to copy
// the survivors' again costs more than stepping over the others.
const sparseSel = 4

// decodeSome reads the column's next n rows and, for a page-decoded
// fixed-width column, keeps the rows sel (ascending) alone (dc.picked):
// dictionary indices are still unpacked for every row, but values are
// looked up for the kept rows only. Other columns keep every row
// (decode).
func (dc *directColumn) decodeSome(n int, sel []int32) error {
	pc := dc.pc
	if dc.lazy {
		return dc.decodeIndexedSome(n, sel)
	}
	if pc == nil {
		return dc.decode(n)
	}
	k := len(sel)
	var got int
	var err error
	switch dc.kind {
	case directInt64, directDouble:
		got, err = pc.pick64(n, sel, dc.fixedOf(k, 8))
	case directDate32:
		dc.fixedOf(k, 4)
		got, err = pc.pick32(n, sel, arrow.Int32Traits.CastFromBytes(dc.fixed))
	case directInt32, directUint32: // widened to int64 as in decodePages
		dc.i32 = gqmem.GrowScratch(dc.i32, k)
		got, err = pc.pick32(n, sel, dc.i32)
		widen32(dc.fixedOf(k, 8), dc.i32[:k], dc.kind == directUint32)
	default:
		return dc.decode(n)
	}
	if err != nil {
		return err
	}
	if got != n {
		return errs.New(errs.IO, "column %s: %d rows decoded, want %d", pc.name, got, n)
	}
	dc.n, dc.valid, dc.nulls, dc.picked = k, nil, 0, true
	return nil
}

// skip steps over n rows without keeping them.
func (dc *directColumn) skip(n int) error {
	dc.picked = false
	if dc.lazy {
		return dc.decodeIndexedSome(n, nil)
	}
	if dc.pc != nil {
		return dc.decodePages(n)
	}
	type skipper interface{ Skip(int64) (int64, error) }
	if s, ok := dc.rd.(skipper); ok {
		_, err := s.Skip(int64(n))
		return err
	}
	return dc.decode(n)
}

// widen32 writes the INT32 values in to out as int64s, as unsigned 32-bit
// values when unsigned (UINT_32 columns).
func widen32(out []int64, in []int32, unsigned bool) {
	if unsigned {
		for i, v := range in {
			out[i] = int64(uint32(v))
		}
		return
	}
	for i, v := range in {
		out[i] = int64(v)
	}
}

// fixedOf sizes the scratch value buffer for n values of width bytes and
// returns it as int64s (callers of other widths recast dc.fixed).
func (dc *directColumn) fixedOf(n, width int) []int64 {
	dc.width = width
	if cap(dc.fixed) < n*width {
		dc.fixed = gqmem.Scratch[byte](max(n, 1024) * width)[:n*width]
	}
	dc.fixed = dc.fixed[:n*width]
	if width == 8 {
		return arrow.Int64Traits.CastFromBytes(dc.fixed)
	}
	return nil
}

// validity sets dc.valid and dc.nulls from the definition levels.
func (dc *directColumn) validity(defs []int16, n int) {
	dc.valid, dc.nulls = dc.valid[:0], 0
	if dc.maxDL == 0 {
		dc.valid = nil
		return
	}
	bits := grow(dc.valid[:0:cap(dc.valid)], (n+7)/8)
	clear(bits)
	for i, d := range defs[:n] {
		if d == dc.maxDL {
			bits[i>>3] |= 1 << (i & 7)
		} else {
			dc.nulls++
		}
	}
	dc.valid = bits
	if dc.nulls == 0 {
		dc.valid = nil
	}
}

// decodeStrings decodes n rows of a BYTE_ARRAY column into the scratch
// offsets and data. ReadBatchInPage returns values aliased to the page (for
// dictionary pages, to the dictionary), valid until the next read, so each
// page's share is copied at once.
func (dc *directColumn) decodeStrings(n int, defs []int16) (int64, error) {
	rd := dc.rd.(*file.ByteArrayColumnChunkReader)
	dc.bas = grow(dc.bas, n)
	dc.offs = gqmem.GrowScratch(dc.offs, n+1)
	offsets := dc.offs
	offsets[0] = 0
	data := dc.data[:0]
	if cap(data) == 0 {
		data = gqmem.Scratch[byte](dc.dataHint)[:0]
	}
	row := 0 // rows (levels) done
	for row < n {
		levels, nread, err := rd.ReadBatchInPage(int64(n-row), dc.bas, defsFrom(defs, row), nil)
		if err != nil {
			return int64(row), err
		}
		if levels == 0 {
			break
		}
		vals := dc.bas[:nread]
		total := 0
		for _, v := range vals {
			total += len(v)
		}
		if len(data)+total > cap(data) {
			grown := gqmem.Scratch[byte](max(2*cap(data), len(data)+total))[:len(data)]
			copy(grown, data)
			data = grown
		}
		if dc.maxDL == 0 || nread == int(levels) {
			for i, v := range vals {
				data = append(data, v...)
				offsets[row+i+1] = int32(len(data))
			}
		} else {
			k := 0
			for i := 0; i < int(levels); i++ {
				if defs[row+i] == dc.maxDL {
					data = append(data, vals[k]...)
					k++
				}
				offsets[row+i+1] = int32(len(data))
			}
		}
		row += int(levels)
	}
	if len(data) > 1<<31-1 {
		return int64(row), errs.New(errs.IO, "column %s: string batch over 2 GiB", dc.rd.Descriptor().Name())
	}
	dc.data = data
	dc.dataHint = len(data) + len(data)/8
	return int64(row), nil
}

// view is an array over the scratch buffers, valid until the next decode.
func (dc *directColumn) view() arrow.Array {
	return dc.array(nil, dc.valid, dc.fixed, dc.offs, dc.data, dc.n, dc.nulls)
}

// array is an array of n rows over the given buffers. With mem nil it is a
// view: the buffers stay the caller's. Otherwise the array owns them and
// they are counted on mem, the query's allocator (see buffer), until the
// array is released.
func (dc *directColumn) array(mem memory.Allocator, valid, fixed []byte, offs []int32, data []byte, n, nulls int) arrow.Array {
	var vb *memory.Buffer
	if valid != nil {
		vb = buffer(mem, valid)
	}
	var bufs []*memory.Buffer
	if dc.kind == directBytes {
		// The offsets' whole capacity, as bytes, is what the buffer holds.
		ob := capBytes(offs[:n+1])
		bufs = []*memory.Buffer{vb, buffer(mem, ob), buffer(mem, data)}
	} else {
		bufs = []*memory.Buffer{vb, buffer(mem, fixed)}
	}
	d := array.NewData(dc.typ, n, bufs, nil, nulls, 0)
	defer d.Release()
	for _, b := range bufs {
		if b != nil {
			b.Release() // d holds them
		}
	}
	return array.MakeFromData(d)
}

// capBytes is s as bytes with s's whole capacity as the capacity (buffer
// counts the capacity).
func capBytes[T int32 | int64 | float64 | decimal128.Num](s []T) []byte {
	var zero T
	return arrow.GetBytes(s[:cap(s)])[:len(s)*int(unsafe.Sizeof(zero))]
}

// adopter is gq's accounting allocator (gq/memory.Allocator.Adopt).
type adopter interface{ Adopt([]byte) bool }

// buffer wraps b, a slice the scan decoded into on the Go heap, for an
// array. The scan's batches are most of a query's memory, so where mem
// can adopt Go memory the buffer is counted on it — b's whole capacity,
// what the array keeps from being collected — and uncounted when the
// array is released (mem's Free). Otherwise (mem nil: a view; or an
// allocator that cannot adopt) b is wrapped as plain Go memory.
func buffer(mem memory.Allocator, b []byte) *memory.Buffer {
	if a, ok := mem.(adopter); ok && mem != nil {
		full := b[:cap(b)]
		if a.Adopt(full) {
			buf := memory.NewBufferWithAllocator(full, mem)
			buf.ResizeNoShrink(len(b))
			return buf
		}
	}
	return memory.NewBufferBytes(b)
}

// readLevels calls read until n levels are read (a typed ReadBatch may stop
// early); read gets the number of levels still wanted, the index where its
// non-null values go (values are packed at the front, see spread) and the
// index where its definition levels go.
func readLevels(n int, read func(k, at, lvl int) (int64, int, error)) (levels int64, values int, err error) {
	for int(levels) < n {
		l, v, err := read(n-int(levels), values, int(levels))
		if err != nil {
			return levels, values, err
		}
		if l == 0 {
			break
		}
		levels += l
		values += v
	}
	return levels, values, nil
}

// defsFrom is the definition level buffer from row at, or nil for a
// required column.
func defsFrom(defs []int16, at int) []int16 {
	if defs == nil {
		return nil
	}
	return defs[at:]
}

// spread moves the nread packed non-null values of out to their rows (the
// rows whose definition level is maxDL), back to front, so that nulls get
// zero values.
func spread[T any](out []T, nread int, defs []int16, maxDL int16) {
	if maxDL == 0 || nread == len(out) {
		return
	}
	var zero T
	k := nread - 1
	for i := len(out) - 1; i >= 0; i-- {
		if defs[i] == maxDL {
			out[i] = out[k]
			k--
		} else {
			out[i] = zero
		}
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// noNulls reports whether cc's statistics give a null count of zero.
func noNulls(cc *metadata.ColumnChunkMetaData) bool {
	ok, err := cc.StatsSet()
	if err != nil || !ok {
		return false
	}
	st, err := cc.Statistics()
	if err != nil || st == nil {
		return false
	}
	return st.HasNullCount() && st.NullCount() == 0
}

// dictOfStrings is the type of a string column handed over as dictionary
// indices (ReadDictionaries).
var dictOfStrings = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// takeDict is take for a batch held as dictionary indices when the reader
// keeps dictionaries: the indices, copied, against the current dictionary
// (setDict allocates every dictionary anew, so the array may outlive the
// chunk's reader). Every row is taken: ReadDictionaries has no filter.
func (dc *directColumn) takeDict() arrow.Array {
	if dc.dict == nil || dc.dictGen != dc.pc.dictGen {
		if dc.dict != nil {
			dc.dict.Release()
		}
		dc.dict, dc.dictGen = dc.pc.dictionary(dc.typ), dc.pc.dictGen
	}
	idx := gqmem.Scratch[int32](dc.n)
	copy(idx, dc.tidx[:dc.n])
	d := array.NewData(arrow.PrimitiveTypes.Int32, dc.n, []*memory.Buffer{nil, buffer(dc.mem, capBytes(idx))}, nil, 0, 0)
	d.Buffers()[1].Release() // d holds it
	indices := array.MakeFromData(d)
	d.Release()
	defer indices.Release()
	return array.NewDictionaryArray(dictOfStrings, indices, dc.dict)
}

// withType returns s with field i's type replaced by typ (s itself when
// it has that type already).
func withType(s *arrow.Schema, i int, typ arrow.DataType) *arrow.Schema {
	if arrow.TypeEqual(s.Field(i).Type, typ) {
		return s
	}
	fields := slices.Clone(s.Fields())
	fields[i].Type = typ
	return arrow.NewSchema(fields, nil)
}
