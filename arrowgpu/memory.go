package arrowgpu

import (
	"unsafe"
)

// DevPtr is a device address (CUdeviceptr, 64-bit). Zero means none.
type DevPtr uint64

// Add returns p advanced by n bytes.
func (p DevPtr) Add(n int64) DevPtr { return p + DevPtr(n) }

// Stream is a CUDA stream: work queued on one stream runs in order, work on
// different streams may overlap (copies with kernels).
type Stream struct {
	dv *Device
	h  uintptr
}

// Event marks a point in a stream, for waiting and timing.
type Event struct{ h uintptr }

// Pinned is page-locked host memory allocated by the driver: the only host
// memory gq hands to asynchronous copies, because the GC neither moves nor
// frees it while the copy runs.
type Pinned struct {
	p     unsafe.Pointer
	Bytes []byte
}

// The *Locked methods run inside Do.

func (dv *Device) memAllocLocked(n int64) (DevPtr, error) {
	var p uint64
	if err := dv.check("cuMemAlloc_v2", dv.drv.API.CuMemAlloc(&p, uint64(n))); err != nil {
		return 0, err
	}
	return DevPtr(p), nil
}

// MemAlloc allocates n bytes of device memory directly from the driver.
// Engine code allocates from a Pool instead; this is the pool's backing.
func (dv *Device) MemAlloc(n int64) (p DevPtr, err error) {
	err = dv.Do(func() (e error) { p, e = dv.memAllocLocked(n); return })
	return
}

// MemFree frees memory from MemAlloc.
func (dv *Device) MemFree(p DevPtr) error {
	return dv.Do(func() error { return dv.check("cuMemFree_v2", dv.drv.API.CuMemFree(uint64(p))) })
}

// MemInfo returns free and total device memory in bytes.
func (dv *Device) MemInfo() (free, total int64, err error) {
	err = dv.Do(func() error {
		var f, t uint64
		e := dv.check("cuMemGetInfo_v2", dv.drv.API.CuMemGetInfo(&f, &t))
		free, total = int64(f), int64(t)
		return e
	})
	return
}

// AllocPinned allocates n bytes of page-locked host memory.
func (dv *Device) AllocPinned(n int) (*Pinned, error) {
	var pm *Pinned
	err := dv.Do(func() error {
		var p unsafe.Pointer
		if err := dv.check("cuMemAllocHost_v2", dv.drv.API.CuMemAllocHost(&p, uint64(n))); err != nil {
			return err
		}
		pm = &Pinned{p: p, Bytes: unsafe.Slice((*byte)(p), n)}
		return nil
	})
	return pm, err
}

// FreePinned frees memory from AllocPinned.
func (dv *Device) FreePinned(pm *Pinned) error {
	if pm == nil || pm.p == nil {
		return nil
	}
	return dv.Do(func() error {
		err := dv.check("cuMemFreeHost", dv.drv.API.CuMemFreeHost(pm.p))
		pm.p, pm.Bytes = nil, nil
		return err
	})
}

// CopyToDevice copies src to dst synchronously.
func (dv *Device) CopyToDevice(dst DevPtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return dv.Do(func() error { return dv.copyHtoDLocked(dst, src) })
}

func (dv *Device) copyHtoDLocked(dst DevPtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return dv.check("cuMemcpyHtoD_v2", dv.drv.API.CuMemcpyHtoD(uint64(dst), unsafe.Pointer(&src[0]), uint64(len(src))))
}

// CopyFromDevice copies len(dst) bytes from src synchronously.
func (dv *Device) CopyFromDevice(dst []byte, src DevPtr) error {
	if len(dst) == 0 {
		return nil
	}
	return dv.Do(func() error { return dv.copyDtoHLocked(dst, src) })
}

func (dv *Device) copyDtoHLocked(dst []byte, src DevPtr) error {
	if len(dst) == 0 {
		return nil
	}
	return dv.check("cuMemcpyDtoH_v2", dv.drv.API.CuMemcpyDtoH(unsafe.Pointer(&dst[0]), uint64(src), uint64(len(dst))))
}

// NewStream creates a non-blocking stream (it does not synchronise with
// the legacy default stream).
func (dv *Device) NewStream() (*Stream, error) {
	s := &Stream{dv: dv}
	err := dv.Do(func() error { return dv.check("cuStreamCreate", dv.drv.API.CuStreamCreate(&s.h, 1)) })
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Destroy destroys the stream after its queued work completes.
func (s *Stream) Destroy() error {
	return s.dv.Do(func() error { return s.dv.check("cuStreamDestroy_v2", s.dv.drv.API.CuStreamDestroy(s.h)) })
}

// Sync waits until all work queued on s has completed.
func (s *Stream) Sync() error { return s.dv.Do(s.syncLocked) }

func (s *Stream) syncLocked() error {
	return s.dv.check("cuStreamSynchronize", s.dv.drv.API.CuStreamSynchronize(s.handle()))
}

// handle is the CUstream, 0 (the legacy default stream) for a nil Stream.
func (s *Stream) handle() uintptr {
	if s == nil {
		return 0
	}
	return s.h
}

// CopyToDeviceAsync queues a copy of n bytes from pinned host memory at
// offset off to dst on s. src must stay allocated until s is synchronised.
func (s *Stream) CopyToDeviceAsync(dst DevPtr, src *Pinned, off, n int) error {
	return s.dv.Do(func() error { return s.copyHtoDAsyncLocked(dst, src, off, n) })
}

func (s *Stream) copyHtoDAsyncLocked(dst DevPtr, src *Pinned, off, n int) error {
	if n == 0 {
		return nil
	}
	_ = src.Bytes[off+n-1] // bounds check
	return s.dv.check("cuMemcpyHtoDAsync_v2", s.dv.drv.API.CuMemcpyHtoDAsync(uint64(dst), unsafe.Pointer(&src.Bytes[off]), uint64(n), s.handle()))
}

// CopyFromDeviceAsync queues a copy of n bytes from src into pinned host
// memory at offset off on s.
func (s *Stream) CopyFromDeviceAsync(dst *Pinned, off, n int, src DevPtr) error {
	return s.dv.Do(func() error { return s.copyDtoHAsyncLocked(dst, off, n, src) })
}

func (s *Stream) copyDtoHAsyncLocked(dst *Pinned, off, n int, src DevPtr) error {
	if n == 0 {
		return nil
	}
	_ = dst.Bytes[off+n-1]
	return s.dv.check("cuMemcpyDtoHAsync_v2", s.dv.drv.API.CuMemcpyDtoHAsync(unsafe.Pointer(&dst.Bytes[off]), uint64(src), uint64(n), s.handle()))
}

// MemsetAsync queues setting n bytes at p to v.
func (s *Stream) MemsetAsync(p DevPtr, v byte, n int64) error {
	return s.dv.Do(func() error { return s.memsetLocked(p, v, n) })
}

func (s *Stream) memsetLocked(p DevPtr, v byte, n int64) error {
	if n == 0 {
		return nil
	}
	return s.dv.check("cuMemsetD8Async", s.dv.drv.API.CuMemsetD8Async(uint64(p), v, uint64(n), s.handle()))
}

// Record creates an event recorded at the current end of s.
func (s *Stream) Record() (*Event, error) {
	e := &Event{}
	err := s.dv.Do(func() error {
		if err := s.dv.check("cuEventCreate", s.dv.drv.API.CuEventCreate(&e.h, 0)); err != nil {
			return err
		}
		return s.dv.check("cuEventRecord", s.dv.drv.API.CuEventRecord(e.h, s.handle()))
	})
	return e, err
}

// Elapsed waits for end and returns the milliseconds between start and end.
func (dv *Device) Elapsed(start, end *Event) (ms float32, err error) {
	err = dv.Do(func() error {
		if err := dv.check("cuEventSynchronize", dv.drv.API.CuEventSynchronize(end.h)); err != nil {
			return err
		}
		return dv.check("cuEventElapsedTime", dv.drv.API.CuEventElapsedTime(&ms, start.h, end.h))
	})
	return
}

// DestroyEvent frees an event.
func (dv *Device) DestroyEvent(e *Event) error {
	return dv.Do(func() error { return dv.check("cuEventDestroy_v2", dv.drv.API.CuEventDestroy(e.h)) })
}
