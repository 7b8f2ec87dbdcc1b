package arrowgpu

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"gq/arrowgpu/internal/cuda"
	"gq/errs"
)

// Info describes one device.
type Info struct {
	Ordinal     int
	Name        string
	Major       int   // compute capability
	Minor       int   //
	TotalMemory int64 // bytes
	SMs         int   // multiprocessors
}

func (i Info) String() string {
	return fmt.Sprintf("GPU %d: %s (compute %d.%d, %d SMs, %.1f GiB)", i.Ordinal, i.Name, i.Major, i.Minor, i.SMs, float64(i.TotalMemory)/(1<<30))
}

// CUdevice_attribute values gq reads.
const (
	attrMultiprocessorCount = 16
	attrComputeMajor        = 75
	attrComputeMinor        = 76
)

// Device is one GPU's primary context. CUDA makes a context current per
// OS thread, so a driver call for this device runs inside Do, which makes
// the context current on the calling goroutine's thread and keeps the
// goroutine there until it returns; the rest of gq may call Device
// methods from any goroutine.
type Device struct {
	drv  *Driver
	info Info
	dev  int32
	ctx  uintptr

	// mu is held shared by every Do and exclusively by Close, which
	// waits for the calls under way and fails later ones.
	mu     sync.RWMutex
	closed bool

	modMu   sync.Mutex // guards mods and every Module's fns
	mods    modCache   // loaded modules by source key
	builtin atomic.Pointer[module]

	calls atomic.Int64 // Do calls
}

// Calls is the number of Do calls so far: most end in a stream sync —
// the fixed cost of an operation, which EXPLAIN ANALYZE shows per
// operator.
func (dv *Device) Calls() int64 { return dv.calls.Load() }

// Open retains the primary context of device ordinal.
func (d *Driver) Open(ordinal int) (*Device, error) {
	if ordinal < 0 || ordinal >= d.Devices {
		return nil, cuda.Unavailable(ErrNoDevice, "device %d requested, %d visible", ordinal, d.Devices)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dv := &Device{drv: d}
	if err := dv.init(ordinal); err != nil {
		return nil, err
	}
	return dv, nil
}

// syncFlags are the context's scheduling flags by Config.CUDASync
// (GQ_CUDA_SYNC at gq's edge): how a
// thread waits in a stream synchronisation. The driver's default
// (auto: with one context and more cores than that, spin) keeps a core
// busy per waiting thread — one per queue waiting — which the host
// side of a query may want; yield spins but gives way, blocking sleeps
// (each wait then costs a wake-up). For A/B runs on a GPU machine.
var syncFlags = map[string]uint32{"auto": 0, "spin": 1, "yield": 2, "blocking": 4}

func (dv *Device) init(ordinal int) error {
	info, dev, err := dv.drv.deviceInfo(ordinal)
	if err != nil {
		return err
	}
	dv.info, dv.dev = info, dev
	a := &dv.drv.API
	if mode := Configured().CUDASync; mode != "" {
		flag, ok := syncFlags[mode]
		if !ok {
			return cuda.Unavailable(ErrNoDevice, "GQ_CUDA_SYNC=%s: want auto, spin, yield or blocking", mode)
		}
		if err := dv.drv.Err("cuDevicePrimaryCtxSetFlags", a.CuDevicePrimaryCtxSetFlags(dv.dev, flag)); err != nil {
			return cuda.Unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
		}
	}
	if err := dv.drv.Err("cuDevicePrimaryCtxRetain", a.CuDevicePrimaryCtxRetain(&dv.ctx, dv.dev)); err != nil {
		return cuda.Unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
	}
	if err := dv.drv.Err("cuCtxSetCurrent", a.CuCtxSetCurrent(dv.ctx)); err != nil {
		a.CuDevicePrimaryCtxRelease(dv.dev)
		return cuda.Unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
	}
	return nil
}

// Info describes the device.
func (dv *Device) Info() Info { return dv.info }

func (d *Driver) deviceInfo(ordinal int) (Info, int32, error) {
	a := &d.API
	var dev int32
	if err := d.Err("cuDeviceGet", a.CuDeviceGet(&dev, int32(ordinal))); err != nil {
		return Info{}, 0, cuda.Unavailable(ErrNoDevice, "%v", err)
	}
	name := make([]byte, 256)
	if err := d.Err("cuDeviceGetName", a.CuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return Info{}, 0, cuda.Unavailable(ErrNoDevice, "%v", err)
	}
	var major, minor, sms int32
	for _, q := range []struct {
		attr int32
		v    *int32
	}{{attrComputeMajor, &major}, {attrComputeMinor, &minor}, {attrMultiprocessorCount, &sms}} {
		if err := d.Err("cuDeviceGetAttribute", a.CuDeviceGetAttribute(q.v, q.attr, dev)); err != nil {
			return Info{}, 0, cuda.Unavailable(ErrNoDevice, "%v", err)
		}
	}
	var total uint64
	if err := d.Err("cuDeviceTotalMem_v2", a.CuDeviceTotalMem(&total, dev)); err != nil {
		return Info{}, 0, cuda.Unavailable(ErrNoDevice, "%v", err)
	}
	return Info{Ordinal: ordinal, Name: cuda.TrimNUL(name), Major: int(major), Minor: int(minor), TotalMemory: int64(total), SMs: int(sms)}, dev, nil
}

// Do runs f with the device's context current on this goroutine's OS
// thread (locked to it meanwhile) and returns f's error. f must not call
// Do; code already inside Do uses the unexported *Locked helpers. Calls
// from different goroutines run at the same time on their own threads;
// each Queue is used by one goroutine at a time.
//
// The calling thread runs the driver calls itself: handing each call to
// a pool of device threads and back cost 28 µs on the 2-core development
// machine (BenchmarkDeviceCall), and queries waited up to 17 ms (TPC-H
// q21 at SF10 on the H200) for one of the 8 threads to be free.
func (dv *Device) Do(f func() error) (err error) {
	dv.calls.Add(1)
	dv.mu.RLock()
	defer dv.mu.RUnlock()
	if dv.closed {
		return errs.New(errs.Internal, "arrowgpu: device %d used after Close", dv.info.Ordinal)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// A panic here (a binding bug) is reported as the call's error, as
	// when the calls ran on device threads of their own.
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.Internal, "arrowgpu: panic in a device call: %v", r)
		}
	}()
	if err := dv.check("cuCtxSetCurrent", dv.drv.API.CuCtxSetCurrent(dv.ctx)); err != nil {
		return err
	}
	return f()
}

// Close unloads modules and releases the primary context, once the calls
// under way are done. Memory and streams must be freed first.
func (dv *Device) Close() {
	dv.mu.Lock()
	defer dv.mu.Unlock()
	if dv.closed {
		return
	}
	dv.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if dv.drv.API.CuCtxSetCurrent(dv.ctx) == 0 {
		dv.mods.unloadAll(dv)
	}
	dv.drv.API.CuDevicePrimaryCtxRelease(dv.dev)
}

// check turns a CUresult into an error of kind Execution (ResourcesExhausted
// for out of memory) that unwraps to *CUDAError.
func (dv *Device) check(call string, r cuda.CuResult) error {
	err := dv.drv.Err(call, r)
	if err == nil {
		return nil
	}
	if err.(*CUDAError).OutOfMemory() {
		return errs.Wrap(errs.ResourcesExhausted, err, "GPU %d", dv.info.Ordinal)
	}
	return errs.Wrap(errs.Execution, err, "GPU %d", dv.info.Ordinal)
}
