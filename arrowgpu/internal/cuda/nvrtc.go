package cuda

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// nvrtcAPI holds the NVRTC functions gq binds. Supported-architecture
// queries (NVRTC ≥ 11.2) are optional.
type nvrtcAPI struct {
	nvrtcGetErrorString       func(r int32) string
	nvrtcVersion              func(major, minor *int32) int32
	nvrtcCreateProgram        func(prog *uintptr, src string, name string, nHeaders int32, headers, includeNames unsafe.Pointer) int32
	nvrtcCompileProgram       func(prog uintptr, nOptions int32, options unsafe.Pointer) int32
	nvrtcGetProgramLogSize    func(prog uintptr, n *uint64) int32
	nvrtcGetProgramLog        func(prog uintptr, log *byte) int32
	nvrtcGetPTXSize           func(prog uintptr, n *uint64) int32
	nvrtcGetPTX               func(prog uintptr, ptx *byte) int32
	nvrtcGetCUBINSize         func(prog uintptr, n *uint64) int32
	nvrtcGetCUBIN             func(prog uintptr, cubin *byte) int32
	nvrtcDestroyProgram       func(prog *uintptr) int32
	nvrtcGetNumSupportedArchs func(n *int32) int32
	nvrtcGetSupportedArchs    func(archs *int32) int32
}

func (a *nvrtcAPI) required() map[string]any {
	return map[string]any{
		"nvrtcGetErrorString":    &a.nvrtcGetErrorString,
		"nvrtcVersion":           &a.nvrtcVersion,
		"nvrtcCreateProgram":     &a.nvrtcCreateProgram,
		"nvrtcCompileProgram":    &a.nvrtcCompileProgram,
		"nvrtcGetProgramLogSize": &a.nvrtcGetProgramLogSize,
		"nvrtcGetProgramLog":     &a.nvrtcGetProgramLog,
		"nvrtcGetPTXSize":        &a.nvrtcGetPTXSize,
		"nvrtcGetPTX":            &a.nvrtcGetPTX,
		"nvrtcGetCUBINSize":      &a.nvrtcGetCUBINSize,
		"nvrtcGetCUBIN":          &a.nvrtcGetCUBIN,
		"nvrtcDestroyProgram":    &a.nvrtcDestroyProgram,
	}
}

// nvrtcErrorInvalidOption is NVRTC_ERROR_INVALID_OPTION (e.g. an unknown
// --gpu-architecture).
const nvrtcErrorInvalidOption = 5

// Compiler is the loaded NVRTC library.
type Compiler struct {
	api          nvrtcAPI
	path         string
	major, minor int
	Archs        []int // supported sm_XY as XY, nil when NVRTC cannot say
}

var (
	nvrtcOnce sync.Once
	nvrtcInst *Compiler
	nvrtcErr  error
)

// LoadNVRTC loads NVRTC once per process; its error wraps ErrNoNVRTC and
// lists where it looked.
func LoadNVRTC() (*Compiler, error) {
	nvrtcOnce.Do(func() { nvrtcInst, nvrtcErr = loadNVRTC(nvrtcCandidates()) })
	return nvrtcInst, nvrtcErr
}

func loadNVRTC(cands []string) (*Compiler, error) {
	h, path, err := openFirst(cands)
	if err != nil {
		return nil, Unavailable(ErrNoNVRTC, "%v (set GQ_LIBNVRTC to its path)", err)
	}
	c := &Compiler{path: path}
	if err := bind(h, c.api.required()); err != nil {
		return nil, Unavailable(ErrNoNVRTC, "%s: %v", path, err)
	}
	var ma, mi int32
	if r := c.api.nvrtcVersion(&ma, &mi); r != 0 {
		return nil, Unavailable(ErrNoNVRTC, "%s: nvrtcVersion failed (%d)", path, r)
	}
	c.major, c.minor = int(ma), int(mi)
	var n int32
	opt := map[string]any{"nvrtcGetNumSupportedArchs": &c.api.nvrtcGetNumSupportedArchs, "nvrtcGetSupportedArchs": &c.api.nvrtcGetSupportedArchs}
	if bind(h, opt) == nil && c.api.nvrtcGetNumSupportedArchs(&n) == 0 && n > 0 {
		a := make([]int32, n)
		if c.api.nvrtcGetSupportedArchs(&a[0]) == 0 {
			for _, v := range a {
				c.Archs = append(c.Archs, int(v))
			}
		}
	}
	return c, nil
}

// Path is the library that loaded; Version is NVRTC's "major.minor".
func (c *Compiler) Path() string    { return c.path }
func (c *Compiler) Version() string { return fmt.Sprintf("%d.%d", c.major, c.minor) }

// target picks what to compile for a device of compute capability cc
// (major*10+minor) given the architectures NVRTC supports (nil: unknown):
// a CUBIN for sm_cc when supported, else PTX for the newest supported
// compute_XY not above cc, which the driver JIT-compiles for the device.
func Target(cc int, supported []int) (arch string, cubin bool) {
	if supported == nil || slices.Contains(supported, cc) {
		return fmt.Sprintf("sm_%d", cc), true
	}
	best := 0
	for _, a := range supported {
		if a <= cc && a > best {
			best = a
		}
	}
	if best == 0 {
		best = cc // let NVRTC say what is wrong
	}
	return fmt.Sprintf("compute_%d", best), false
}

// compileOptions are the NVRTC options for an architecture. --fmad=false
// keeps float results bit-identical to the CPU twins (no fused multiply-add).
func CompileOptions(arch string) []string {
	return []string{"--gpu-architecture=" + arch, "--fmad=false", "-default-device"}
}

// Compile compiles CUDA C source for compute capability cc and returns the
// image to load (CUBIN, or NUL-terminated PTX), the architecture used and
// whether it is a CUBIN. A compile error carries NVRTC's program log.
func (c *Compiler) Compile(src, name string, cc int) (image []byte, arch string, cubin bool, err error) {
	arch, cubin = Target(cc, c.Archs)
	image, err = c.compileFor(src, name, arch, cubin)
	if ne, ok := err.(*NVRTCError); ok && cubin && ne.Code == nvrtcErrorInvalidOption {
		// NVRTC older than the device without the archs query: PTX for cc.
		arch, cubin = fmt.Sprintf("compute_%d", cc), false
		image, err = c.compileFor(src, name, arch, false)
	}
	return image, arch, cubin, err
}

func (c *Compiler) compileFor(src, name, arch string, cubin bool) ([]byte, error) {
	var prog uintptr
	if r := c.api.nvrtcCreateProgram(&prog, src, name, 0, nil, nil); r != 0 {
		return nil, c.err("nvrtcCreateProgram", r, "")
	}
	defer c.api.nvrtcDestroyProgram(&prog)
	opts := CompileOptions(arch)
	cs := make([][]byte, len(opts))
	ptrs := make([]*byte, len(opts))
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, o := range opts {
		cs[i] = cString(o)
		pin.Pin(&cs[i][0])
		ptrs[i] = &cs[i][0]
	}
	pin.Pin(&ptrs[0])
	if r := c.api.nvrtcCompileProgram(prog, int32(len(opts)), unsafe.Pointer(&ptrs[0])); r != 0 {
		return nil, c.err("nvrtcCompileProgram("+name+", "+arch+")", r, c.log(prog))
	}
	runtime.KeepAlive(cs)
	var n uint64
	if cubin {
		if r := c.api.nvrtcGetCUBINSize(prog, &n); r != 0 {
			return nil, c.err("nvrtcGetCUBINSize", r, "")
		}
		img := make([]byte, n)
		if r := c.api.nvrtcGetCUBIN(prog, &img[0]); r != 0 {
			return nil, c.err("nvrtcGetCUBIN", r, "")
		}
		return img, nil
	}
	if r := c.api.nvrtcGetPTXSize(prog, &n); r != 0 {
		return nil, c.err("nvrtcGetPTXSize", r, "")
	}
	img := make([]byte, n+1) // size includes the NUL; one more keeps it terminated
	if r := c.api.nvrtcGetPTX(prog, &img[0]); r != 0 {
		return nil, c.err("nvrtcGetPTX", r, "")
	}
	return img, nil
}

func (c *Compiler) log(prog uintptr) string {
	var n uint64
	if c.api.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return ""
	}
	b := make([]byte, n)
	if c.api.nvrtcGetProgramLog(prog, &b[0]) != 0 {
		return ""
	}
	return TrimNUL(b)
}

func (c *Compiler) err(call string, r int32, log string) error {
	return &NVRTCError{Call: call, Code: int(r), Msg: c.api.nvrtcGetErrorString(r), Log: log}
}
