package exec

import (
	"syscall"
	"unsafe"
)

// prefaultBytes: fresh slabs at least this large are faulted in at once.
// A new slab's pages would otherwise be faulted in one 4 KiB page at a
// time as the table's rehash first writes them: on the 2-core VM that
// trap-per-page cost was most of a growing aggregation table's time
// (TPC-H q18: a third of its CPU was system time). MADV_POPULATE_WRITE
// (Linux 5.14) faults the whole range in one call, about 6% less CPU for
// q18 and a fifth fewer minor faults. Slot arrays are written all over
// (hashing spreads keys evenly), so no page is committed that would have
// stayed untouched. On older kernels the call fails and nothing changes.
const prefaultBytes = 1 << 20

const madvPopulateWrite = 23

func prefault[T any](s []T) {
	var zero T
	n := cap(s) * int(unsafe.Sizeof(zero))
	if n < prefaultBytes {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n)
	_ = syscall.Madvise(b, madvPopulateWrite) // advice only: failure is harmless
}
