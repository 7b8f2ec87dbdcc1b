package arrowgpu

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGPUSortPerm checks the device sort's permutation against a stable
// sort on the host: one and several keys, ascending and descending,
// NULLs first and last, many ties (stability), and the values at the
// edges of each order (MinInt64 beside a NULL, -0 and 0, NaN, ±Inf;
// strings that are prefixes of each other, with NUL bytes, longer than a
// word of 8 bytes).
func TestGPUSortPerm(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 9)
	defer rec.Release()
	edges := edgeBatch()
	defer edges.Release()
	wide := wideBatch(3001, 8) // w DECIMAL(38,2) with NULLs, v, u DECIMAL(38,6)
	defer wide.Release()
	for _, tc := range []struct {
		name string
		rec  arrow.RecordBatch
		keys []OrderKey
	}{
		{"date", rec, []OrderKey{{Col: 4}}},
		{"int64 with NULLs desc, price", rec, []OrderKey{{Col: 5, Desc: true, NullsFirst: true}, {Col: 1}}},
		{"double with NULLs last", rec, []OrderKey{{Col: 6}}},
		{"double desc NULLs first", rec, []OrderKey{{Col: 6, Desc: true, NullsFirst: true}}},
		{"ties: discount, tax desc, quantity", rec, []OrderKey{{Col: 2}, {Col: 3, Desc: true}, {Col: 0}}},
		{"ties only", rec, []OrderKey{{Col: 2}}},
		{"edges int64", edges, []OrderKey{{Col: 0}}},
		{"edges int64 NULLs first", edges, []OrderKey{{Col: 0, NullsFirst: true}}},
		{"edges int64 desc", edges, []OrderKey{{Col: 0, Desc: true}}},
		{"edges double", edges, []OrderKey{{Col: 1}, {Col: 0}}},
		{"edges double desc NULLs first", edges, []OrderKey{{Col: 1, Desc: true, NullsFirst: true}, {Col: 0, Desc: true}}},
		{"string", rec, []OrderKey{{Col: 8}}},
		{"string desc NULLs first, date", rec, []OrderKey{{Col: 8, Desc: true, NullsFirst: true}, {Col: 4}}},
		{"date, string desc", rec, []OrderKey{{Col: 4}, {Col: 8, Desc: true}}},
		{"edges string", edges, []OrderKey{{Col: 2}, {Col: 0}}},
		{"edges string desc", edges, []OrderKey{{Col: 2, Desc: true}, {Col: 0}}},
		{"decimal(38)", wide, []OrderKey{{Col: 0}}},
		{"decimal(38) desc NULLs first", wide, []OrderKey{{Col: 0, Desc: true, NullsFirst: true}}},
		{"decimal(38) u, w desc", wide, []OrderKey{{Col: 2}, {Col: 0, Desc: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := q.Upload(tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Free()
			perm, err := q.SortPerm(db.Cols, tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			n := int(tc.rec.NumRows())
			got := downloadInt32(t, q.dv, perm, n)
			perm.Free()
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return compareOrder(tc.rec, tc.keys, int(a), int(b)) })
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d of the order is row %d, want row %d", i, got[i], want[i])
				}
			}
		})
	}
}

// edgeBatch holds int64 and double values at the ends of their orders,
// with NULLs among them.
func edgeBatch() arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil))
	defer b.Release()
	ints := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt64, math.MaxInt64, 7}
	dbls := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.NaN()}
	// Prefixes of each other, NUL bytes, bytes above 0x7f, words of 8.
	strs := []string{"", "a", "a\x00", "a\x00\x00b", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefg", "\xff", "\xc3\xa9t\xc3\xa9", "zzzzzzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzzzzzzz"}
	for r := range 600 {
		i, d := b.Field(0).(*array.Int64Builder), b.Field(1).(*array.Float64Builder)
		if r%5 == 3 {
			i.AppendNull()
		} else {
			i.Append(ints[r%len(ints)])
		}
		if r%7 == 2 {
			d.AppendNull()
		} else {
			d.Append(dbls[r%len(dbls)])
		}
		if r%9 == 4 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(strs[r%len(strs)])
		}
	}
	return b.NewRecordBatch()
}

// compareOrder compares rows a and b of rec by keys as SQL orders them:
// NULLs where the key says, a double's -0 equal to 0 and every NaN after
// +Inf.
func compareOrder(rec arrow.RecordBatch, keys []OrderKey, a, b int) int {
	for _, k := range keys {
		col := rec.Column(k.Col)
		na, nb := col.IsNull(a), col.IsNull(b)
		if na || nb {
			if na && nb {
				continue
			}
			if na == k.NullsFirst {
				return -1
			}
			return 1
		}
		var c int
		switch x := col.(type) {
		case *array.Int64:
			c = cmp.Compare(x.Value(a), x.Value(b))
		case *array.Decimal64:
			c = cmp.Compare(x.Value(a), x.Value(b))
		case *array.Decimal128:
			c = x.Value(a).Cmp(x.Value(b))
		case *array.Date32:
			c = cmp.Compare(x.Value(a), x.Value(b))
		case *array.String:
			c = strings.Compare(x.Value(a), x.Value(b))
		case *array.Float64:
			c = cmp.Compare(x.Value(a), x.Value(b)) // NaN first: flipped below
			if an, bn := math.IsNaN(x.Value(a)), math.IsNaN(x.Value(b)); an || bn {
				c = cmp.Compare(boolInt(an), boolInt(bn))
			}
		}
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
