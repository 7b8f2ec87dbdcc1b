package exec

import (
	"testing"

	"gq/expr"
)

// A join build's table fills to three quarters before it doubles, an
// aggregation's to half; either way every key inserted is found again
// with its id, across the doublings.
func TestKeyTableLoad(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table func(keys int) *keyTable
		limit int // keys a 4096-slot table holds
		slots int // slots for 20000 keys
	}{
		{"join", func(k int) *keyTable { return newFullKeyTable(keyCodec{single: true}, k) }, 3072, 32768},
		{"aggregate", func(k int) *keyTable { return newKeyTableFor(keyCodec{single: true}, k) }, 2048, 65536},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := len(tc.table(tc.limit).slots); got != 4096 {
				t.Errorf("table sized for %d keys has %d slots, want 4096", tc.limit, got)
			}
			if got := len(tc.table(tc.limit + 1).slots); got != 8192 {
				t.Errorf("table sized for %d keys has %d slots, want 8192", tc.limit+1, got)
			}
			tab := tc.table(0)
			key := func(i int) int64 { return int64(i)*7919 - 1<<40 }
			for i := range 20000 {
				k := key(i)
				if id := tab.insertInt(k, expr.Mix64(uint64(k))); id != int32(i) {
					t.Fatalf("key %d got id %d, want %d", i, id, i)
				}
				if n := i + 1; n > growLimit(len(tab.slots), tc.name == "join") {
					t.Fatalf("%d keys in %d slots: past the load limit", n, len(tab.slots))
				}
			}
			if len(tab.slots) != tc.slots {
				t.Errorf("20000 keys in %d slots, want %d", len(tab.slots), tc.slots)
			}
			for i := range 20000 {
				k := key(i)
				if id := tab.insertInt(k, expr.Mix64(uint64(k))); id != int32(i) {
					t.Fatalf("key %d found with id %d, want %d", i, id, i)
				}
			}
		})
	}
}

// joinParts picks, from threads to four times threads partitions, the
// count whose power-of-two tables have the fewest slots together.
func TestJoinParts(t *testing.T) {
	for _, tc := range []struct{ keys, threads, want int }{
		{7_300_000, 2, 5}, // 2 parts: 2x 8M slots; 5 parts: 5x 2M
		{3_000_000, 2, 2}, // 2x 2M slots hold 1.5M keys each
		{1000, 4, 4},      // every table is the smallest size: fewest parts
		{12_000_000, 1, 1},
	} {
		if got := joinParts(tc.keys, tc.threads); got != tc.want {
			t.Errorf("joinParts(%d, %d) = %d, want %d", tc.keys, tc.threads, got, tc.want)
		}
	}
}

// From bigTable slots on, every table, an aggregation's too, fills to
// three quarters before it doubles.
func TestBigTableLoad(t *testing.T) {
	keys := bigTable/4*3 - 1000 // past half of bigTable slots, under 3/4
	if got := len(newKeyTableFor(keyCodec{single: true}, keys).slots); got != bigTable {
		t.Errorf("aggregation table for %d keys: %d slots, want %d", keys, got, bigTable)
	}
	if got := len(newKeyTableFor(keyCodec{single: true}, bigTable/4).slots); got != bigTable/2 {
		t.Errorf("aggregation table for %d keys: %d slots, want %d (half load below bigTable)", bigTable/4, got, bigTable/2)
	}
}
