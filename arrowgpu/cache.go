package arrowgpu

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// The kernel cache keeps compiled images on disk so a kernel is compiled
// once per machine, not once per process: NVRTC takes tens to hundreds of
// milliseconds per program. Files are named by a hash of everything that
// determines the image (source, options, NVRTC version) plus the
// architecture, and written atomically; a damaged or foreign file only
// costs a recompile.

// cacheDir returns the cache directory ("" disables the cache): the
// configured KernelCache (Config).
func cacheDir() string { return Configured().KernelCache }

// cacheKey names a compiled image.
func cacheKey(src string, opts []string, nvrtcVersion, arch string, cubin bool) string {
	h := sha256.New()
	h.Write([]byte(src))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(opts, "\x00")))
	h.Write([]byte{0})
	h.Write([]byte(nvrtcVersion))
	ext := ".ptx"
	if cubin {
		ext = ".cubin"
	}
	return hex.EncodeToString(h.Sum(nil)[:16]) + "." + arch + ext
}

func cacheRead(dir, key string) []byte {
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, key))
	if err != nil || len(b) == 0 {
		return nil
	}
	return b
}

// cacheWrite stores an image; failures are ignored (the cache is an
// optimisation, a read-only home must not fail a query).
func cacheWrite(dir, key string, image []byte) {
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, key+".tmp*")
	if err != nil {
		return
	}
	_, werr := f.Write(image)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, key)) != nil {
		os.Remove(f.Name())
	}
}
