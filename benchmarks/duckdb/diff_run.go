package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/engine"
	"gq/errs"
	"gq/expr"
	"gq/format"
)

// nullCell is how a NULL reads in a canonical row (distinct from "").
const nullCell = "\x00NULL"

// Rows is a query's answer as canonical cells, or its error.
type Rows struct {
	Cells [][]string
	Err   error
}

// RunGQ runs sql in gq (under ranks, e is rank 0 and leads it on all).
func RunGQ(ctx context.Context, e *engine.Engine, sql string) Rows {
	var batches []arrow.RecordBatch
	if e.NRanks() > 1 {
		st, err := e.ServeStream(ctx, sql)
		if err != nil {
			return Rows{Err: err}
		}
		for b, ok := st.Next(); ok; b, ok = st.Next() {
			batches = append(batches, b)
		}
		err = st.Err()
		st.Close()
		defer func() {
			for _, b := range batches {
				b.Release()
			}
		}()
		if err != nil {
			return Rows{Err: err}
		}
	} else {
		res, err := e.Query(ctx, sql)
		if err != nil {
			return Rows{Err: err}
		}
		defer res.Release()
		batches = res.Batches
	}
	var out [][]string
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for c, col := range b.Columns() {
				switch f, isFloat := col.(*array.Float64); {
				case format.IsNull(col, r):
					row[c] = nullCell
				case expr.IsNested(col.DataType()):
					row[c] = canonArrow(col, r)
				case isFloat:
					// Exponent form marks a DOUBLE: cellsClose then allows
					// only relative error, not a printed-scale one.
					row[c] = strconv.FormatFloat(f.Value(r), 'e', -1, 64)
				default:
					row[c] = format.Value(col, r)
				}
			}
			out = append(out, row)
		}
	}
	return Rows{Cells: out}
}

// RunDuck runs sql (MySQL dialect, translated) in DuckDB.
func RunDuck(ctx context.Context, db *sql.DB, query string) Rows {
	return runDuck(ctx, db, Translate(query))
}

// runDuck runs DuckDB SQL as it is.
func runDuck(ctx context.Context, db *sql.DB, query string) Rows {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return Rows{Err: err}
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return Rows{Err: err}
	}
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out [][]string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return Rows{Err: err}
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				row[i] = nullCell
				continue
			}
			s, err := formatValue(v, types[i].DatabaseTypeName())
			if err != nil {
				return Rows{Err: err}
			}
			row[i] = s
		}
		out = append(out, row)
	}
	return Rows{Cells: out, Err: rows.Err()}
}

// Verdict is the outcome of comparing two answers.
type Verdict int

const (
	Agree         Verdict = iota
	BothError             // both engines rejected the query
	GQRangeOnly           // gq overflowed its DECIMAL(18)/BIGINT range where DuckDB (38 digits, HUGEINT sums) did not: a documented limit
	DuckRangeOnly         // DuckDB overflowed (INT64 arithmetic it evaluated eagerly, e.g. before a join gq filters first) where gq answered
	TimedOut              // either engine ran past the per-query limit (slow, not wrong; listed apart)
	GQUnsupported         // gq refused with an Unsupported error naming the feature (e.g. a subquery where gq does not take one)
	Mismatch
)

// Compare compares gq's answer with DuckDB's as multisets of rows.
func Compare(gq, duck Rows) (Verdict, string) {
	switch {
	case timedOut(gq.Err) || timedOut(duck.Err):
		return TimedOut, fmt.Sprintf("gq: %v; DuckDB: %v", gq.Err, duck.Err)
	case gq.Err != nil && duck.Err != nil:
		return BothError, ""
	case gq.Err != nil:
		if errs.KindOf(gq.Err) == errs.Execution && isRangeError(gq.Err.Error()) {
			return GQRangeOnly, ""
		}
		if errs.KindOf(gq.Err) == errs.Unsupported {
			return GQUnsupported, ""
		}
		return Mismatch, fmt.Sprintf("gq failed: %v; DuckDB returned %d rows", gq.Err, len(duck.Cells))
	case duck.Err != nil:
		if isRangeError(duck.Err.Error()) {
			return DuckRangeOnly, ""
		}
		return Mismatch, fmt.Sprintf("DuckDB failed: %v; gq returned %d rows", duck.Err, len(gq.Cells))
	}
	if why := sameRows(gq.Cells, duck.Cells); why != "" {
		return Mismatch, why
	}
	return Agree, ""
}

// CompareExact is Compare where numbers must be equal exactly: the same
// text, or the same rational value ("1.50" and "1.5", "-0" and "0"). The
// wide-number slice uses it: the 1e-9 relative tolerance that Compare
// allows for DOUBLE sums would hide wrong low digits of a 38-digit
// decimal.
func CompareExact(gq, duck Rows) (Verdict, string) {
	v, why := Compare(gq, duck)
	if v != Agree || gq.Err != nil {
		return v, why
	}
	a, b := canonRows(gq.Cells), canonRows(duck.Cells)
	sort.Strings(a)
	sort.Strings(b)
	for i := range a {
		if a[i] != b[i] {
			return Mismatch, fmt.Sprintf("gq row %q differs from DuckDB's %q (exact)\n%s", a[i], b[i], sample(gq.Cells, duck.Cells))
		}
	}
	return Agree, ""
}

// canonRows writes each row with numbers as exact rationals (so that
// spellings of one value compare equal) and booleans as 0/1.
func canonRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = boolNum(c)
			if x, ok := new(big.Rat).SetString(c); ok && c != nullCell {
				cells[j] = x.RatString()
			}
		}
		out[i] = strings.Join(cells, "\t")
	}
	return out
}

// timedOut reports an error from the per-query deadline (gq: Cancelled;
// DuckDB: its context error or "Interrupted").
func timedOut(err error) bool {
	if err == nil {
		return false
	}
	return errs.KindOf(err) == errs.Cancelled || errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "deadline exceeded")
}

func isRangeError(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "overflow") || strings.Contains(m, "out of range")
}

// sameRows compares two row multisets: exact canonical text first, then the
// rows left over pairwise with numeric tolerance.
func sameRows(a, b [][]string) string {
	if len(a) != len(b) {
		return fmt.Sprintf("gq has %d rows, DuckDB %d\n%s", len(a), len(b), sample(a, b))
	}
	count := map[string]int{}
	for _, r := range a {
		count[strings.Join(r, "\t")]++
	}
	var restB [][]string
	for _, r := range b {
		k := strings.Join(r, "\t")
		if count[k] > 0 {
			count[k]--
		} else {
			restB = append(restB, r)
		}
	}
	var restA [][]string
	for _, r := range a {
		k := strings.Join(r, "\t")
		if count[k] > 0 {
			count[k]--
			restA = append(restA, r)
		}
	}
	// Rows that differ only within tolerance are paired first-fit; both
	// sides sorted alike first, so that the pairing does not depend on the
	// order the rows came in (under ranks gq's order varies, and an early
	// row could take a neighbour's close match and leave its own unpaired).
	sort.Slice(restA, func(i, j int) bool { return rowLess(restA[i], restA[j]) })
	sort.Slice(restB, func(i, j int) bool { return rowLess(restB[i], restB[j]) })
	used := make([]bool, len(restB))
next:
	for _, ra := range restA {
		for j, rb := range restB {
			if !used[j] && rowsClose(ra, rb) {
				used[j] = true
				continue next
			}
		}
		return fmt.Sprintf("gq row %q has no match in DuckDB's\n%s", ra, sample(a, b))
	}
	return ""
}

func sample(a, b [][]string) string {
	show := func(rs [][]string) string {
		var s []string
		for _, r := range rs {
			s = append(s, strings.ReplaceAll(strings.Join(r, " | "), nullCell, "NULL"))
		}
		sort.Strings(s)
		if len(s) > 8 {
			s = append(s[:8], "...")
		}
		return strings.Join(s, "\n    ")
	}
	return "  gq:\n    " + show(a) + "\n  DuckDB:\n    " + show(b)
}

// rowLess orders rows cell by cell: numbers by value (so a DOUBLE printed
// as 1.5e+00 and as 1.5 sort alike), other cells as text.
func rowLess(a, b []string) bool {
	for i := range min(len(a), len(b)) {
		x, errX := strconv.ParseFloat(a[i], 64)
		y, errY := strconv.ParseFloat(b[i], 64)
		switch {
		case errX == nil && errY == nil:
			if x != y {
				return x < y
			}
		case a[i] != b[i]:
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func rowsClose(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !cellsClose(a[i], b[i]) {
			return false
		}
	}
	return true
}

// cellsClose compares a gq cell with a DuckDB cell: equal text, or equal
// numbers — exactly when both are integers, else within gq's printed
// scale (AVG is DECIMAL scale+4 in gq, DOUBLE in DuckDB) or a relative
// 1e-9 (DOUBLE sums in a different order).
func cellsClose(g, d string) bool {
	if g == d {
		return true
	}
	if g == nullCell || d == nullCell {
		return false
	}
	if isBool(g) || isBool(d) {
		return boolNum(g) == boolNum(d)
	}
	gi, okg := new(big.Int).SetString(g, 10)
	di, okd := new(big.Int).SetString(d, 10)
	if okg && okd {
		return gi.Cmp(di) == 0
	}
	gr, okg := new(big.Rat).SetString(g)
	dr, okd := new(big.Rat).SetString(d)
	if !okg || !okd {
		return sameFloatText(g, d)
	}
	diff, _ := new(big.Rat).Sub(gr, dr).Float64()
	diff = math.Abs(diff)
	scale := printedScale(g)
	if scale > 0 && diff <= math.Pow10(-scale)/2+1e-12 {
		return true
	}
	// DuckDB drops DECIMAL scale where the common type of two decimals
	// (COALESCE, CASE) would need more than 38 digits: 1.984755 comes
	// back as 1.98. Accept a difference below DuckDB's last printed digit.
	if ds := printedScale(d); ds > 0 && ds < scale && diff < math.Pow10(-ds) {
		return true
	}
	gf, _ := gr.Float64()
	return diff <= 1e-9*math.Max(math.Abs(gf), 1)
}

// printedScale is the number of digits after the point of a plain
// decimal numeral, 0 for others.
func printedScale(s string) int {
	if dot := strings.IndexByte(s, '.'); dot >= 0 && !strings.ContainsAny(s, "eE") {
		return len(s) - dot - 1
	}
	return 0
}

func isBool(s string) bool { return s == "true" || s == "false" }

func boolNum(s string) string {
	switch s {
	case "true", "1":
		return "1"
	case "false", "0":
		return "0"
	}
	return s
}

// sameFloatText treats spellings of infinities and NaN alike.
func sameFloatText(g, d string) bool {
	gf, err1 := strconv.ParseFloat(strings.ToLower(g), 64)
	df, err2 := strconv.ParseFloat(strings.ToLower(d), 64)
	return err1 == nil && err2 == nil && (gf == df || math.IsNaN(gf) && math.IsNaN(df))
}
