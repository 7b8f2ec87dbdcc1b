package flight

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"

	"gq/catalog"
	"gq/engine"
	"gq/errs"
)

// Decimal parameters of up to 38 digits (issue 27) bind as exact literals
// and the engine computes with every digit; past 38 (a decimal256) they
// are refused, never rounded through a DOUBLE.
func TestBindWideDecimalParams(t *testing.T) {
	bigNum := func(s string) *big.Int {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("bad number %s", s)
		}
		return v
	}
	b := paramBatch([]arrow.Field{
		{Name: "a", Type: &arrow.Decimal128Type{Precision: 38, Scale: 2}},
		{Name: "b", Type: &arrow.Decimal128Type{Precision: 38, Scale: 0}},
		{Name: "c", Type: &arrow.Decimal256Type{Precision: 40, Scale: 20}},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 38, Scale: 20}},
	}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("12345678901234567890123456789012345678")))
		b.Field(1).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("-9999999999999999999999999")))
		b.Field(2).(*array.Decimal256Builder).Append(decimal256.FromBigInt(bigNum("1234567890123456789012345678901234567890")))
		b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("1234567890123456789000000000")))
	})
	defer b.Release()
	for c := range 4 {
		_, err := literal(b.Column(c), 0)
		if c == 2 {
			if errs.KindOf(err) != errs.Binding || !strings.Contains(err.Error(), "more than 38 digits") {
				t.Errorf("decimal256 of 40 digits: %v, want a binding error", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("parameter %d: %v", c+1, err)
		}
	}
	rows, err := paramRows(b)
	if err == nil {
		t.Fatalf("a batch with the 40-digit value bound: %v", rows)
	}
	b2 := paramBatch(b.Schema().Fields()[:2], func(rb *array.RecordBuilder) {
		rb.Field(0).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("12345678901234567890123456789012345678")))
		rb.Field(1).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("-9999999999999999999999999")))
	})
	defer b2.Release()
	rows, err = paramRows(b2)
	if err != nil {
		t.Fatal(err)
	}
	d := paramBatch(b.Schema().Fields()[3:], func(rb *array.RecordBuilder) {
		rb.Field(0).(*array.Decimal128Builder).Append(decimal128.FromBigInt(bigNum("1234567890123456789000000000")))
	})
	defer d.Release()
	drows, err := paramRows(d)
	if err != nil {
		t.Fatal(err)
	}
	sql, err := bindParams("select ? + 0.01, ? - 1, ?", append(rows[0], drows[0]...))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(catalog.New(), engine.Options{})
	defer e.Close()
	res, err := e.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Release()
	got := strings.TrimSpace(string(csvOf(t, res.Schema, res.Batches)))
	if !strings.HasSuffix(got, "123456789012345678901234567890123456.79,-10000000000000000000000000,12345678.90123456789") {
		t.Errorf("%s: got %s", sql, got)
	}
}
