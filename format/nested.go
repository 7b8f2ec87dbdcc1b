package format

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nested values print as DuckDB prints them: lists [1, 2, NULL], structs
// {'a': 1, 'b': x}, maps {k=v, k2=v2}; a string inside one is quoted only
// where it would otherwise be ambiguous (DuckDB's rule: it holds a
// bracket, parenthesis, quote, comma, colon or equals sign, starts or ends
// with a space, is empty or reads NULL), and a DOUBLE inside one keeps a
// decimal point (1.0) as DuckDB's text of a DOUBLE does. JSON output writes
// arrays and objects instead (appendNestedJSON).

// appendNested appends the text of the nested value arr[i] (not NULL).
func appendNested(dst []byte, arr arrow.Array, i int) []byte {
	switch a := arr.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		kv := a.ListValues().(*array.Struct)
		keys, items := kv.Field(0), kv.Field(1)
		dst = append(dst, '{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ", "...)
			}
			dst = appendElem(dst, keys, j)
			dst = append(dst, '=')
			dst = appendElem(dst, items, j)
		}
		return append(dst, '}')
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		dst = append(dst, '[')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ", "...)
			}
			dst = appendElem(dst, vals, j)
		}
		return append(dst, ']')
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		dst = append(dst, '{')
		for f := 0; f < a.NumField(); f++ {
			if f > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendQuoted(dst, st.Field(f).Name)
			dst = append(dst, ": "...)
			dst = appendElem(dst, a.Field(f), i)
		}
		return append(dst, '}')
	}
	return append(dst, arr.ValueStr(i)...)
}

// appendElem appends one element of a nested value: NULL, a string quoted
// where needed, or the value's own text.
func appendElem(dst []byte, arr arrow.Array, i int) []byte {
	if IsNull(arr, i) {
		return append(dst, "NULL"...)
	}
	if s, ok := arr.(*array.String); ok {
		v := s.Value(i)
		if needsQuotes(v) {
			return appendQuoted(dst, v)
		}
		return append(dst, v...)
	}
	if f, ok := arr.(*array.Float64); ok {
		return appendNestedFloat(dst, f.Value(i))
	}
	return AppendValue(dst, arr, i)
}

// appendNestedFloat spells v as DuckDB does inside a nested value: the
// shortest digits, an exponent below 1e-4 and from 1e16, else a decimal
// point always (1.0, 1000000000000000.0).
func appendNestedFloat(dst []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "nan"...)
	case math.IsInf(v, 1):
		return append(dst, "inf"...)
	case math.IsInf(v, -1):
		return append(dst, "-inf"...)
	}
	if a := math.Abs(v); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.AppendFloat(dst, v, 'e', -1, 64)
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', -1, 64)
	if !strings.ContainsRune(string(dst[n:]), '.') {
		dst = append(dst, ".0"...)
	}
	return dst
}

func needsQuotes(s string) bool {
	if s == "" || strings.EqualFold(s, "null") || s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	return strings.ContainsAny(s, `"'(),:=[]{}`)
}

// appendQuoted appends s in single quotes, escaping quotes and backslashes.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' || s[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '\'')
}

// appendNestedJSON appends arr[i] as JSON: lists as arrays, structs as
// objects, maps as objects keyed by the keys' text.
func appendNestedJSON(dst []byte, arr arrow.Array, i int) []byte {
	if IsNull(arr, i) {
		return append(dst, "null"...)
	}
	switch a := arr.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		kv := a.ListValues().(*array.Struct)
		dst = append(dst, '{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, Value(kv.Field(0), j))
			dst = append(dst, ':')
			dst = appendNestedJSON(dst, kv.Field(1), j)
		}
		return append(dst, '}')
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ',')
			}
			dst = appendNestedJSON(dst, a.ListValues(), j)
		}
		return append(dst, ']')
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		dst = append(dst, '{')
		for f := 0; f < a.NumField(); f++ {
			if f > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, st.Field(f).Name)
			dst = append(dst, ':')
			dst = appendNestedJSON(dst, a.Field(f), i)
		}
		return append(dst, '}')
	}
	return append(dst, jsonValue(arr, i)...)
}

func appendJSONString(dst []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(dst, q...)
}
