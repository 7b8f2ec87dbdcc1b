package cuda

import (
	"errors"
	"fmt"

	"gq/errs"
)

// The reasons a GPU cannot be used. Errors returned by Load, LoadNVRTC,
// Probe and Open wrap one of them (errors.Is), carry kind errs.Unsupported,
// and name the library or device in their message so `--device gpu` can say
// exactly what is missing.
var (
	// ErrNoDriver: libcuda.so.1 (the NVIDIA driver) could not be loaded or
	// lacks a symbol gq needs.
	ErrNoDriver = errors.New("CUDA driver libcuda.so.1 not available")
	// ErrNoDevice: the driver loaded but reports no usable device (none
	// present, CUDA_VISIBLE_DEVICES empty, or cuInit failed).
	ErrNoDevice = errors.New("no CUDA device")
	// ErrNoNVRTC: no NVRTC library (libnvrtc.so.13, .12, …) could be loaded;
	// gq compiles its kernels at run time and cannot run without it.
	ErrNoNVRTC = errors.New("NVRTC (libnvrtc.so) not available")
)

// unavailable wraps a sentinel with detail as an errs.Unsupported error.
func Unavailable(sentinel error, format string, args ...any) error {
	return errs.Wrap(errs.Unsupported, fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...)), "GPU unavailable")
}

// CUDAError is a failed driver call: the function, the CUresult and the
// driver's name and description for it.
type CUDAError struct {
	Call   string
	Code   int
	Name   string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	String string // the driver's description
}

func (e *CUDAError) Error() string {
	return fmt.Sprintf("%s: %s (%d): %s", e.Call, e.Name, e.Code, e.String)
}

// Sticky reports whether the error poisons the context (the device must be
// abandoned and work fall back to CPU): illegal address, launch failure,
// misaligned address, illegal instruction and similar faults.
func (e *CUDAError) Sticky() bool {
	switch e.Code {
	case 700, 701, 702, 714, 715, 716, 717, 718, 719:
		return true
	}
	return false
}

// OutOfMemory reports whether the call failed for lack of device memory.
func (e *CUDAError) OutOfMemory() bool { return e.Code == cudaErrorOutOfMemory }

const cudaErrorOutOfMemory = 2

// NVRTCError is a failed compilation: the NVRTC result and the program log.
type NVRTCError struct {
	Call string
	Code int
	Msg  string
	Log  string
}

func (e *NVRTCError) Error() string {
	if e.Log != "" {
		return fmt.Sprintf("%s: %s (%d)\n%s", e.Call, e.Msg, e.Code, e.Log)
	}
	return fmt.Sprintf("%s: %s (%d)", e.Call, e.Msg, e.Code)
}
