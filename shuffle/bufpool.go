package shuffle

import (
	"math/bits"
	"sync"
)

// Receive buffers. A communicator that reads messages off a wire needs a
// buffer of its own for each message it hands over. Allocated fresh, each
// one costs Go zeroing it and the kernel faulting its pages in, and over
// loopback that costs as much as the transfer itself (BenchmarkRawTCPMesh
// against BenchmarkRawTCPMeshAlloc). So received buffers come from a pool,
// and a receiver that is done with a message's bytes hands them back with
// Release. Releasing is optional: a buffer never released is collected.
//
// The pool is a stack of free buffers per size class, most recently
// released on top: the buffer handed out next is the one whose lines are
// most likely still in cache, where the copy out of the socket writes
// faster (a sync.Pool hands other processors' oldest buffers to a reader
// that steals; the stack gave the shuffle ~5% more). It holds at most
// maxPooledBytes; what does not fit is left to the garbage collector.

// minPooled is the smallest buffer worth pooling: below it, allocating is
// cheaper than the pool's bookkeeping, and headers and control messages
// are small.
const minPooled = 64 << 10

// Size classes step by a quarter of a power of two (64 KiB, 80, 96, 112,
// 128, 160, ...), so a buffer is at most 25% larger than asked for: a
// 1 MiB chunk plus its trailer must not take 2 MiB.
const classSteps = 4

var (
	classSize []int // ascending; classSize[0] == minPooled
	poolMu    sync.Mutex
	stacks    [][][]byte // free buffers per class, most recently released last
	pooled    int        // bytes in stacks
)

// maxPooledBytes bounds the free buffers kept: a few per peer for the
// ranks of a process, not a second heap.
const maxPooledBytes = 64 << 20

func init() {
	for s := minPooled; s > 0 && s <= 1<<40; s <<= 1 {
		for i := range classSteps {
			classSize = append(classSize, s+s/classSteps*i)
		}
	}
	stacks = make([][][]byte, len(classSize))
}

// classAtLeast is the smallest class that holds n bytes (n >= minPooled).
func classAtLeast(n int) int {
	oct := bits.Len(uint(n-1)) - bits.Len(uint(minPooled)) // octave of the class
	i := max(oct, 0) * classSteps
	for i < len(classSize) && classSize[i] < n {
		i++
	}
	return i
}

// getBuffer returns a buffer of length n whose contents are garbage: the
// caller overwrites all of it.
func getBuffer(n int) []byte {
	if n < minPooled {
		return make([]byte, n)
	}
	c := classAtLeast(n)
	if c >= len(classSize) {
		return make([]byte, n)
	}
	poolMu.Lock()
	if st := stacks[c]; len(st) > 0 {
		b := st[len(st)-1]
		st[len(st)-1] = nil
		stacks[c] = st[:len(st)-1]
		pooled -= cap(b)
		poolMu.Unlock()
		return b[:n]
	}
	poolMu.Unlock()
	return make([]byte, n, classSize[c])
}

// Release hands back the bytes of a received message or chunk (from
// Recv, a Shuffler's Next or Extract) once nothing reads or writes them
// any more: the memory may back a later message, so a slice of it kept
// past Release would change under its holder. Only release what this
// rank received and holds alone; releasing is optional.
func Release(b []byte) {
	c := cap(b)
	if c < minPooled {
		return
	}
	// The largest class not larger than the buffer: every buffer in class
	// k has capacity >= classSize[k].
	k := classAtLeast(c)
	if k >= len(classSize) || classSize[k] > c {
		k--
	}
	poolMu.Lock()
	if pooled+c <= maxPooledBytes {
		stacks[k] = append(stacks[k], b[:c])
		pooled += c
	}
	poolMu.Unlock()
}
