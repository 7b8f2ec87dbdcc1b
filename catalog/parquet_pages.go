package catalog

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"gq/errs"
	gqmem "gq/memory"
)

// pageColumn decodes the pages of one flat column chunk without NULLs
// (required, or optional with a null count of zero) itself: PLAIN values and RLE_DICTIONARY indices over a PLAIN
// dictionary, the encodings gq's and most writers' files use.
//
// Why not file.ColumnChunkReader: profiles of TPC-H Q6/Q12/Q14/Q19 at SF1
// showed 12% of all CPU in the typed readers' dictionary converter, which
// decodes the dictionary lazily and regrows it (make, append, copy of up to
// 1 MiB per column chunk) as higher indices appear; and for strings it
// gathers 24-byte slice headers per value before gq copies the bytes. Here
// the dictionary is decoded once per chunk into a flat slice (strings: one
// offsets and one data buffer) and indices are expanded straight into the
// output.
type pageColumn struct {
	pr   file.PageReader
	phys parquet.Type
	name string
	// maxDL is 1 for an optional column whose chunk has no NULLs (its
	// statistics say so; every page's definition levels are checked), 0
	// for a required one.
	maxDL int16

	// The dictionary, by physical type.
	dict64   []int64
	dict32   []int32
	dictOffs []int32
	dictData []byte
	dictLen1 bool // every dictionary string is one byte long (flags, codes)
	// dictPad holds each dictionary string in a slot of dictSlot bytes
	// (zero padded), when all are that short: copying a whole slot is a
	// few fixed-size moves, where appending each string is a memmove call
	// per row (TPC-H q19 spent 40% of its CPU materialising l_shipmode
	// and l_shipinstruct).
	dictPad []byte
	hasDict bool
	dictGen int // counts the dictionaries read (column tests cache per dictionary)

	// The current data page: left values to go, in values (PLAIN) or
	// through idx (dictionary indices).
	left  int
	plain bool
	vals  []byte
	idx   rleReader
	ibuf  []int32
}

// pageEncodingsOK reports whether cc uses only encodings pageColumn reads.
func pageEncodingsOK(cc *metadata.ColumnChunkMetaData) bool {
	if cc.CryptoMetadata() != nil {
		return false
	}
	for _, e := range cc.Encodings() {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict,
			parquet.Encodings.RLE, parquet.Encodings.BitPacked: // the last two: level encodings
		default:
			return false
		}
	}
	return true
}

// page moves to a data page with values left, reading a dictionary page
// on the way. It returns false at the end of the chunk.
func (pc *pageColumn) page() (bool, error) {
	for pc.left == 0 {
		if !pc.pr.Next() {
			return false, pc.pr.Err()
		}
		switch p := pc.pr.Page().(type) {
		case *file.DictionaryPage:
			if err := pc.setDict(p.Data(), int(p.NumValues())); err != nil {
				return false, err
			}
		case *file.DataPageV1:
			data := p.Data()
			if pc.maxDL > 0 {
				var err error
				if data, err = pc.skipLevels(data, int(p.NumValues()), parquet.Encoding(p.DefinitionLevelEncoding())); err != nil {
					return false, err
				}
			}
			if err := pc.setData(data, int(p.NumValues()), parquet.Encoding(p.Encoding())); err != nil {
				return false, err
			}
		case *file.DataPageV2:
			skip := int(p.RepetitionLevelByteLen()) + int(p.DefinitionLevelByteLen())
			if p.NumNulls() != 0 || skip > len(p.Data()) {
				return false, pc.corrupt("NULLs in a column without NULLs")
			}
			if err := pc.setData(p.Data()[skip:], int(p.NumValues()), parquet.Encoding(p.Encoding())); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// skipLevels checks that the n definition levels at the start of a v1
// data page (RLE, length-prefixed) are all pc.maxDL, no NULLs, and
// returns the page's values after them.
func (pc *pageColumn) skipLevels(data []byte, n int, enc parquet.Encoding) ([]byte, error) {
	if enc != parquet.Encodings.RLE {
		return nil, errs.New(errs.Unsupported, "column %s: definition level encoding %s is not supported", pc.name, enc)
	}
	if len(data) < 4 {
		return nil, pc.corrupt("short definition levels")
	}
	l := int(binary.LittleEndian.Uint32(data))
	if l > len(data)-4 {
		return nil, pc.corrupt("short definition levels")
	}
	r := rleReader{data: data[4 : 4+l], width: bits.Len16(uint16(pc.maxDL))}
	want := int32(pc.maxDL)
	var buf [256]int32
	for left := n; left > 0; {
		if r.rep == 0 && r.packed == 0 {
			if err := r.header(); err != nil {
				return nil, pc.corrupt(err.Error())
			}
		}
		if r.rep > 0 { // the usual case: one run of maxDL for the page
			if r.val != want {
				return nil, pc.corrupt("NULLs in a column whose statistics count none")
			}
			k := min(r.rep, left)
			r.rep -= k
			left -= k
			continue
		}
		k := min(left, len(buf), r.packed)
		if err := r.read(buf[:k]); err != nil {
			return nil, pc.corrupt(err.Error())
		}
		for _, v := range buf[:k] {
			if v != want {
				return nil, pc.corrupt("NULLs in a column whose statistics count none")
			}
		}
		left -= k
	}
	return data[4+l:], nil
}

func (pc *pageColumn) corrupt(what string) error {
	return errs.New(errs.IO, "column %s: corrupt Parquet page: %s", pc.name, what)
}

func (pc *pageColumn) setData(data []byte, n int, enc parquet.Encoding) error {
	switch enc {
	case parquet.Encodings.Plain:
		pc.plain, pc.vals = true, data
	case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		if !pc.hasDict {
			return pc.corrupt("dictionary indices without a dictionary")
		}
		if len(data) < 1 || data[0] > 32 {
			return pc.corrupt("bad index bit width")
		}
		pc.plain = false
		pc.idx = rleReader{data: data[1:], width: int(data[0])}
	default:
		return errs.New(errs.Unsupported, "column %s: Parquet encoding %s is not supported", pc.name, enc)
	}
	pc.left = n
	return nil
}

// setDict decodes a PLAIN dictionary page of n values.
func (pc *pageColumn) setDict(data []byte, n int) error {
	pc.hasDict = true
	pc.dictGen++
	switch pc.phys {
	case parquet.Types.Int64, parquet.Types.Double:
		if len(data) < 8*n {
			return pc.corrupt("short dictionary")
		}
		pc.dict64 = aliasOrClone[int64](data, n)
	case parquet.Types.Int32:
		if len(data) < 4*n {
			return pc.corrupt("short dictionary")
		}
		pc.dict32 = aliasOrClone[int32](data, n)
	case parquet.Types.ByteArray:
		offs := make([]int32, n+1)
		out := make([]byte, 0, len(data))
		for i := range n {
			if len(data) < 4 {
				return pc.corrupt("short dictionary")
			}
			l := int(binary.LittleEndian.Uint32(data))
			if l > len(data)-4 {
				return pc.corrupt("short dictionary")
			}
			out = append(out, data[4:4+l]...)
			offs[i+1] = int32(len(out))
			data = data[4+l:]
		}
		pc.dictOffs, pc.dictData = offs, out
		pc.dictLen1 = len(out) == n
		pc.dictPad = padDict(offs, out)
	}
	return nil
}

// dictSlot is the largest slot of a padded dictionary (pageColumn.dictPad).
const dictSlot = 32

// padDict lays the dictionary's strings out in slots of 8, 16 or 32 bytes
// (the least that fits them all), or returns nil when one is longer than
// dictSlot or the dictionary is large (a padded copy then costs more than
// it saves).
func padDict(offs []int32, data []byte) []byte {
	n := len(offs) - 1
	if n == 0 || n > 1<<12 {
		return nil
	}
	longest := 0
	for i := range n {
		longest = max(longest, int(offs[i+1]-offs[i]))
	}
	if longest > dictSlot {
		return nil
	}
	slot := 8
	for slot < longest {
		slot *= 2
	}
	pad := make([]byte, n*slot)
	for i := range n {
		copy(pad[i*slot:], data[offs[i]:offs[i+1]])
	}
	return pad
}

// copySlots appends the strings of idx (total bytes in all) to data by
// whole slots of pad (n entries, the slot size len(pad)/n), each
// overwriting the previous string's padding, and sets at[i] to the end
// of string i.
func copySlots(data []byte, total int, idx []int32, offs []int32, pad []byte, at []int32) []byte {
	base := len(data)
	data = growBytes(data, total+dictSlot)[:base+total+dictSlot]
	p := base
	// Whole words: an array assignment of these sizes compiles to a
	// memmove call, the cost this avoids.
	switch len(pad) / (len(offs) - 1) {
	case 8:
		for i, j := range idx {
			*(*uint64)(unsafe.Pointer(&data[p : p+8][0])) = *(*uint64)(unsafe.Pointer(&pad[int(j)*8]))
			p += int(offs[j+1] - offs[j])
			at[i] = int32(p)
		}
	case 16:
		for i, j := range idx {
			src := (*[2]uint64)(unsafe.Pointer(&pad[int(j)*16]))
			dst := (*[2]uint64)(unsafe.Pointer(&data[p : p+16][0]))
			dst[0], dst[1] = src[0], src[1]
			p += int(offs[j+1] - offs[j])
			at[i] = int32(p)
		}
	default:
		for i, j := range idx {
			src := (*[4]uint64)(unsafe.Pointer(&pad[int(j)*32]))
			dst := (*[4]uint64)(unsafe.Pointer(&data[p : p+32][0]))
			dst[0], dst[1], dst[2], dst[3] = src[0], src[1], src[2], src[3]
			p += int(offs[j+1] - offs[j])
			at[i] = int32(p)
		}
	}
	return data[:p]
}

// aliasOrClone views the first n values of a PLAIN dictionary page as a
// []T. The page's buffer is the page reader's dictionary buffer, which only
// a second dictionary page (never, in one column chunk) or Close replaces,
// so the view lives as long as the chunk is decoded; an unaligned buffer is
// copied instead.
func aliasOrClone[T int32 | int64](data []byte, n int) []T {
	var zero T
	p := unsafe.Pointer(unsafe.SliceData(data))
	v := unsafe.Slice((*T)(p), n)
	if uintptr(p)%unsafe.Alignof(zero) != 0 {
		return slices.Clone(v)
	}
	return v
}

// indices decodes the next k dictionary indices into pc.ibuf, checking
// them against the dictionary size.
func (pc *pageColumn) indices(k, dictLen int) ([]int32, error) {
	pc.ibuf = gqmem.GrowScratch(pc.ibuf, k)
	if err := pc.idx.read(pc.ibuf); err != nil {
		return nil, pc.corrupt(err.Error())
	}
	for _, v := range pc.ibuf {
		if uint32(v) >= uint32(dictLen) {
			return nil, pc.corrupt("dictionary index out of range")
		}
	}
	return pc.ibuf, nil
}

// read64 fills out with the next len(out) 8-byte values (INT64, DOUBLE).
func (pc *pageColumn) read64(out []int64) (int, error) {
	done := 0
	for done < len(out) {
		ok, err := pc.page()
		if err != nil || !ok {
			return done, err
		}
		k := min(pc.left, len(out)-done)
		if pc.plain {
			if len(pc.vals) < 8*k {
				return done, pc.corrupt("short page")
			}
			copy(out[done:done+k], unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(pc.vals))), k))
			pc.vals = pc.vals[8*k:]
		} else {
			if err := rleGather(&pc.idx, out[done:done+k], pc.dict64); err != nil {
				return done, pc.corrupt(err.Error())
			}
		}
		pc.left -= k
		done += k
	}
	return done, nil
}

// pick64 reads the next n 8-byte values and writes those of the rows sel
// (ascending, in [0, n)) to out; it returns the rows read.
func (pc *pageColumn) pick64(n int, sel []int32, out []int64) (int, error) {
	return pickValues(pc, n, sel, out, 8, &pc.dict64)
}

// pick32 is pick64 for INT32 values.
func (pc *pageColumn) pick32(n int, sel []int32, out []int32) (int, error) {
	return pickValues(pc, n, sel, out, 4, &pc.dict32)
}

// pickValues is pick64 and pick32: page by page, the kept rows' values
// from a PLAIN page, or their dictionary entries through indices unpacked
// for every row of a dictionary page (*dict is read per page: a chunk may
// hold a new dictionary).
func pickValues[T int32 | int64](pc *pageColumn, n int, sel []int32, out []T, width int, dict *[]T) (int, error) {
	done, j := 0, 0
	for done < n {
		ok, err := pc.page()
		if err != nil || !ok {
			return done, err
		}
		k := min(pc.left, n-done)
		end := j
		for end < len(sel) && int(sel[end]) < done+k {
			end++
		}
		if pc.plain {
			if len(pc.vals) < width*k {
				return done, pc.corrupt("short page")
			}
			vals := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(pc.vals))), k)
			for i, r := range sel[j:end] {
				out[j+i] = vals[int(r)-done]
			}
			pc.vals = pc.vals[width*k:]
		} else {
			d := *dict
			idx, err := pc.indices(k, len(d))
			if err != nil {
				return done, err
			}
			for i, r := range sel[j:end] {
				out[j+i] = d[idx[int(r)-done]]
			}
		}
		j = end
		pc.left -= k
		done += k
	}
	return done, nil
}

// read32 fills out with the next len(out) INT32 values.
func (pc *pageColumn) read32(out []int32) (int, error) {
	done := 0
	for done < len(out) {
		ok, err := pc.page()
		if err != nil || !ok {
			return done, err
		}
		k := min(pc.left, len(out)-done)
		if pc.plain {
			if len(pc.vals) < 4*k {
				return done, pc.corrupt("short page")
			}
			copy(out[done:done+k], unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(pc.vals))), k))
			pc.vals = pc.vals[4*k:]
		} else {
			if err := rleGather(&pc.idx, out[done:done+k], pc.dict32); err != nil {
				return done, pc.corrupt(err.Error())
			}
		}
		pc.left -= k
		done += k
	}
	return done, nil
}

// pickStrings reads the next n BYTE_ARRAY values, rows base to base+n-1
// of the batch, and appends those of the rows sel (ascending, in that
// range) to data, setting at[i] to the end of the i-th; it returns the
// rows read. Strings of other rows are stepped over, not copied: a
// filter's survivors alone are materialised (readStrings would copy
// every row's string, then take would copy the survivors' again).
func (pc *pageColumn) pickStrings(n int, sel []int32, base int, at []int32, data []byte) ([]byte, int, error) {
	if sel == nil {
		sel = []int32{} // no rows: plainStrings reads nil as every row
	}
	done, j := 0, 0
	for done < n {
		ok, err := pc.page()
		if err != nil || !ok {
			return data, done, err
		}
		k := min(pc.left, n-done)
		end := j
		for end < len(sel) && int(sel[end]) < base+done+k {
			end++
		}
		if pc.plain {
			if data, err = pc.plainStrings(k, sel[j:end], base+done, at[j:end], data); err != nil {
				return data, done, err
			}
		} else {
			idx, err := pc.indices(k, len(pc.dictOffs)-1)
			if err != nil {
				return data, done, err
			}
			data = appendDictStrings(data, pc.dictOffs, pc.dictData, idx, sel[j:end], base+done, at[j:end])
		}
		if len(data) > math.MaxInt32 {
			return data, done, errs.New(errs.IO, "column %s: string batch over 2 GiB", pc.name)
		}
		j = end
		pc.left -= k
		done += k
	}
	return data, done, nil
}

// appendDictStrings appends to data the dictionary strings (offs, dd) of
// the rows sel (rows from base, by their indices idx) and sets at[i] to
// the end of the i-th.
func appendDictStrings(data []byte, offs []int32, dd []byte, idx, sel []int32, base int, at []int32) []byte {
	total := 0
	for _, r := range sel {
		t := idx[int(r)-base]
		total += int(offs[t+1] - offs[t])
	}
	data = growBytes(data, total)
	for i, r := range sel {
		t := idx[int(r)-base]
		data = append(data, dd[offs[t]:offs[t+1]]...)
		at[i] = int32(len(data))
	}
	return data
}

// growBytes returns data with room for extra more bytes: data itself
// where it has the room, else a Scratch buffer of at least twice its
// capacity holding its bytes, data going back to the pools (Recycle).
// data must be the caller's own scratch, which nothing else reads: a
// column's string buffer. Growing through the pools, not append, keeps
// the buffer a size class's that the column's recycle gives back at the
// end of its chunk; appended growth made every row group of a long
// string column (TPC-H's comments, names, addresses) allocate its
// buffers afresh, and zeroed them, each of them fresh memory that a
// one-query process pays a page fault for.
func growBytes(data []byte, extra int) []byte {
	if extra <= cap(data)-len(data) {
		return data
	}
	grown := gqmem.Scratch[byte](max(2*cap(data), len(data)+extra))[:len(data)]
	copy(grown, data)
	gqmem.Recycle(data)
	return grown
}

// readStrings appends the next n BYTE_ARRAY values to data, writing the
// end offset of value i to offs[i+1]. data is the caller's own scratch
// (growBytes).
func (pc *pageColumn) readStrings(n int, offs []int32, data []byte) ([]byte, int, error) {
	done := 0
	for done < n {
		ok, err := pc.page()
		if err != nil || !ok {
			return data, done, err
		}
		k := min(pc.left, n-done)
		if pc.plain {
			var err error
			if data, err = pc.plainStrings(k, nil, 0, offs[done+1:done+1+k], data); err != nil {
				return data, done, err
			}
		} else {
			idx, err := pc.indices(k, len(pc.dictOffs)-1)
			if err != nil {
				return data, done, err
			}
			do, dd := pc.dictOffs, pc.dictData
			if pc.dictLen1 {
				// One-byte strings: offsets count up by one.
				base := len(data)
				data = growBytes(data, k)[:base+k]
				at := offs[done+1 : done+1+k]
				for i, j := range idx {
					data[base+i] = dd[j]
					at[i] = int32(base + i + 1)
				}
				pc.left -= k
				done += k
				continue
			}
			total := 0
			for _, j := range idx {
				total += int(do[j+1] - do[j])
			}
			at := offs[done+1:]
			if pc.dictPad != nil {
				data = copySlots(data, total, idx, do, pc.dictPad, at)
			} else {
				data = growBytes(data, total)
				for i, j := range idx {
					data = append(data, dd[do[j]:do[j+1]]...)
					at[i] = int32(len(data))
				}
			}
		}
		if len(data) > math.MaxInt32 {
			return data, done, errs.New(errs.IO, "column %s: string batch over 2 GiB", pc.name)
		}
		pc.left -= k
		done += k
	}
	return data, done, nil
}

// plainStrings appends the next k strings of a PLAIN page, rows base to
// base+k-1 of the batch, to data, or with sel (ascending rows of that
// range) the strings of sel alone, stepping over the others by their
// length prefixes; at[i] is set to the end of the i-th string appended.
// A first pass over the length prefixes checks them and sizes data once;
// short strings (comments, names) are then copied by 8-byte words, which
// may read past a string into the page's next bytes and write into
// data's slack: a memmove call per string cost TPC-H q13 an eighth of
// its CPU.
func (pc *pageColumn) plainStrings(k int, sel []int32, base int, at []int32, data []byte) ([]byte, error) {
	v := pc.vals
	total, pos, s := 0, 0, 0
	for r := range k {
		if len(v)-pos < 4 {
			return data, pc.corrupt("short page")
		}
		l := int(binary.LittleEndian.Uint32(v[pos:]))
		if l > len(v)-pos-4 {
			return data, pc.corrupt("short page")
		}
		if sel == nil {
			total += l
		} else if s < len(sel) && int(sel[s]) == base+r {
			total += l
			s++
		}
		pos += 4 + l
	}
	const wordCopyMax = 64
	first := len(data)
	data = growBytes(data, total+wordCopyMax)[:first+total+wordCopyMax]
	p, src, i := first, 0, 0
	for r := range k {
		if sel != nil && i == len(sel) {
			break
		}
		l := int(binary.LittleEndian.Uint32(v[src:]))
		src += 4
		if sel != nil && int(sel[i]) != base+r {
			src += l
			continue
		}
		if w := (l + 7) &^ 7; l <= wordCopyMax && src+w <= len(v) {
			for o := 0; o < w; o += 8 {
				*(*uint64)(unsafe.Pointer(&data[p+o : p+o+8][0])) = *(*uint64)(unsafe.Pointer(&v[src+o : src+o+8][0]))
			}
		} else {
			copy(data[p:p+l], v[src:src+l])
		}
		p += l
		src += l
		at[i] = int32(p)
		i++
	}
	pc.vals = v[pos:]
	return data[:p], nil
}

// rleReader decodes Parquet's RLE / bit-packing hybrid encoding of
// unsigned integers of width bits.
type rleReader struct {
	data  []byte
	width int
	// The current run: rep values of val (an RLE run), or packed values
	// left in a bit-packed run starting at bit pos of data.
	rep    int
	val    int32
	packed int
	pos    int
}

// read fills out, failing on truncated input.
func (r *rleReader) read(out []int32) error {
	for len(out) > 0 {
		if r.rep == 0 && r.packed == 0 {
			if err := r.header(); err != nil {
				return err
			}
		}
		if r.rep > 0 {
			k := min(r.rep, len(out))
			v := r.val
			for i := range out[:k] {
				out[i] = v
			}
			r.rep -= k
			out = out[k:]
			continue
		}
		k := min(r.packed, len(out))
		unpack(r.data, r.pos, r.width, out[:k])
		r.pos += k * r.width
		r.packed -= k
		out = out[k:]
		if r.packed == 0 {
			// Done with the run (including padding values).
			r.data = r.data[(r.pos+7)/8:]
			r.pos = 0
		}
	}
	return nil
}

// rleGather decodes len(out) dictionary indices from r and writes the
// dictionary's values to out, in one pass (no index buffer); an index out
// of the dictionary's range is an error.
func rleGather[T any](r *rleReader, out []T, dict []T) error {
	n := uint64(len(dict))
	for len(out) > 0 {
		if r.rep == 0 && r.packed == 0 {
			if err := r.header(); err != nil {
				return err
			}
		}
		if r.rep > 0 {
			k := min(r.rep, len(out))
			if uint64(uint32(r.val)) >= n {
				return errBadIndex
			}
			v := dict[r.val]
			for i := range out[:k] {
				out[i] = v
			}
			r.rep -= k
			out = out[k:]
			continue
		}
		k := min(r.packed, len(out))
		if !unpackGather(r.data, r.pos, r.width, out[:k], dict) {
			return errBadIndex
		}
		r.pos += k * r.width
		r.packed -= k
		out = out[k:]
		if r.packed == 0 {
			r.data = r.data[(r.pos+7)/8:]
			r.pos = 0
		}
	}
	return nil
}

var errBadIndex = errs.New(errs.IO, "dictionary index out of range")

// unpackGather is unpack followed by a dictionary lookup, fused; false
// when an index is out of range.
func unpackGather[T any](data []byte, pos, width int, out []T, dict []T) bool {
	n := uint64(len(dict))
	if width == 0 {
		if n == 0 {
			return false
		}
		v := dict[0]
		for i := range out {
			out[i] = v
		}
		return true
	}
	mask := uint64(1)<<width - 1
	end := len(data) - 8
	for i := range out {
		b := pos >> 3
		var w uint64
		if b <= end {
			w = binary.LittleEndian.Uint64(data[b:])
		} else {
			var tmp [8]byte
			copy(tmp[:], data[b:])
			w = binary.LittleEndian.Uint64(tmp[:])
		}
		j := (w >> (pos & 7)) & mask
		if j >= n {
			return false
		}
		out[i] = dict[j]
		pos += width
	}
	return true
}

// header reads the next run header.
func (r *rleReader) header() error {
	if r.pos != 0 {
		r.data = r.data[(r.pos+7)/8:]
		r.pos = 0
	}
	h, n := binary.Uvarint(r.data)
	if n <= 0 {
		return errs.New(errs.IO, "truncated RLE run header")
	}
	r.data = r.data[n:]
	if h&1 == 0 { // RLE run
		nb := (r.width + 7) / 8
		if len(r.data) < nb || h>>1 == 0 || h>>1 > math.MaxInt32 {
			return errs.New(errs.IO, "bad RLE run")
		}
		var v uint32
		for i := range nb {
			v |= uint32(r.data[i]) << (8 * i)
		}
		r.val, r.rep = int32(v), int(h>>1)
		r.data = r.data[nb:]
		return nil
	}
	groups := h >> 1
	if groups == 0 || groups > uint64(len(r.data))+1 {
		return errs.New(errs.IO, "bad bit-packed run")
	}
	r.packed = int(groups) * 8
	if int(groups)*r.width > len(r.data) {
		// parquet-mr ends a page's last run after its last value's byte
		// instead of padding the group: the run holds as many values as
		// its bytes do, and reading past them finds no run header.
		r.packed = len(r.data) * 8 / r.width
		if r.packed == 0 {
			return errs.New(errs.IO, "bad bit-packed run")
		}
	}
	// Keep exactly the run's bytes reachable plus the rest; a run's
	// values are all inside it.
	return nil
}

// unpack reads len(out) values of width bits from data starting at bit
// pos (little-endian bit order).
func unpack(data []byte, pos, width int, out []int32) {
	if width == 0 {
		clear(out)
		return
	}
	mask := uint64(1)<<width - 1
	end := len(data) - 8
	for i := range out {
		b := pos >> 3
		var w uint64
		if b <= end {
			w = binary.LittleEndian.Uint64(data[b:])
		} else {
			var tmp [8]byte
			copy(tmp[:], data[b:])
			w = binary.LittleEndian.Uint64(tmp[:])
		}
		out[i] = int32((w >> (pos & 7)) & mask)
		pos += width
	}
}
