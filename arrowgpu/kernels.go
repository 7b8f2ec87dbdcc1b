package arrowgpu

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"sort"
	"strings"
	"sync"

	"gq/arrowgpu/internal/cuda"
)

//go:embed kernels/*.cu kernels/*.cuh
var kernelFS embed.FS

// builtinSource is every kernels/*.cu file, in name order, after
// kernels/common.cuh: one program, compiled once per device.
var builtinSource = sync.OnceValue(func() string {
	var b strings.Builder
	common, err := kernelFS.ReadFile("kernels/common.cuh")
	if err != nil {
		panic(err) // embedded at build time: cannot be missing
	}
	b.Write(common)
	ents, _ := kernelFS.ReadDir("kernels")
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".cu") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		src, _ := kernelFS.ReadFile("kernels/" + n)
		b.WriteString("\n// ---- " + n + " ----\n")
		b.Write(src)
	}
	return b.String()
})

// commonHeader is kernels/common.cuh, prepended to generated sources.
func commonHeader() string {
	b, _ := kernelFS.ReadFile("kernels/common.cuh")
	return string(b)
}

// module compiles src with NVRTC for this device (or takes the image from
// the disk cache) and loads it; a module is loaded once per device and
// source. Compilation runs outside Do.
func (dv *Device) module(src, name string) (*module, error) {
	sum := sha256.Sum256([]byte(src))
	key := hex.EncodeToString(sum[:])
	dv.modMu.Lock()
	m := dv.mods.m[key]
	dv.modMu.Unlock()
	if m != nil {
		return m, nil
	}
	image, err := dv.compile(src, name)
	if err != nil {
		return nil, err
	}
	err = dv.Do(func() (e error) { m, e = dv.loadModuleLocked(key, image); return })
	return m, err
}

// compile returns the image for src, from the disk cache when present.
func (dv *Device) compile(src, name string) ([]byte, error) {
	c, err := LoadNVRTC()
	if err != nil {
		return nil, err
	}
	cc := dv.info.Major*10 + dv.info.Minor
	arch, cubin := cuda.Target(cc, c.Archs)
	dir := cacheDir()
	key := cacheKey(src, cuda.CompileOptions(arch), c.Version(), arch, cubin)
	if img := cacheRead(dir, key); img != nil {
		return img, nil
	}
	// Stored under the requested target's key even when Compile fell back to
	// PTX: it is what this request yields, so the next one finds it.
	img, _, _, err := c.Compile(src, name, cc)
	if err != nil {
		return nil, err
	}
	cacheWrite(dir, key, img)
	return img, nil
}

// builtins returns the module of embedded kernels (remembered: hashing
// the source for every launch would cost more than the launch).
func (dv *Device) builtins() (*module, error) {
	if m := dv.builtin.Load(); m != nil {
		return m, nil
	}
	m, err := dv.module(builtinSource(), "gq_builtin.cu")
	if err == nil {
		dv.builtin.Store(m)
	}
	return m, err
}

// builtinKernel returns a builtin kernel by name.
func (dv *Device) builtinKernel(name string) (*kernel, error) {
	m, err := dv.builtins()
	if err != nil {
		return nil, err
	}
	return dv.kernel(m, name)
}
