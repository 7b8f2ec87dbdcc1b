package arrowgpu

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"gq/errs"
)

// dim3 is a grid or block shape.
type dim3 struct{ X, Y, Z uint32 }

// d1 is a one-dimensional shape.
func d1(n uint32) dim3 { return dim3{n, 1, 1} }

// kernelParams is cuLaunchKernel's kernelParams: an array of pointers, one
// per kernel argument, each pointing at the argument's value. The values
// live in one slot of 8 bytes each (every CUDA scalar gq passes fits; the
// device reads sizeof(T) bytes, the low ones on little-endian hosts). Both
// arrays are pinned for the duration of the launch so that the GC neither
// moves nor frees what the driver reads.
type kernelParams struct {
	vals  []uint64
	ptrs  []unsafe.Pointer
	sizes []int // bytes the kernel reads per argument, for tests and checks
	pin   runtime.Pinner
}

// newKernelParams encodes args: DevPtr, uintptr, int, int32, uint32, int64,
// uint64, float32, float64 or bool. Anything else is an Internal error (a
// bug in the caller, not bad input).
func newKernelParams(args ...any) (*kernelParams, error) {
	kp := &kernelParams{vals: make([]uint64, max(len(args), 1)), ptrs: make([]unsafe.Pointer, max(len(args), 1)), sizes: make([]int, len(args))}
	for i, a := range args {
		var v uint64
		size := 8
		switch x := a.(type) {
		case DevPtr:
			v = uint64(x)
		case uintptr:
			v = uint64(x)
		case int:
			v = uint64(int64(x))
		case int64:
			v = uint64(x)
		case uint64:
			v = x
		case int32:
			v, size = uint64(uint32(x)), 4
		case uint32:
			v, size = uint64(x), 4
		case float64:
			v = math.Float64bits(x)
		case float32:
			v, size = uint64(math.Float32bits(x)), 4
		case bool:
			size = 1
			if x {
				v = 1
			}
		default:
			return nil, errs.New(errs.Internal, "arrowgpu: kernel argument %d has unsupported type %T", i, a)
		}
		kp.vals[i], kp.sizes[i] = v, size
	}
	kp.pin.Pin(&kp.vals[0])
	kp.pin.Pin(&kp.ptrs[0])
	for i := range args {
		kp.ptrs[i] = unsafe.Pointer(&kp.vals[i])
	}
	return kp, nil
}

// pointer is the void** to pass as kernelParams (nil for no arguments).
func (kp *kernelParams) pointer() unsafe.Pointer {
	if len(kp.sizes) == 0 {
		return nil
	}
	return unsafe.Pointer(&kp.ptrs[0])
}

// release unpins the arrays; call after the launch returns.
func (kp *kernelParams) release() { kp.pin.Unpin() }

// kernel is a function of a loaded module.
type kernel struct {
	dv   *Device
	f    uintptr
	name string
}

// launch queues the kernel on s (nil: the default stream) with args as its
// parameters. It does not wait: errors inside the kernel surface at the next
// synchronisation.
func (k *kernel) launch(s *stream, grid, block dim3, shared uint32, args ...any) error {
	return k.dv.Do(func() error { return k.launchLocked(s, grid, block, shared, args...) })
}

func (k *kernel) launchLocked(s *stream, grid, block dim3, shared uint32, args ...any) error {
	if grid.X == 0 || block.X == 0 {
		return nil // nothing to do (empty input)
	}
	kp, err := newKernelParams(args...)
	if err != nil {
		return err
	}
	r := k.dv.drv.API.CuLaunchKernel(k.f, grid.X, max(grid.Y, 1), max(grid.Z, 1), block.X, max(block.Y, 1), max(block.Z, 1), shared, s.handle(), kp.pointer(), nil)
	runtime.KeepAlive(kp)
	kp.release()
	if err := k.dv.check("cuLaunchKernel "+k.name, r); err != nil {
		return err
	}
	return nil
}

// module is a loaded CUDA module.
type module struct {
	h   uintptr
	fns map[string]*kernel
}

// modCache holds the modules loaded on one device, by source key.
type modCache struct{ m map[string]*module }

func (c *modCache) unloadAll(dv *Device) {
	for _, m := range c.m {
		dv.drv.API.CuModuleUnload(m.h)
	}
	c.m = nil
}

// loadModuleLocked loads a CUBIN or PTX image (PTX must end in NUL).
func (dv *Device) loadModuleLocked(key string, image []byte) (*module, error) {
	dv.modMu.Lock()
	defer dv.modMu.Unlock()
	if m := dv.mods.m[key]; m != nil {
		return m, nil
	}
	m := &module{fns: map[string]*kernel{}}
	if err := dv.check("cuModuleLoadData", dv.drv.API.CuModuleLoadData(&m.h, unsafe.Pointer(&image[0]))); err != nil {
		return nil, err
	}
	runtime.KeepAlive(image)
	if dv.mods.m == nil {
		dv.mods.m = map[string]*module{}
	}
	dv.mods.m[key] = m
	return m, nil
}

// kernel returns the named function of m (a extern "C" name).
func (dv *Device) kernel(m *module, name string) (k *kernel, err error) {
	dv.modMu.Lock()
	k = m.fns[name]
	dv.modMu.Unlock()
	if k != nil {
		return k, nil
	}
	err = dv.Do(func() (e error) { k, e = dv.kernelLocked(m, name); return })
	return
}

func (dv *Device) kernelLocked(m *module, name string) (*kernel, error) {
	dv.modMu.Lock()
	defer dv.modMu.Unlock()
	if k := m.fns[name]; k != nil {
		return k, nil
	}
	k := &kernel{dv: dv, name: name}
	if err := dv.check(fmt.Sprintf("cuModuleGetFunction(%s)", name), dv.drv.API.CuModuleGetFunction(&k.f, m.h, name)); err != nil {
		return nil, err
	}
	m.fns[name] = k
	return k, nil
}
