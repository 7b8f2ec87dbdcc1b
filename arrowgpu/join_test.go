package arrowgpu

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The join table finds, for each probe row, the build row with equal keys
// (one int64 key, or an int64 and a date32 key), NULL keys matching
// nothing, as a Go map says; with duplicate build keys, Expand lists every
// matching pair (and with left, each row without one once, build row
// -1), and MatchRows lists the rows with a match (or, anti, without).
func TestGPUJoinTable(t *testing.T) {
	q := needKernels(t)
	mem := memory.NewGoAllocator()
	r := rand.New(rand.NewPCG(7, 8))
	upload := func(a arrow.Array) *Column {
		t.Helper()
		c, err := q.UploadArray(a)
		if err != nil {
			t.Fatal(err)
		}
		a.Release()
		return c
	}
	type key struct{ a, b int64 }
	for _, nkeys := range []int{1, 2} {
		const nb, np = 5000, 20000
		// Build: distinct keys (a permutation), some NULL.
		perm := r.Perm(3 * nb)[:nb]
		ab, bb := array.NewInt64Builder(mem), array.NewDate32Builder(mem)
		want := map[key]int32{}
		for i, v := range perm {
			d := int64(v % 7)
			if i%97 == 3 {
				ab.AppendNull()
			} else {
				ab.Append(int64(v) - 1000)
				want[key{int64(v) - 1000, d * int64(nkeys-1)}] = int32(i)
			}
			bb.Append(arrow.Date32(d))
		}
		build := []*Column{upload(ab.NewArray())}
		pa, pb := array.NewInt64Builder(mem), array.NewDate32Builder(mem)
		probe := make([]key, np)
		for i := range np {
			u := int64(r.IntN(3 * nb))
			v, d := u-1000, u%7 // the build's second key is its first's raw value % 7
			if i%5 == 0 {
				d = int64(r.IntN(7))
			}
			if i%53 == 1 {
				pa.AppendNull()
				probe[i] = key{a: -1 << 62}
			} else {
				pa.Append(v)
				probe[i] = key{v, d * int64(nkeys-1)}
			}
			pb.Append(arrow.Date32(d))
		}
		pkeys := []*Column{upload(pa.NewArray())}
		if nkeys == 2 {
			build = append(build, upload(bb.NewArray()))
			pkeys = append(pkeys, upload(pb.NewArray()))
		} else {
			bb.NewArray().Release()
			pb.NewArray().Release()
		}
		tab, err := q.BuildJoinTable(build, nb)
		if err != nil {
			t.Fatal(err)
		}
		// A left lookup: every probe row's build row, -1 for none.
		_, rows, m, err := tab.Lookup(q, pkeys, np, true)
		if err != nil || m != np {
			t.Fatalf("left lookup: %d rows, %v", m, err)
		}
		got := downloadInt32(t, q.dv, rows, np)
		rows.Free()
		var wantIdx, wantRows []int32
		for i, k := range probe {
			w, ok := want[k]
			if !ok {
				w = -1
			} else {
				wantIdx, wantRows = append(wantIdx, int32(i)), append(wantRows, w)
			}
			if got[i] != w {
				t.Fatalf("%d keys, probe row %d %v: build row %d, want %d", nkeys, i, k, got[i], w)
			}
		}
		t.Logf("%d keys: %d hits", nkeys, len(wantIdx))
		if len(wantIdx) < np/10 {
			t.Fatalf("only %d of %d probe rows match: a weak test", len(wantIdx), np)
		}
		// An inner lookup: the matching rows and their build rows.
		idx, rows, m, err := tab.Lookup(q, pkeys, np, false)
		if err != nil {
			t.Fatal(err)
		}
		if gi, gr := downloadInt32(t, q.dv, idx, m), downloadInt32(t, q.dv, rows, m); !slices.Equal(gi, wantIdx) || !slices.Equal(gr, wantRows) {
			t.Fatalf("%d keys, inner lookup: %d matches, want %d", nkeys, m, len(wantIdx))
		}
		idx.Free()
		rows.Free()
		// The matching rows probing again: every row matches, so idx is
		// none (the rows stay as they are) and rows are their build rows.
		sel := uploadInt32(t, q, wantIdx)
		matched, err := q.GatherMany(pkeys, sel, len(wantIdx), false)
		sel.Free()
		if err != nil {
			t.Fatal(err)
		}
		idx, rows, m, err = tab.Lookup(q, matched, len(wantIdx), false)
		for _, c := range matched {
			c.Free()
		}
		if err != nil || idx.Ptr != 0 || m != len(wantIdx) {
			t.Fatalf("%d keys, every row matching: idx %#x, %d rows of %d, %v", nkeys, idx.Ptr, m, len(wantIdx), err)
		}
		gr := downloadInt32(t, q.dv, rows, m)
		rows.Free()
		if !slices.Equal(gr, wantRows) {
			t.Fatalf("%d keys, every row matching: build rows differ", nkeys)
		}
		tab.Free()
		for _, c := range append(build, pkeys...) {
			c.Free()
		}
	}
	// Duplicate build keys: every matching pair, probe rows ascending.
	for _, nb := range []int{7, 3000} {
		bb := array.NewInt64Builder(mem)
		multi := map[int64][]int32{}
		for i := range nb {
			if i%11 == 5 {
				bb.AppendNull()
				continue
			}
			v := int64(r.IntN(nb/3 + 1))
			bb.Append(v)
			multi[v] = append(multi[v], int32(i))
		}
		build := upload(bb.NewArray())
		tab, err := q.BuildJoinTable([]*Column{build}, nb)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Unique {
			t.Fatalf("%d build rows with duplicate keys: table says unique", nb)
		}
		pb := array.NewInt64Builder(mem)
		const np = 5000
		var want, wantLeft [][2]int32
		var semi []bool
		for i := range np {
			if i%13 == 0 {
				pb.AppendNull()
				wantLeft = append(wantLeft, [2]int32{int32(i), -1})
				semi = append(semi, false)
				continue
			}
			v := int64(r.IntN(nb/2 + 1))
			pb.Append(v)
			rows := append([]int32(nil), multi[v]...)
			slices.Sort(rows)
			for _, br := range rows {
				want = append(want, [2]int32{int32(i), br})
				wantLeft = append(wantLeft, [2]int32{int32(i), br})
			}
			if len(rows) == 0 {
				wantLeft = append(wantLeft, [2]int32{int32(i), -1})
			}
			semi = append(semi, len(rows) > 0)
		}
		probe := upload(pb.NewArray())
		for _, left := range []bool{false, true} {
			pi, bi, m, err := tab.Expand(q, []*Column{probe}, np, left)
			if err != nil {
				t.Fatal(err)
			}
			gp, gbld := downloadInt32(t, q.dv, pi, m), downloadInt32(t, q.dv, bi, m)
			got := make([][2]int32, m)
			for k := range m {
				got[k] = [2]int32{gp[k], gbld[k]}
			}
			// Within a probe row the build rows come in chain order.
			slices.SortFunc(got, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
			w := want
			if left {
				w = wantLeft
			}
			if !slices.Equal(got, w) {
				t.Fatalf("%d build rows, left %v: %d pairs, want %d (first %v / %v)", nb, left, m, len(w), got[:min(5, m)], w[:min(5, len(w))])
			}
			if !slices.IsSortedFunc(gp, cmp.Compare[int32]) {
				t.Errorf("probe rows of the pairs not ascending")
			}
			pi.Free()
			bi.Free()
		}
		for _, anti := range []bool{false, true} {
			idx, m, err := tab.MatchRows(q, []*Column{probe}, np, anti)
			if err != nil {
				t.Fatal(err)
			}
			var want []int32
			for i := range np {
				if semi[i] != anti {
					want = append(want, int32(i))
				}
			}
			if got := downloadInt32(t, q.dv, idx, m); !slices.Equal(got, want) {
				t.Fatalf("%d build rows, anti %v: %d rows kept, want %d", nb, anti, m, len(want))
			}
			idx.Free()
		}
		tab.Free()
		build.Free()
		probe.Free()
	}
}
