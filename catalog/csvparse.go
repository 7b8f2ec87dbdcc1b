package catalog

import (
	"bytes"
	"errors"
)

// errIncomplete: the buffer ended inside a record and more data may follow
// (only when sampling a prefix of a file).
var errIncomplete = errors.New("incomplete record")

// csvReader splits RFC 4180 text into records. It tells quoted fields apart
// from unquoted ones, because an empty unquoted field is NULL while a quoted
// "" is an empty string. Fields alias data (unquoted) or scratch (quoted,
// unescaped) and are valid until the next call of next.
type csvReader struct {
	data  []byte
	pos   int
	line  int  // 1-based line of data[pos]
	final bool // data holds the whole file
	delim byte

	recLine int // line where the last record started
	fields  [][]byte
	quoted  []bool
	scratch []byte
}

func newCSVReader(data []byte, final bool, delim byte) *csvReader {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	return &csvReader{data: data, line: 1, final: final, delim: delim}
}

// next parses one record into r.fields and r.quoted; ok is false at the end
// of the data. Blank lines are skipped. A malformed record gives an error
// message without position (callers add file:line from r.recLine).
func (r *csvReader) next() (ok bool, err error) {
	data := r.data
	for r.pos < len(data) && (data[r.pos] == '\n' || data[r.pos] == '\r') {
		if data[r.pos] == '\n' {
			r.line++
		}
		r.pos++
	}
	if r.pos >= len(data) {
		return false, nil
	}
	start, startLine := r.pos, r.line
	r.recLine = r.line
	r.fields, r.quoted, r.scratch = r.fields[:0], r.quoted[:0], r.scratch[:0]
	pos := r.pos
	for {
		var field []byte
		quoted := pos < len(data) && data[pos] == '"'
		if quoted {
			pos++
			s0 := len(r.scratch)
			for {
				i := bytes.IndexByte(data[pos:], '"')
				if i < 0 {
					r.pos, r.line = start, startLine
					if !r.final {
						return false, errIncomplete
					}
					return false, errors.New("unterminated quoted field")
				}
				seg := data[pos : pos+i]
				r.line += bytes.Count(seg, []byte{'\n'})
				r.scratch = append(r.scratch, seg...)
				pos += i + 1
				if pos < len(data) && data[pos] == '"' { // "" is an escaped quote
					r.scratch = append(r.scratch, '"')
					pos++
					continue
				}
				break
			}
			field = r.scratch[s0:len(r.scratch):len(r.scratch)]
			if pos == len(data) && !r.final {
				r.pos, r.line = start, startLine
				return false, errIncomplete
			}
			if pos < len(data) && data[pos] == '\r' && pos+1 < len(data) && data[pos+1] == '\n' {
				pos++
			}
			if pos < len(data) && data[pos] != r.delim && data[pos] != '\n' {
				r.pos, r.line = start, startLine
				return false, errors.New("unexpected character after a closing quote")
			}
		} else {
			e := pos
			for e < len(data) && data[e] != r.delim && data[e] != '\n' {
				e++
			}
			if e == len(data) && !r.final {
				r.pos, r.line = start, startLine
				return false, errIncomplete
			}
			field = data[pos:e]
			if e < len(data) && data[e] == '\n' && len(field) > 0 && field[len(field)-1] == '\r' {
				field = field[:len(field)-1]
			}
			pos = e
		}
		r.fields = append(r.fields, field)
		r.quoted = append(r.quoted, quoted)
		if pos >= len(data) {
			r.pos = pos
			return true, nil
		}
		if data[pos] == '\n' {
			r.pos = pos + 1
			r.line++
			return true, nil
		}
		pos++ // delimiter
	}
}
