package shuffle

import (
	"bytes"
	"testing"
)

func TestSizeClasses(t *testing.T) {
	for i := 1; i < len(classSize); i++ {
		if classSize[i] <= classSize[i-1] {
			t.Fatalf("class %d (%d) not above class %d (%d)", i, classSize[i], i-1, classSize[i-1])
		}
	}
	for _, n := range []int{minPooled, minPooled + 1, 80 << 10, 80<<10 + 1, 1 << 20, 1<<20 + 5, 3<<20 - 1, 1 << 30} {
		c := classAtLeast(n)
		if classSize[c] < n || (c > 0 && classSize[c-1] >= n) {
			t.Fatalf("classAtLeast(%d) = %d (size %d): not the smallest class holding it", n, c, classSize[c])
		}
		if waste := float64(classSize[c]-n) / float64(n); waste > 0.25 {
			t.Fatalf("%d bytes take a %d-byte buffer: %.0f%% wasted", n, classSize[c], 100*waste)
		}
	}
}

// TestReleasedBufferReused checks a released buffer serves a later
// request of its class, that buffers below minPooled are not pooled, and
// that a buffer between classes goes to the lower one (so a request never
// gets less capacity than its class promises).
func TestReleasedBufferReused(t *testing.T) {
	b := getBuffer(1<<20 + 5)
	if len(b) != 1<<20+5 || cap(b) < len(b) || cap(b) > (1<<20+5)*5/4 {
		t.Fatalf("getBuffer(1 MiB + 5): len %d cap %d", len(b), cap(b))
	}
	Release(b)
	if c := getBuffer(1<<20 + 1); &c[:1][0] != &b[:1][0] {
		t.Fatal("the buffer released last was not the one handed out next")
	}
}

// TestPoolBounded checks the pool keeps at most maxPooledBytes.
func TestPoolBounded(t *testing.T) {
	for range 2 * maxPooledBytes / (1 << 20) {
		Release(make([]byte, 1<<20))
	}
	poolMu.Lock()
	got := pooled
	poolMu.Unlock()
	if got > maxPooledBytes {
		t.Fatalf("the pool holds %d bytes, over its %d-byte bound", got, maxPooledBytes)
	}
	for range 2 * maxPooledBytes / (1 << 20) { // leave it empty for other tests
		getBuffer(1 << 20)
	}
}

func TestReleaseOddCapacity(t *testing.T) {
	odd := make([]byte, 100<<10) // between the 96 and 112 KiB classes
	for range 50 {
		Release(odd)
		got := getBuffer(112 << 10)
		if cap(got) < 112<<10 {
			t.Fatalf("getBuffer(112 KiB) returned capacity %d", cap(got))
		}
	}
	Release(make([]byte, 100)) // too small: ignored
}

// TestFrameSumParts checks the sender's streamed sum over several parts
// equals the receiver's one-shot sum over the joined payload.
func TestFrameSumParts(t *testing.T) {
	var h [headerLen]byte
	copy(h[:], "0123456789abcdef")
	payload := bytes.Repeat([]byte("gq shuffle "), 100000)
	one := frameSum(h[:], payload)
	if got := frameSum(h[:], payload[:7], payload[7:500000], payload[500000:]); got != one {
		t.Fatalf("sum over parts %x, over the whole %x", got, one)
	}
	if frameSum(h[:]) != frameSum(h[:], nil) || frameSum(h[:]) != frameSum(h[:], []byte{}, nil) {
		t.Fatal("an empty payload sums differently by how it is passed")
	}
	h[3] ^= 1 // the header is covered
	if frameSum(h[:], payload) == one {
		t.Fatal("a flipped header bit left the sum unchanged")
	}
}
