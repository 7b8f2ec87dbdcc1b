package exec

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestPrepareRows checks that preparing a build's keys over ranges of rows
// on several goroutines gives what one prepare gives, for each form of key
// (one integer, a Date32, pairs with and without NULLs, serialised rows),
// with NULLs in some ranges only and on a sliced column.
func TestPrepareRows(t *testing.T) {
	mem := memory.NewGoAllocator()
	const n = 150_000
	null := func(i int) bool { return i < n/5 && i%3 == 0 } // the first range only
	ints := func(nulls bool, f func(i int) int64) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for i := range n + 5 {
			if nulls && null(i) {
				b.AppendNull()
			} else {
				b.Append(f(i))
			}
		}
		a := b.NewArray()
		defer a.Release()
		return array.NewSlice(a, 5, n+5) // an offset into its buffers
	}
	dates := func() arrow.Array {
		b := array.NewDate32Builder(mem)
		defer b.Release()
		for i := range n {
			b.Append(arrow.Date32(i % 9000))
		}
		return b.NewArray()
	}
	strs := func() arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i := range n {
			if i%11 == 0 && i < n/3 {
				b.AppendNull()
			} else {
				b.Append(fmt.Sprintf("k%d", i%4000))
			}
		}
		return b.NewArray()
	}
	id := func(i int) int64 { return int64(i) * 7 }
	mod := func(i int) int64 { return int64(i % 1000) }
	for _, tc := range []struct {
		name string
		cols func() []arrow.Array
	}{
		{"int64", func() []arrow.Array { return []arrow.Array{ints(false, id)} }},
		{"int64 with NULLs", func() []arrow.Array { return []arrow.Array{ints(true, id)} }},
		{"date32", func() []arrow.Array { return []arrow.Array{dates()} }},
		{"pair", func() []arrow.Array { return []arrow.Array{ints(false, id), ints(false, mod)} }},
		{"pair with NULLs", func() []arrow.Array { return []arrow.Array{ints(false, id), ints(true, mod)} }},
		{"pair of dates", func() []arrow.Array { return []arrow.Array{dates(), ints(false, mod)} }},
		{"serialised", func() []arrow.Array { return []arrow.Array{ints(true, mod), strs()} }},
	} {
		cols := tc.cols()
		types := make([]arrow.DataType, len(cols))
		for i, a := range cols {
			types[i] = a.DataType()
		}
		codec, err := newKeyCodec(types)
		if err != nil {
			t.Fatal(err)
		}
		var want, got batchKeys
		codec.prepare(cols, n, &want)
		if err := codec.prepareRows(cols, n, &got, 4); err != nil {
			t.Fatal(err)
		}
		if rowParts(n, 4) < 2 {
			t.Fatalf("%d rows on 4 goroutines: one range", n)
		}
		same := got.n == want.n && slices.Equal(got.hashes, want.hashes) && slices.Equal(got.null, want.null) &&
			(got.null == nil) == (want.null == nil) && slices.Equal(got.masks, want.masks)
		if codec.single || codec.pair {
			same = same && slices.Equal(got.ints[:n], want.ints[:n])
		}
		if codec.pair {
			same = same && slices.Equal(got.ints2[:n], want.ints2[:n])
		}
		if !codec.single && !codec.pair {
			for i := range n {
				same = same && slices.Equal(got.row(i), want.row(i))
			}
		}
		if !same {
			t.Errorf("%s: keys prepared in ranges differ from one prepare", tc.name)
		}
		releaseArrays(cols)
	}
}
