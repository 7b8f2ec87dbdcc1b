package memory

import "unsafe"

// Fixed is the element types noZero hands out: fixed-width values without
// pointers, which the collector never has to scan.
type Fixed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// noZero returns a slice of n elements whose contents are unspecified
// (whatever the memory held before), for buffers the caller overwrites
// whole before anything reads them: decoded columns, gathered rows.
//
// Why: Go zeroes every allocation, and a large one is zeroed by a
// separate pass over memory that has usually gone cold since it was
// freed; in a scan that decodes into fresh buffers that pass was 6% of
// the CPU of the TPC-H run. The standard library does the same for its
// own buffers (strings.Builder through internal/bytealg.MakeNoZero).
func noZero[T Fixed](n int) []T {
	var zero T
	size := unsafe.Sizeof(zero)
	if n < 0 || uintptr(n) > maxAllocBytes/size {
		panic("memory.noZero: length out of range")
	}
	if n == 0 {
		return []T{}
	}
	p := mallocgc(uintptr(n)*size, nil, false)
	return unsafe.Slice((*T)(p), n)
}

// maxAllocBytes bounds one allocation (the runtime's own bound on amd64
// and arm64 is 2^48 bytes; a larger request is a bug upstream).
const maxAllocBytes = 1 << 47

// mallocgc is the runtime's allocator. With typ nil the memory holds no
// pointers; needzero false skips the zeroing. The Go team keeps this
// symbol linkable, with this signature, for packages outside the standard
// library (go.dev/issue/67401). The empty nozero.s lets the declaration
// have no body.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer
