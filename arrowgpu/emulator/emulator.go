package emulator

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"gq/arrowgpu"
)

var (
	//go:embed csrc/gqemu.cpp
	runtimeSource string
	//go:embed csrc/gqemu.h
	apiHeader string
	//go:embed csrc/prelude.h
	prelude string
)

var (
	buildOnce sync.Once
	buildLib  string
	buildErr  error
)

// Build compiles the emulator library (once per source and compiler, into
// the user cache directory) and returns its path. It needs g++.
func Build() (string, error) {
	buildOnce.Do(func() { buildLib, buildErr = build() })
	return buildLib, buildErr
}

func build() (string, error) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		return "", fmt.Errorf("gqemu needs g++: %w", err)
	}
	h := sha256.New()
	for _, s := range []string{runtimeSource, apiHeader, prelude, cxx} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "gq", "gqemu", hex.EncodeToString(h.Sum(nil)[:8]))
	lib := filepath.Join(dir, "libgqemu.so")
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for name, text := range map[string]string{"gqemu.cpp": runtimeSource, "gqemu.h": apiHeader, "prelude.h": prelude} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	tmp := lib + fmt.Sprintf(".%d.tmp", os.Getpid())
	cmd := exec.Command(cxx, "-O2", "-g0", "-std=c++17", "-shared", "-fPIC", "-pthread",
		"-DGQEMU_CXX=\""+cxx+"\"", "-DGQEMU_INCLUDE=\""+dir+"\"",
		"-o", tmp, filepath.Join(dir, "gqemu.cpp"), "-ldl")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building gqemu: %v\n%s", err, out)
	}
	return lib, os.Rename(tmp, lib)
}

// Env returns the environment that points arrowgpu at the library: the
// driver and NVRTC are both lib, and compiled kernels are cached apart
// from a real GPU's.
func Env(lib string) map[string]string {
	return map[string]string{
		"GQ_LIBCUDA":      lib,
		"GQ_LIBNVRTC":     lib,
		"GQ_KERNEL_CACHE": filepath.Join(filepath.Dir(lib), "kernels"),
	}
}

// Enable builds the library and configures arrowgpu in this process to
// use it (the rest of arrowgpu's configuration kept); it must run before
// arrowgpu first loads the driver. It sets Env in the environment too,
// for the gq processes a test starts, whose edge reads it.
func Enable() error {
	lib, err := Build()
	if err != nil {
		return err
	}
	env := Env(lib)
	for k, v := range env {
		if err := os.Setenv(k, v); err != nil {
			return err
		}
	}
	c := arrowgpu.Configured()
	c.LibCUDA, c.LibNVRTC, c.KernelCache = env["GQ_LIBCUDA"], env["GQ_LIBNVRTC"], env["GQ_KERNEL_CACHE"]
	arrowgpu.Configure(c)
	return nil
}
