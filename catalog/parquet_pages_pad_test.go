package catalog

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCopySlots checks that materialising dictionary strings by padded
// slots gives the bytes and offsets of appending each string.
func TestCopySlots(t *testing.T) {
	for _, words := range [][]string{
		{"", "AIR", "DELIVER IN PERSON", "TAKE BACK RETURN", "ü€", strings.Repeat("x", dictSlot)}, // 32-byte slots
		{"AIR", "MAIL", "1-URGENT", ""},                      // 8
		{"BUILDING", "AUTOMOBILE", "FURNITURE", "x", "ü€ü€"}, // 16
	} {
		testCopySlots(t, words)
	}
	if padDict([]int32{0, dictSlot + 1}, make([]byte, dictSlot+1)) != nil {
		t.Error("padded a string longer than a slot")
	}
}

func testCopySlots(t *testing.T, words []string) {
	offs := []int32{0}
	var data []byte
	for _, w := range words {
		data = append(data, w...)
		offs = append(offs, int32(len(data)))
	}
	pad := padDict(offs, data)
	if pad == nil {
		t.Fatal("no padded dictionary for strings of at most one slot")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	idx := make([]int32, 1000)
	total := 0
	for i := range idx {
		idx[i] = int32(rng.IntN(len(words)))
		total += len(words[idx[i]])
	}
	prefix := []byte("prefix")
	at := make([]int32, len(idx))
	got := copySlots(append([]byte{}, prefix...), total, idx, offs, pad, at)
	want := append([]byte{}, prefix...)
	for i, j := range idx {
		want = append(want, words[j]...)
		if at[i] != int32(len(want)) {
			t.Fatalf("offset %d: %d, want %d", i, at[i], len(want))
		}
	}
	if string(got) != string(want) {
		t.Fatalf("%q: bytes differ", words)
	}
}

// TestPlainStrings checks the word-copying PLAIN string decoder against
// the page's strings: lengths around the word size and the copy limit, a
// string ending the page (no bytes after it to over-read), a short page.
func TestPlainStrings(t *testing.T) {
	var page []byte
	var want []string
	for l := 0; l <= 100; l++ {
		s := strings.Repeat(string(rune('a'+l%26)), l)
		want = append(want, s)
		page = binary.LittleEndian.AppendUint32(page, uint32(l))
		page = append(page, s...)
	}
	for _, split := range []int{len(want), 7, 1} {
		pc := &pageColumn{name: "s", plain: true, vals: page, left: len(want)}
		data := []byte("xy")
		var got []string
		for done := 0; done < len(want); {
			k := min(split, len(want)-done)
			at := make([]int32, k)
			start := int32(len(data))
			var err error
			if data, err = pc.plainStrings(k, nil, 0, at, data); err != nil {
				t.Fatal(err)
			}
			for _, end := range at {
				got = append(got, string(data[start:end]))
				start = end
			}
			done += k
		}
		if !slices.Equal(got, want) {
			t.Fatalf("split %d: strings differ", split)
		}
	}
	pc := &pageColumn{name: "s", plain: true, vals: page[:len(page)-1]}
	if _, err := pc.plainStrings(len(want), nil, 0, make([]int32, len(want)), nil); err == nil {
		t.Error("a truncated page decoded without error")
	}
}

// TestPlainStringsPicked checks the PLAIN decoder with a selection: the
// selected strings alone, in order, over reads that split the page
// anywhere, for selections of every density, none, and the last string
// (no bytes after it to over-read).
func TestPlainStringsPicked(t *testing.T) {
	var page []byte
	var want []string
	for l := 0; l <= 100; l += 3 {
		s := strings.Repeat(string(rune('a'+l%26)), l)
		want = append(want, s)
		page = binary.LittleEndian.AppendUint32(page, uint32(l))
		page = append(page, s...)
	}
	n := len(want)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, keep := range []float64{-1, 0, 0.1, 0.5, 1} {
		var sel []int32
		for r := range n {
			if rng.Float64() < keep {
				sel = append(sel, int32(r))
			}
		}
		if keep == 0 {
			sel = []int32{int32(n - 1)}
		}
		if sel == nil {
			sel = []int32{} // none: nil would mean every string
		}
		for _, split := range []int{n, 7, 1} {
			pc := &pageColumn{name: "s", plain: true, vals: page, left: n}
			data := []byte("xy")
			at := make([]int32, len(sel))
			j := 0
			for done := 0; done < n; {
				k := min(split, n-done)
				end := j
				for end < len(sel) && int(sel[end]) < done+k {
					end++
				}
				var err error
				if data, err = pc.plainStrings(k, sel[j:end], done, at[j:end], data); err != nil {
					t.Fatal(err)
				}
				j = end
				done += k
			}
			if len(pc.vals) != 0 {
				t.Fatalf("keep %v split %d: %d page bytes left", keep, split, len(pc.vals))
			}
			start := int32(2)
			for i, r := range sel {
				if got := string(data[start:at[i]]); got != want[r] {
					t.Fatalf("keep %v split %d: row %d: %q, want %q", keep, split, r, got, want[r])
				}
				start = at[i]
			}
			if int(start) != len(data) {
				t.Fatalf("keep %v split %d: %d bytes, want %d", keep, split, len(data), start)
			}
		}
	}
}

// A page's last bit-packed run may end at its last value's byte instead of
// its group's (parquet-mr writes them so): the values it holds read, and
// one more is a clean error.
func TestRLETruncatedLastRun(t *testing.T) {
	// One group of 8 three-bit values declared (header 0b11 = 1 group,
	// bit-packed), but only the 2 bytes the first 5 values need are there.
	vals := []int32{1, 2, 3, 4, 5}
	var bitsBuf uint64
	for i, v := range vals {
		bitsBuf |= uint64(v) << (3 * i)
	}
	data := []byte{0x03, byte(bitsBuf), byte(bitsBuf >> 8)}
	r := rleReader{data: data, width: 3}
	out := make([]int32, 5)
	if err := r.read(out); err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		if out[i] != vals[i] {
			t.Fatalf("value %d: got %d, want %d", i, out[i], vals[i])
		}
	}
	r = rleReader{data: data, width: 3}
	if err := r.read(make([]int32, 6)); err == nil {
		t.Fatal("reading past the run's bytes: no error")
	}
}
