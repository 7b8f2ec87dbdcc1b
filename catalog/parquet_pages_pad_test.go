package catalog

import (
	"math/rand/v2"
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
