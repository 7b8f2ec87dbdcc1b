package catalog

import (
	"bytes"
	"io"
	"os"

	"gq/errs"
)

// csvSplitBytes is the size of the byte ranges a large CSV file is read in
// (a variable so tests can split small files).
var csvSplitBytes int64 = 32 << 20

// csvSplit is a byte range [start, end) of a file. It owns the lines that
// start inside it; line is the 1-based number of the first of them.
type csvSplit struct {
	path       string
	start, end int64
	line       int
	delim      byte
	header     bool   // the file's first line is a header
	codec      string // "gzip", "zstd": the file is compressed, one split
	file       int    // index of the file among the table's
}

// planCSVSplits cuts path into ranges of about csvSplitBytes. A newline
// inside quotes would make a range start mid-record, so a file containing
// any quote is one split. The scan also counts newlines, so errors in later
// ranges still report true line numbers.
func planCSVSplits(path string, size int64) ([]csvSplit, error) {
	whole := []csvSplit{{path: path, start: 0, end: size, line: 1}}
	if size <= csvSplitBytes {
		return whole, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "%s", path)
	}
	defer f.Close()
	splits := whole[:0]
	buf := make([]byte, 1<<20)
	var pos, newlines int64 // newlines counts '\n' in [0, pos)
	next := csvSplitBytes   // next boundary
	start, line := int64(0), 1
	for pos < size {
		n, err := f.ReadAt(buf, pos)
		if n == 0 && err != nil {
			return nil, errs.Wrap(errs.IO, err, "%s", path)
		}
		chunk := buf[:n]
		if bytes.IndexByte(chunk, '"') >= 0 {
			return []csvSplit{{path: path, start: 0, end: size, line: 1}}, nil
		}
		// A boundary b's first line is line count('\n' in [0, b-1)) + 2.
		for next < size && next-1 < pos+int64(n) {
			nl := newlines + int64(bytes.Count(chunk[:next-1-pos], []byte{'\n'}))
			splits = append(splits, csvSplit{path: path, start: start, end: next, line: line})
			start, line = next, int(nl)+2
			next += csvSplitBytes
		}
		newlines += int64(bytes.Count(chunk, []byte{'\n'}))
		pos += int64(n)
	}
	return append(splits, csvSplit{path: path, start: start, end: size, line: line}), nil
}

// readCSVRange returns the bytes of the lines sp owns: from the first line
// start at or after sp.start through the end of the last line starting
// before sp.end.
func readCSVRange(sp csvSplit) ([]byte, error) {
	f, err := os.Open(sp.path)
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "%s", sp.path)
	}
	defer f.Close()
	from := max(sp.start-1, 0) // one byte back: is sp.start a line start?
	buf := make([]byte, sp.end-from, sp.end-from+4096)
	if n, err := f.ReadAt(buf, from); err != nil && !(err == io.EOF && n == len(buf)) {
		return nil, errs.Wrap(errs.IO, err, "%s", sp.path)
	}
	// Extend to the end of the line that crosses sp.end.
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		more := make([]byte, 64<<10)
		for off := sp.end; ; {
			n, err := f.ReadAt(more, off)
			if i := bytes.IndexByte(more[:n], '\n'); i >= 0 {
				buf = append(buf, more[:i+1]...)
				break
			}
			buf = append(buf, more[:n]...)
			off += int64(n)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, errs.Wrap(errs.IO, err, "%s", sp.path)
			}
		}
	}
	if sp.start == 0 {
		return buf, nil
	}
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		return nil, nil
	}
	return buf[i+1:], nil
}
