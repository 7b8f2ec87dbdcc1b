package flight

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"gq/parser/sqlparser"

	"gq/errs"
)

func TestBindParams(t *testing.T) {
	b := paramBatch([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String}, {Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64}, {Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.StringBuilder).Append(`it's \ "x"; drop table t; --`)
		b.Field(1).(*array.Int64Builder).Append(-7)
		b.Field(2).(*array.Float64Builder).Append(1)
		b.Field(3).(*array.BooleanBuilder).Append(true)
		b.Field(4).AppendNull()
	})
	defer b.Release()
	rows, err := paramRows(b)
	if err != nil {
		t.Fatal(err)
	}
	sql := "select a from t where s = ? and i = ? and f = ? and b = ? and n = ? and q = '?'"
	if n, err := placeholders(sql); err != nil || n != 5 {
		t.Fatalf("placeholders: %d %v", n, err)
	}
	got, err := bindParams(sql, rows[0])
	if err != nil {
		t.Fatal(err)
	}
	// The string stays one literal: re-parsing finds the same statement
	// shape, with the value intact.
	st, err := parseOne(got)
	if err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	var strs []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if l, ok := n.(*sqlparser.Literal); ok && l.Type == sqlparser.StrVal {
			strs = append(strs, l.Val)
		}
		return true, nil
	}, st)
	if len(strs) != 2 || strs[0] != `it's \ "x"; drop table t; --` || strs[1] != "?" {
		t.Errorf("string literals %q in %s", strs, got)
	}
	for _, want := range []string{"i = -7", "f = 1e+00", "b = true", "n = null"} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q", got, want)
		}
	}
	if _, err := bindParams(sql, rows[0][:2]); errs.KindOf(err) != errs.Binding {
		t.Errorf("too few values: %v", err)
	}
	if _, err := bindParams("select :name", rows[0]); errs.KindOf(err) != errs.Unsupported {
		t.Errorf("named parameter: %v", err)
	}
}

// Timestamp and time parameters of any unit bind as TIMESTAMP '…' and
// TIME '…' literals in µs (a zoned one as its UTC reading).
func TestBindTimeParams(t *testing.T) {
	b := paramBatch([]arrow.Field{
		{Name: "ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Paris"}},
		{Name: "t", Type: arrow.FixedWidthTypes.Time32s},
		{Name: "t64", Type: arrow.FixedWidthTypes.Time64ns},
	}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.TimestampBuilder).Append(1704164645678)
		b.Field(1).(*array.TimestampBuilder).Append(-1_500)
		b.Field(2).(*array.Time32Builder).Append(3661)
		b.Field(3).(*array.Time64Builder).Append(1_000_001_999)
	})
	defer b.Release()
	rows, err := paramRows(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bindParams("select ?, ?, ?, ?", rows[0])
	if err != nil {
		t.Fatal(err)
	}
	want := "select timestamp'2024-01-02 03:04:05.678', timestamp'1969-12-31 23:59:59.999998', time'01:01:01', time'00:00:01.000001' from dual"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
