package cuda

import (
	"fmt"
	"sync"
	"unsafe"
)

// cuResult is CUresult; 0 is CUDA_SUCCESS.
type CuResult int32

// driverAPI holds the driver functions gq binds. The _v2 names are the
// ones the CUDA headers map the plain names to; cuCtxCreate is avoided
// (its signature changed in CUDA 12/13): gq uses the primary context.
type driverAPI struct {
	cuInit                     func(flags uint32) CuResult
	cuDriverGetVersion         func(v *int32) CuResult
	cuGetErrorName             func(r CuResult, s **byte) CuResult
	cuGetErrorString           func(r CuResult, s **byte) CuResult
	cuDeviceGetCount           func(n *int32) CuResult
	CuDeviceGet                func(d *int32, ordinal int32) CuResult
	CuDeviceGetName            func(name *byte, n int32, d int32) CuResult
	CuDeviceGetAttribute       func(v *int32, attr int32, d int32) CuResult
	CuDeviceTotalMem           func(bytes *uint64, d int32) CuResult
	CuDevicePrimaryCtxRetain   func(ctx *uintptr, d int32) CuResult
	CuDevicePrimaryCtxRelease  func(d int32) CuResult
	CuDevicePrimaryCtxSetFlags func(d int32, flags uint32) CuResult
	CuCtxSetCurrent            func(ctx uintptr) CuResult
	cuCtxSynchronize           func() CuResult
	CuMemGetInfo               func(free, total *uint64) CuResult
	CuMemAlloc                 func(p *uint64, size uint64) CuResult
	CuMemFree                  func(p uint64) CuResult
	CuMemAllocHost             func(p *unsafe.Pointer, size uint64) CuResult
	CuMemFreeHost              func(p unsafe.Pointer) CuResult
	CuMemcpyHtoD               func(dst uint64, src unsafe.Pointer, size uint64) CuResult
	CuMemcpyDtoH               func(dst unsafe.Pointer, src uint64, size uint64) CuResult
	cuMemcpyDtoD               func(dst, src uint64, size uint64) CuResult
	CuMemcpyHtoDAsync          func(dst uint64, src unsafe.Pointer, size uint64, stream uintptr) CuResult
	CuMemcpyDtoHAsync          func(dst unsafe.Pointer, src uint64, size uint64, stream uintptr) CuResult
	CuMemsetD8Async            func(dst uint64, v uint8, n uint64, stream uintptr) CuResult
	CuStreamCreate             func(s *uintptr, flags uint32) CuResult
	CuStreamDestroy            func(s uintptr) CuResult
	CuStreamSynchronize        func(s uintptr) CuResult
	CuEventCreate              func(e *uintptr, flags uint32) CuResult
	CuEventRecord              func(e, stream uintptr) CuResult
	CuEventSynchronize         func(e uintptr) CuResult
	CuEventElapsedTime         func(ms *float32, start, end uintptr) CuResult
	CuEventDestroy             func(e uintptr) CuResult
	CuModuleLoadData           func(m *uintptr, image unsafe.Pointer) CuResult
	CuModuleUnload             func(m uintptr) CuResult
	CuModuleGetFunction        func(f *uintptr, m uintptr, name string) CuResult
	CuLaunchKernel             func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) CuResult
}

// symbols maps each C symbol to the field it binds.
func (a *driverAPI) symbols() map[string]any {
	return map[string]any{
		"cuInit":                        &a.cuInit,
		"cuDriverGetVersion":            &a.cuDriverGetVersion,
		"cuGetErrorName":                &a.cuGetErrorName,
		"cuGetErrorString":              &a.cuGetErrorString,
		"cuDeviceGetCount":              &a.cuDeviceGetCount,
		"cuDeviceGet":                   &a.CuDeviceGet,
		"cuDeviceGetName":               &a.CuDeviceGetName,
		"cuDeviceGetAttribute":          &a.CuDeviceGetAttribute,
		"cuDeviceTotalMem_v2":           &a.CuDeviceTotalMem,
		"cuDevicePrimaryCtxRetain":      &a.CuDevicePrimaryCtxRetain,
		"cuDevicePrimaryCtxRelease_v2":  &a.CuDevicePrimaryCtxRelease,
		"cuDevicePrimaryCtxSetFlags_v2": &a.CuDevicePrimaryCtxSetFlags,
		"cuCtxSetCurrent":               &a.CuCtxSetCurrent,
		"cuCtxSynchronize":              &a.cuCtxSynchronize,
		"cuMemGetInfo_v2":               &a.CuMemGetInfo,
		"cuMemAlloc_v2":                 &a.CuMemAlloc,
		"cuMemFree_v2":                  &a.CuMemFree,
		"cuMemAllocHost_v2":             &a.CuMemAllocHost,
		"cuMemFreeHost":                 &a.CuMemFreeHost,
		"cuMemcpyHtoD_v2":               &a.CuMemcpyHtoD,
		"cuMemcpyDtoH_v2":               &a.CuMemcpyDtoH,
		"cuMemcpyDtoD_v2":               &a.cuMemcpyDtoD,
		"cuMemcpyHtoDAsync_v2":          &a.CuMemcpyHtoDAsync,
		"cuMemcpyDtoHAsync_v2":          &a.CuMemcpyDtoHAsync,
		"cuMemsetD8Async":               &a.CuMemsetD8Async,
		"cuStreamCreate":                &a.CuStreamCreate,
		"cuStreamDestroy_v2":            &a.CuStreamDestroy,
		"cuStreamSynchronize":           &a.CuStreamSynchronize,
		"cuEventCreate":                 &a.CuEventCreate,
		"cuEventRecord":                 &a.CuEventRecord,
		"cuEventSynchronize":            &a.CuEventSynchronize,
		"cuEventElapsedTime":            &a.CuEventElapsedTime,
		"cuEventDestroy_v2":             &a.CuEventDestroy,
		"cuModuleLoadData":              &a.CuModuleLoadData,
		"cuModuleUnload":                &a.CuModuleUnload,
		"cuModuleGetFunction":           &a.CuModuleGetFunction,
		"cuLaunchKernel":                &a.CuLaunchKernel,
	}
}

// Driver is the loaded and initialised CUDA driver.
type Driver struct {
	API     driverAPI
	path    string // the library that loaded
	version int    // e.g. 12040 for CUDA 12.4
	Devices int
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
		return nil, Unavailable(ErrNoDriver, "%v", err)
	}
	d := &Driver{path: path}
	if err := bind(h, d.API.symbols()); err != nil {
		return nil, Unavailable(ErrNoDriver, "%s: %v (driver too old?)", path, err)
	}
	if r := d.API.cuInit(0); r != 0 {
		return nil, Unavailable(ErrNoDevice, "%v", d.Err("cuInit", r))
	}
	var v, n int32
	if r := d.API.cuDriverGetVersion(&v); r != 0 {
		return nil, Unavailable(ErrNoDriver, "%v", d.Err("cuDriverGetVersion", r))
	}
	if r := d.API.cuDeviceGetCount(&n); r != 0 {
		return nil, Unavailable(ErrNoDevice, "%v", d.Err("cuDeviceGetCount", r))
	}
	if n == 0 {
		return nil, Unavailable(ErrNoDevice, "driver %s (CUDA %d.%d) reports 0 devices", path, v/1000, v%1000/10)
	}
	d.version, d.Devices = int(v), int(n)
	return d, nil
}

// Path is the driver library that was loaded.
func (d *Driver) Path() string { return d.path }

// Version is the CUDA version the driver supports, as "13.0".
func (d *Driver) Version() string { return fmt.Sprintf("%d.%d", d.version/1000, d.version%1000/10) }

// DeviceCount is the number of visible devices (at least 1).
func (d *Driver) DeviceCount() int { return d.Devices }

// err turns a CUresult into a *CUDAError (nil for success).
func (d *Driver) Err(call string, r CuResult) error {
	if r == 0 {
		return nil
	}
	e := &CUDAError{Call: call, Code: int(r), Name: "CUDA_ERROR_UNKNOWN", String: "unknown error"}
	var p *byte
	if d.API.cuGetErrorName != nil && d.API.cuGetErrorName(r, &p) == 0 {
		e.Name = goString(p)
	}
	if d.API.cuGetErrorString != nil && d.API.cuGetErrorString(r, &p) == 0 {
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
func TrimNUL(b []byte) string {
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
