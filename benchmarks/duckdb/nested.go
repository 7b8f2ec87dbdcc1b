package duckdb

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdbgo "github.com/duckdb/duckdb-go/v2"

	"gq/format"
)

// Nested values are compared in one canonical text built from each side's
// own values: gq's Arrow arrays (canonArrow) and the Go values duckdb-go
// returns — []any for lists, map[string]any for structs, OrderedMap for
// maps (canonGo). A Go map has no order, so struct fields are sorted by
// name on both sides; map entries keep their order; strings are quoted so
// that 'NULL' is not NULL; leaves are spelt as formatValue spells them.

// canonArrow is the canonical text of the nested value arr[i].
func canonArrow(arr arrow.Array, i int) string {
	if format.IsNull(arr, i) {
		return "NULL"
	}
	switch a := arr.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		kv := a.ListValues().(*array.Struct)
		var parts []string
		for j := int(start); j < int(end); j++ {
			parts = append(parts, canonArrow(kv.Field(0), j)+"="+canonArrow(kv.Field(1), j))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		var parts []string
		for j := int(start); j < int(end); j++ {
			parts = append(parts, canonArrow(a.ListValues(), j))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		parts := make([]string, a.NumField())
		for f := range parts {
			parts[f] = st.Field(f).Name + ": " + canonArrow(a.Field(f), i)
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	case *array.String:
		return strconv.Quote(a.Value(i))
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.Timestamp:
		// Spelt as canonGo spells a time.Time, which carries no type.
		if t, ok := a.DataType().(*arrow.TimestampType); ok && t.TimeZone == "" {
			return canonTime(a.Value(i).ToTime(t.Unit))
		}
	}
	return format.Value(arr, i)
}

// canonGo is the canonical text of a value duckdb-go returned inside (or
// as) a nested value.
func canonGo(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "NULL", nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := canonGo(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		var parts []string
		for k, e := range x {
			s, err := canonGo(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, k+": "+s)
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}", nil
	case duckdbgo.OrderedMap:
		keys, vals := x.Keys(), x.Values()
		parts := make([]string, len(keys))
		for i := range keys {
			ks, err := canonGo(keys[i])
			if err != nil {
				return "", err
			}
			vs, err := canonGo(vals[i])
			if err != nil {
				return "", err
			}
			parts[i] = ks + "=" + vs
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	case string:
		return strconv.Quote(x), nil
	case []byte:
		return strconv.Quote(string(x)), nil
	case time.Time:
		return canonTime(x), nil
	}
	s, err := formatValue(v, "")
	if err != nil {
		return "", fmt.Errorf("in a nested value: %w", err)
	}
	return s, nil
}

// canonTime spells a DATE or a TIMESTAMP inside a nested value. DuckDB's
// Go values are time.Time for both and the element's type name is not at
// hand, so a time at midnight is spelt as a date on both sides; a
// TIMESTAMP and a DATE of the same day then compare equal, which the
// top-level column types (compared apart) still tell apart.
func canonTime(t time.Time) string {
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04:05.999999")
}
