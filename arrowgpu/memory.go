package arrowgpu

import (
	"unsafe"
)

// DevPtr is a device address (CUdeviceptr, 64-bit). Zero means none.
type DevPtr uint64

// Add returns p advanced by n bytes.
func (p DevPtr) Add(n int64) DevPtr { return p + DevPtr(n) }

// stream is a CUDA stream: work queued on one stream runs in order, work on
// different streams may overlap (copies with kernels).
type stream struct {
	dv *Device
	h  uintptr
}

// pinned is page-locked host memory allocated by the driver: the only host
// memory gq hands to asynchronous copies, because the GC neither moves nor
// frees it while the copy runs.
type pinned struct {
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

// allocPinned allocates n bytes of page-locked host memory.
func (dv *Device) allocPinned(n int) (*pinned, error) {
	var pm *pinned
	err := dv.Do(func() error {
		var p unsafe.Pointer
		if err := dv.check("cuMemAllocHost_v2", dv.drv.API.CuMemAllocHost(&p, uint64(n))); err != nil {
			return err
		}
		pm = &pinned{p: p, Bytes: unsafe.Slice((*byte)(p), n)}
		return nil
	})
	return pm, err
}

// freePinned frees memory from allocPinned.
func (dv *Device) freePinned(pm *pinned) error {
	if pm == nil || pm.p == nil {
		return nil
	}
	return dv.Do(func() error {
		err := dv.check("cuMemFreeHost", dv.drv.API.CuMemFreeHost(pm.p))
		pm.p, pm.Bytes = nil, nil
		return err
	})
}

// copyToDevice copies src to dst synchronously.
func (dv *Device) copyToDevice(dst DevPtr, src []byte) error {
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

// copyFromDevice copies len(dst) bytes from src synchronously.
func (dv *Device) copyFromDevice(dst []byte, src DevPtr) error {
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

// newStream creates a non-blocking stream (it does not synchronise with
// the legacy default stream).
func (dv *Device) newStream() (*stream, error) {
	s := &stream{dv: dv}
	err := dv.Do(func() error { return dv.check("cuStreamCreate", dv.drv.API.CuStreamCreate(&s.h, 1)) })
	if err != nil {
		return nil, err
	}
	return s, nil
}

// destroy destroys the stream after its queued work completes.
func (s *stream) destroy() error {
	return s.dv.Do(func() error { return s.dv.check("cuStreamDestroy_v2", s.dv.drv.API.CuStreamDestroy(s.h)) })
}

// Sync waits until all work queued on s has completed.
func (s *stream) Sync() error { return s.dv.Do(s.syncLocked) }

func (s *stream) syncLocked() error {
	return s.dv.check("cuStreamSynchronize", s.dv.drv.API.CuStreamSynchronize(s.handle()))
}

// handle is the CUstream, 0 (the legacy default stream) for a nil Stream.
func (s *stream) handle() uintptr {
	if s == nil {
		return 0
	}
	return s.h
}

// copyToDeviceAsync queues a copy of n bytes from pinned host memory at
// offset off to dst on s. src must stay allocated until s is synchronised.
func (s *stream) copyToDeviceAsync(dst DevPtr, src *pinned, off, n int) error {
	return s.dv.Do(func() error { return s.copyHtoDAsyncLocked(dst, src, off, n) })
}

func (s *stream) copyHtoDAsyncLocked(dst DevPtr, src *pinned, off, n int) error {
	if n == 0 {
		return nil
	}
	_ = src.Bytes[off+n-1] // bounds check
	return s.dv.check("cuMemcpyHtoDAsync_v2", s.dv.drv.API.CuMemcpyHtoDAsync(uint64(dst), unsafe.Pointer(&src.Bytes[off]), uint64(n), s.handle()))
}

// copyFromDeviceAsync queues a copy of n bytes from src into pinned host
// memory at offset off on s.
func (s *stream) copyFromDeviceAsync(dst *pinned, off, n int, src DevPtr) error {
	return s.dv.Do(func() error { return s.copyDtoHAsyncLocked(dst, off, n, src) })
}

func (s *stream) copyDtoHAsyncLocked(dst *pinned, off, n int, src DevPtr) error {
	if n == 0 {
		return nil
	}
	_ = dst.Bytes[off+n-1]
	return s.dv.check("cuMemcpyDtoHAsync_v2", s.dv.drv.API.CuMemcpyDtoHAsync(unsafe.Pointer(&dst.Bytes[off]), uint64(src), uint64(n), s.handle()))
}

// memsetAsync queues setting n bytes at p to v.
func (s *stream) memsetAsync(p DevPtr, v byte, n int64) error {
	return s.dv.Do(func() error { return s.memsetLocked(p, v, n) })
}

func (s *stream) memsetLocked(p DevPtr, v byte, n int64) error {
	if n == 0 {
		return nil
	}
	return s.dv.check("cuMemsetD8Async", s.dv.drv.API.CuMemsetD8Async(uint64(p), v, uint64(n), s.handle()))
}
