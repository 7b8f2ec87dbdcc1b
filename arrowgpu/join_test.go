package arrowgpu

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// The join table finds, for each probe row, the build row with equal keys
// (one int64 key, or an int64 and a date32 key), NULL keys matching
// nothing, as a Go map says; duplicate build keys are an
// ErrJoinKeysNotUnique (errs.Unsupported) error.
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
		rows, mask, err := tab.Probe(q, pkeys, np)
		if err != nil {
			t.Fatal(err)
		}
		got := downloadInt32(t, q.dv, rows, np)
		bits, err := q.Download(mask, mem)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for i, k := range probe {
			w, ok := want[k]
			if !ok {
				w = -1
			} else {
				hits++
			}
			if got[i] != w || bits.(*array.Boolean).Value(i) != ok {
				t.Fatalf("%d keys, probe row %d %v: build row %d (mask %v), want %d", nkeys, i, k, got[i], bits.(*array.Boolean).Value(i), w)
			}
		}
		t.Logf("%d keys: %d hits", nkeys, hits)
		if hits < np/10 {
			t.Fatalf("only %d of %d probe rows match: a weak test", hits, np)
		}
		bits.Release()
		rows.Free()
		mask.Free()
		tab.Free()
		for _, c := range append(build, pkeys...) {
			c.Free()
		}
	}
	// Duplicate build keys.
	ab := array.NewInt64Builder(mem)
	ab.AppendValues([]int64{1, 2, 3, 2, 5}, nil)
	c := upload(ab.NewArray())
	defer c.Free()
	if _, err := q.BuildJoinTable([]*Column{c}, 5); !errors.Is(err, ErrJoinKeysNotUnique) || !errors.Is(err, errs.Unsupported) {
		t.Fatalf("duplicate build keys: %v", err)
	}
}
