package arrowgpu

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

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

// Arch is the NVRTC architecture name for the device, e.g. "sm_90".
func (i Info) Arch() string { return fmt.Sprintf("sm_%d%d", i.Major, i.Minor) }

func (i Info) String() string {
	return fmt.Sprintf("GPU %d: %s (compute %d.%d, %d SMs, %.1f GiB)", i.Ordinal, i.Name, i.Major, i.Minor, i.SMs, float64(i.TotalMemory)/(1<<30))
}

// CUdevice_attribute values gq reads.
const (
	attrMultiprocessorCount = 16
	attrComputeMajor        = 75
	attrComputeMinor        = 76
)

// Device is one GPU's primary context and the goroutine that owns it.
// CUDA makes a context current per OS thread, so every driver call for this
// device runs on one goroutine locked to one OS thread (Do); the rest of gq
// may call Device methods from any goroutine.
type Device struct {
	drv  *Driver
	info Info
	dev  int32
	ctx  uintptr

	work chan func()
	mu   sync.Mutex // guards closed
	// closed is set by Close; later calls fail instead of blocking.
	closed  bool
	workers sync.WaitGroup

	modMu   sync.Mutex // guards mods and every Module's fns
	mods    modCache   // loaded modules by source key
	builtin atomic.Pointer[Module]

	calls  atomic.Int64 // Do calls: trips to a device thread, each waited for
	waitNS atomic.Int64 // time Do calls waited for a free device thread
}

// ThreadWait is the time Do calls have waited so far for a free device
// thread (all deviceWorkers busy, most in stream synchronisations): a
// queueing delay that EXPLAIN ANALYZE shows per query.
func (dv *Device) ThreadWait() time.Duration { return time.Duration(dv.waitNS.Load()) }

// Calls is the number of Do calls so far: each is a trip to a device
// thread and back, most with a stream sync — the fixed cost of an
// operation, which EXPLAIN ANALYZE shows per operator.
func (dv *Device) Calls() int64 { return dv.calls.Load() }

// deviceWorkers is the number of OS threads that run driver calls. More
// than one, so that one queue's long copy (a download's host side runs on
// the thread) does not hold up another queue's launches.
const deviceWorkers = 8

// Open retains the primary context of device ordinal and starts its worker.
func (d *Driver) Open(ordinal int) (*Device, error) {
	if ordinal < 0 || ordinal >= d.devices {
		return nil, unavailable(ErrNoDevice, "device %d requested, %d visible", ordinal, d.devices)
	}
	dv := &Device{drv: d, work: make(chan func())}
	started := make(chan error, 1)
	dv.workers.Add(1)
	go dv.worker(ordinal, true, started)
	if err := <-started; err != nil {
		return nil, err
	}
	for range deviceWorkers - 1 {
		dv.workers.Add(1)
		go dv.worker(ordinal, false, started)
		if err := <-started; err != nil {
			dv.Close()
			return nil, err
		}
	}
	return dv, nil
}

// worker owns an OS thread on which the context is current. The first
// retains the primary context; when the workers are done it unloads the
// modules and releases the context.
func (dv *Device) worker(ordinal int, first bool, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if first {
		if err := dv.init(ordinal); err != nil {
			dv.workers.Done()
			started <- err
			return
		}
	} else if err := dv.drv.err("cuCtxSetCurrent", dv.drv.api.cuCtxSetCurrent(dv.ctx)); err != nil {
		dv.workers.Done()
		started <- unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
		return
	}
	started <- nil
	for f := range dv.work {
		f()
	}
	dv.workers.Done()
	if first {
		dv.workers.Wait()
		dv.mods.unloadAll(dv)
		dv.drv.api.cuDevicePrimaryCtxRelease(dv.dev)
	}
}

// syncFlags are the context's scheduling flags by GQ_CUDA_SYNC: how a
// device thread waits in a stream synchronisation. The driver's default
// (auto: with one context and more cores than that, spin) keeps a core
// busy per waiting thread — up to deviceWorkers of them — which the host
// side of a query may want; yield spins but gives way, blocking sleeps
// (each wait then costs a wake-up). For A/B runs on a GPU machine.
var syncFlags = map[string]uint32{"auto": 0, "spin": 1, "yield": 2, "blocking": 4}

func (dv *Device) init(ordinal int) error {
	info, dev, err := dv.drv.deviceInfo(ordinal)
	if err != nil {
		return err
	}
	dv.info, dv.dev = info, dev
	a := &dv.drv.api
	if mode := os.Getenv("GQ_CUDA_SYNC"); mode != "" {
		flag, ok := syncFlags[mode]
		if !ok {
			return unavailable(ErrNoDevice, "GQ_CUDA_SYNC=%s: want auto, spin, yield or blocking", mode)
		}
		if err := dv.drv.err("cuDevicePrimaryCtxSetFlags", a.cuDevicePrimaryCtxSetFlags(dv.dev, flag)); err != nil {
			return unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
		}
	}
	if err := dv.drv.err("cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain(&dv.ctx, dv.dev)); err != nil {
		return unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
	}
	if err := dv.drv.err("cuCtxSetCurrent", a.cuCtxSetCurrent(dv.ctx)); err != nil {
		a.cuDevicePrimaryCtxRelease(dv.dev)
		return unavailable(ErrNoDevice, "%s: %v", dv.info.Name, err)
	}
	return nil
}

// Info describes the device.
func (dv *Device) Info() Info { return dv.info }

// DeviceInfo describes device ordinal; it needs no context.
func (d *Driver) DeviceInfo(ordinal int) (Info, error) {
	info, _, err := d.deviceInfo(ordinal)
	return info, err
}

func (d *Driver) deviceInfo(ordinal int) (Info, int32, error) {
	a := &d.api
	var dev int32
	if err := d.err("cuDeviceGet", a.cuDeviceGet(&dev, int32(ordinal))); err != nil {
		return Info{}, 0, unavailable(ErrNoDevice, "%v", err)
	}
	name := make([]byte, 256)
	if err := d.err("cuDeviceGetName", a.cuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return Info{}, 0, unavailable(ErrNoDevice, "%v", err)
	}
	var major, minor, sms int32
	for _, q := range []struct {
		attr int32
		v    *int32
	}{{attrComputeMajor, &major}, {attrComputeMinor, &minor}, {attrMultiprocessorCount, &sms}} {
		if err := d.err("cuDeviceGetAttribute", a.cuDeviceGetAttribute(q.v, q.attr, dev)); err != nil {
			return Info{}, 0, unavailable(ErrNoDevice, "%v", err)
		}
	}
	var total uint64
	if err := d.err("cuDeviceTotalMem_v2", a.cuDeviceTotalMem(&total, dev)); err != nil {
		return Info{}, 0, unavailable(ErrNoDevice, "%v", err)
	}
	return Info{Ordinal: ordinal, Name: trimNUL(name), Major: int(major), Minor: int(minor), TotalMemory: int64(total), SMs: int(sms)}, dev, nil
}

// Do runs f on one of the device's threads, where its context is current,
// and returns f's error. f must not call Do (it could wait for itself);
// code already inside Do uses the unexported *Locked helpers. Calls from
// different goroutines may run at the same time on different threads;
// each Queue is used by one goroutine at a time.
func (dv *Device) Do(f func() error) error {
	dv.calls.Add(1)
	dv.mu.Lock()
	if dv.closed {
		dv.mu.Unlock()
		return errs.New(errs.Internal, "arrowgpu: device %d used after Close", dv.info.Ordinal)
	}
	ch := make(chan error, 1)
	queued := time.Now()
	// Sending under the lock orders it before Close's close(work).
	dv.work <- func() {
		dv.waitNS.Add(int64(time.Since(queued)))
		// A panic here (a binding bug) would kill the process from the
		// worker goroutine; report it to the caller instead.
		defer func() {
			if r := recover(); r != nil {
				ch <- errs.New(errs.Internal, "arrowgpu: panic on the device thread: %v", r)
			}
		}()
		ch <- f()
	}
	dv.mu.Unlock()
	return <-ch
}

// Close unloads modules, releases the primary context and stops the worker.
// Memory and streams must be freed first.
func (dv *Device) Close() {
	dv.mu.Lock()
	if dv.closed {
		dv.mu.Unlock()
		return
	}
	dv.closed = true
	close(dv.work)
	dv.mu.Unlock()
	dv.workers.Wait()
}

// check turns a CUresult into an error of kind Execution (ResourcesExhausted
// for out of memory) that unwraps to *CUDAError.
func (dv *Device) check(call string, r cuResult) error {
	err := dv.drv.err(call, r)
	if err == nil {
		return nil
	}
	if err.(*CUDAError).OutOfMemory() {
		return errs.Wrap(errs.ResourcesExhausted, err, "GPU %d", dv.info.Ordinal)
	}
	return errs.Wrap(errs.Execution, err, "GPU %d", dv.info.Ordinal)
}
