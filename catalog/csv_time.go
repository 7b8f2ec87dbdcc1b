package catalog

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// seeTimestamp updates g's timestamp and time guesses with one non-empty
// value: YYYY-MM-DD HH:MM:SS[.ffffff][zone] makes a TIMESTAMP column, a
// zone on any value a TIMESTAMPTZ one (DuckDB's sniffing); a column of
// plain dates stays DATE (result checks date first).
func (g *typeGuess) seeTimestamp(f []byte) {
	s := unsafe.String(unsafe.SliceData(f), len(f))
	if !g.notTS {
		if _, zone, ok := expr.ParseTimestamp(s, true); !ok {
			g.notTS = true
		} else if zone {
			g.zone = true
		}
	}
	if !g.notTime {
		if _, ok := expr.ParseTime(s); !ok {
			g.notTime = true
		}
	}
}

// parseTemporal reads a CSV field as a TIMESTAMP[TZ] or TIME (t) in µs.
func parseTemporal(f []byte, t arrow.DataType) (int64, bool) {
	s := unsafe.String(unsafe.SliceData(f), len(f))
	if t.ID() == arrow.TIME64 {
		return expr.ParseTime(s)
	}
	v, _, ok := expr.ParseTimestamp(s, expr.IsTZ(t))
	return v, ok
}
