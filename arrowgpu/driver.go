package arrowgpu

import (
	"fmt"
	"sync"
	"unsafe"
)

// cuResult is CUresult; 0 is CUDA_SUCCESS.
type cuResult int32

// driverAPI holds the driver functions gq binds. The _v2 names are the
// ones the CUDA headers map the plain names to; cuCtxCreate is avoided
// (its signature changed in CUDA 12/13): gq uses the primary context.
type driverAPI struct {
	cuInit                     func(flags uint32) cuResult
	cuDriverGetVersion         func(v *int32) cuResult
	cuGetErrorName             func(r cuResult, s **byte) cuResult
	cuGetErrorString           func(r cuResult, s **byte) cuResult
	cuDeviceGetCount           func(n *int32) cuResult
	cuDeviceGet                func(d *int32, ordinal int32) cuResult
	cuDeviceGetName            func(name *byte, n int32, d int32) cuResult
	cuDeviceGetAttribute       func(v *int32, attr int32, d int32) cuResult
	cuDeviceTotalMem           func(bytes *uint64, d int32) cuResult
	cuDevicePrimaryCtxRetain   func(ctx *uintptr, d int32) cuResult
	cuDevicePrimaryCtxRelease  func(d int32) cuResult
	cuDevicePrimaryCtxSetFlags func(d int32, flags uint32) cuResult
	cuCtxSetCurrent            func(ctx uintptr) cuResult
	cuCtxSynchronize           func() cuResult
	cuMemGetInfo               func(free, total *uint64) cuResult
	cuMemAlloc                 func(p *uint64, size uint64) cuResult
	cuMemFree                  func(p uint64) cuResult
	cuMemAllocHost             func(p *unsafe.Pointer, size uint64) cuResult
	cuMemFreeHost              func(p unsafe.Pointer) cuResult
	cuMemcpyHtoD               func(dst uint64, src unsafe.Pointer, size uint64) cuResult
	cuMemcpyDtoH               func(dst unsafe.Pointer, src uint64, size uint64) cuResult
	cuMemcpyDtoD               func(dst, src uint64, size uint64) cuResult
	cuMemcpyHtoDAsync          func(dst uint64, src unsafe.Pointer, size uint64, stream uintptr) cuResult
	cuMemcpyDtoHAsync          func(dst unsafe.Pointer, src uint64, size uint64, stream uintptr) cuResult
	cuMemsetD8Async            func(dst uint64, v uint8, n uint64, stream uintptr) cuResult
	cuStreamCreate             func(s *uintptr, flags uint32) cuResult
	cuStreamDestroy            func(s uintptr) cuResult
	cuStreamSynchronize        func(s uintptr) cuResult
	cuEventCreate              func(e *uintptr, flags uint32) cuResult
	cuEventRecord              func(e, stream uintptr) cuResult
	cuEventSynchronize         func(e uintptr) cuResult
	cuEventElapsedTime         func(ms *float32, start, end uintptr) cuResult
	cuEventDestroy             func(e uintptr) cuResult
	cuModuleLoadData           func(m *uintptr, image unsafe.Pointer) cuResult
	cuModuleUnload             func(m uintptr) cuResult
	cuModuleGetFunction        func(f *uintptr, m uintptr, name string) cuResult
	cuLaunchKernel             func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) cuResult
}

// symbols maps each C symbol to the field it binds.
func (a *driverAPI) symbols() map[string]any {
	return map[string]any{
		"cuInit":                        &a.cuInit,
		"cuDriverGetVersion":            &a.cuDriverGetVersion,
		"cuGetErrorName":                &a.cuGetErrorName,
		"cuGetErrorString":              &a.cuGetErrorString,
		"cuDeviceGetCount":              &a.cuDeviceGetCount,
		"cuDeviceGet":                   &a.cuDeviceGet,
		"cuDeviceGetName":               &a.cuDeviceGetName,
		"cuDeviceGetAttribute":          &a.cuDeviceGetAttribute,
		"cuDeviceTotalMem_v2":           &a.cuDeviceTotalMem,
		"cuDevicePrimaryCtxRetain":      &a.cuDevicePrimaryCtxRetain,
		"cuDevicePrimaryCtxRelease_v2":  &a.cuDevicePrimaryCtxRelease,
		"cuDevicePrimaryCtxSetFlags_v2": &a.cuDevicePrimaryCtxSetFlags,
		"cuCtxSetCurrent":               &a.cuCtxSetCurrent,
		"cuCtxSynchronize":              &a.cuCtxSynchronize,
		"cuMemGetInfo_v2":               &a.cuMemGetInfo,
		"cuMemAlloc_v2":                 &a.cuMemAlloc,
		"cuMemFree_v2":                  &a.cuMemFree,
		"cuMemAllocHost_v2":             &a.cuMemAllocHost,
		"cuMemFreeHost":                 &a.cuMemFreeHost,
		"cuMemcpyHtoD_v2":               &a.cuMemcpyHtoD,
		"cuMemcpyDtoH_v2":               &a.cuMemcpyDtoH,
		"cuMemcpyDtoD_v2":               &a.cuMemcpyDtoD,
		"cuMemcpyHtoDAsync_v2":          &a.cuMemcpyHtoDAsync,
		"cuMemcpyDtoHAsync_v2":          &a.cuMemcpyDtoHAsync,
		"cuMemsetD8Async":               &a.cuMemsetD8Async,
		"cuStreamCreate":                &a.cuStreamCreate,
		"cuStreamDestroy_v2":            &a.cuStreamDestroy,
		"cuStreamSynchronize":           &a.cuStreamSynchronize,
		"cuEventCreate":                 &a.cuEventCreate,
		"cuEventRecord":                 &a.cuEventRecord,
		"cuEventSynchronize":            &a.cuEventSynchronize,
		"cuEventElapsedTime":            &a.cuEventElapsedTime,
		"cuEventDestroy_v2":             &a.cuEventDestroy,
		"cuModuleLoadData":              &a.cuModuleLoadData,
		"cuModuleUnload":                &a.cuModuleUnload,
		"cuModuleGetFunction":           &a.cuModuleGetFunction,
		"cuLaunchKernel":                &a.cuLaunchKernel,
	}
}

// Driver is the loaded and initialised CUDA driver.
type Driver struct {
	api     driverAPI
	path    string // the library that loaded
	version int    // e.g. 12040 for CUDA 12.4
	devices int
}

var (
	driverOnce sync.Once
	driverInst *Driver
	driverErr  error
)

// Load loads libcuda.so.1 and calls cuInit once per process. Its error
// wraps ErrNoDriver (library or symbol missing) or ErrNoDevice (cuInit
// failed or no device) and says which.
func Load() (*Driver, error) {
	driverOnce.Do(func() { driverInst, driverErr = loadDriver(driverCandidates()) })
	return driverInst, driverErr
}

func loadDriver(cands []string) (*Driver, error) {
	h, path, err := openFirst(cands)
	if err != nil {
		return nil, unavailable(ErrNoDriver, "%v", err)
	}
	d := &Driver{path: path}
	if err := bind(h, d.api.symbols()); err != nil {
		return nil, unavailable(ErrNoDriver, "%s: %v (driver too old?)", path, err)
	}
	if r := d.api.cuInit(0); r != 0 {
		return nil, unavailable(ErrNoDevice, "%v", d.err("cuInit", r))
	}
	var v, n int32
	if r := d.api.cuDriverGetVersion(&v); r != 0 {
		return nil, unavailable(ErrNoDriver, "%v", d.err("cuDriverGetVersion", r))
	}
	if r := d.api.cuDeviceGetCount(&n); r != 0 {
		return nil, unavailable(ErrNoDevice, "%v", d.err("cuDeviceGetCount", r))
	}
	if n == 0 {
		return nil, unavailable(ErrNoDevice, "driver %s (CUDA %d.%d) reports 0 devices", path, v/1000, v%1000/10)
	}
	d.version, d.devices = int(v), int(n)
	return d, nil
}

// Path is the driver library that was loaded.
func (d *Driver) Path() string { return d.path }

// Version is the CUDA version the driver supports, as "13.0".
func (d *Driver) Version() string { return fmt.Sprintf("%d.%d", d.version/1000, d.version%1000/10) }

// DeviceCount is the number of visible devices (at least 1).
func (d *Driver) DeviceCount() int { return d.devices }

// err turns a CUresult into a *CUDAError (nil for success).
func (d *Driver) err(call string, r cuResult) error {
	if r == 0 {
		return nil
	}
	e := &CUDAError{Call: call, Code: int(r), Name: "CUDA_ERROR_UNKNOWN", String: "unknown error"}
	var p *byte
	if d.api.cuGetErrorName != nil && d.api.cuGetErrorName(r, &p) == 0 {
		e.Name = goString(p)
	}
	if d.api.cuGetErrorString != nil && d.api.cuGetErrorString(r, &p) == 0 {
		e.String = goString(p)
	}
	return e
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cString returns s as NUL-terminated bytes (the caller keeps it alive).
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// trimNUL returns the bytes before the first NUL.
func trimNUL(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

type missingSymbol struct {
	name string
	err  error
}

func (e *missingSymbol) Error() string { return "symbol " + e.name + " missing: " + e.err.Error() }
