package catalog

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// A file may hold columns gq has no value type for: nested lists, structs
// and maps, timestamps and times, intervals, UUIDs and other fixed-size
// binaries, decimals wider than 18 digits. Such a column must not make the
// file unreadable: most queries never touch it, and projection pushdown
// means it is never decoded. So a table keeps it out of its Schema (a
// SELECT * lists the columns it can read, as the first look at a file
// should work) and names it here, so that the binder can fail a query that
// does touch it with the column, its type and the file, at the column's
// place in the query.

// UnreadableColumn is a column of a file that gq cannot read yet.
type UnreadableColumn struct {
	Name string
	Type string // as the file declares it, in Arrow's spelling
	File string
	Why  string // what gq lacks for it
}

// UnreadableTable is implemented by tables whose files hold columns that
// are not in their Schema because gq cannot read them.
type UnreadableTable interface {
	Unreadable() []UnreadableColumn
}

// Unreadable lists t's columns gq cannot read, nil for most tables.
func Unreadable(t Table) []UnreadableColumn {
	if u, ok := t.(UnreadableTable); ok {
		return u.Unreadable()
	}
	return nil
}

// Err is the error of a query that names the column: near is the name as
// the query wrote it, which locates the error.
func (u UnreadableColumn) Err(near string) error {
	return errs.NewNear(errs.Unsupported, near, "column %s of %s has type %s, which gq cannot read (%s); the file's other columns can be queried",
		u.Name, u.File, u.Type, u.Why)
}

// Unreadable implements UnreadableTable.
func (t *ParquetTable) Unreadable() []UnreadableColumn { return t.unreadable }

// typeString spells an Arrow type for a message: nested types in full
// but on one line.
func typeString(t arrow.DataType) string {
	return strings.Join(strings.Fields(t.String()), " ")
}

// unreadableWhy says why a top-level, non-nested field f has no gq type.
func unreadableWhy(f arrow.Field) string {
	switch t := f.Type.(type) {
	case *arrow.TimestampType, *arrow.Time32Type, *arrow.Time64Type:
		return "gq has no timestamp or time type yet"
	case *arrow.DurationType, *arrow.MonthIntervalType, *arrow.DayTimeIntervalType, *arrow.MonthDayNanoIntervalType:
		return "gq has no interval type yet"
	case arrow.DecimalType:
		return fmt.Sprintf("decimals wider than %d digits are not supported", expr.MaxWidePrecision)
	case *arrow.FixedSizeBinaryType, arrow.ExtensionType:
		return "gq has no type for fixed-size binary or extension values"
	case *arrow.NullType:
		return "a column of only NULLs has no gq type"
	case *arrow.DictionaryType:
		return fmt.Sprintf("dictionaries of %s are not supported", t.ValueType)
	}
	return "gq has no value type for it"
}
