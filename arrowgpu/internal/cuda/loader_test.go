package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/errs"
)

// These tests need no GPU: loading a missing or wrong library, where the
// loader looks, and the architecture NVRTC compiles for.

func TestMissingDriverIsClearError(t *testing.T) {
	_, err := loadDriver([]string{"/nonexistent/libcuda.so.1"})
	if !errors.Is(err, ErrNoDriver) || !errors.Is(err, errs.Unsupported) {
		t.Fatalf("want ErrNoDriver of kind Unsupported, got %v", err)
	}
	if !strings.Contains(err.Error(), "libcuda.so.1") || !strings.Contains(err.Error(), "/nonexistent/libcuda.so.1") {
		t.Errorf("message does not name the library: %v", err)
	}
}

func TestMissingNVRTCIsClearError(t *testing.T) {
	_, err := loadNVRTC([]string{"/nonexistent/libnvrtc.so.13"})
	if !errors.Is(err, ErrNoNVRTC) || errors.Is(err, ErrNoDriver) {
		t.Fatalf("want ErrNoNVRTC, got %v", err)
	}
	if !strings.Contains(err.Error(), "NVRTC") || !strings.Contains(err.Error(), "GQ_LIBNVRTC") {
		t.Errorf("message does not say what is missing and how to point at it: %v", err)
	}
}

// A library that loads but is not the driver: the error names a symbol.
func TestWrongLibraryNamesMissingSymbol(t *testing.T) {
	libc := ""
	for _, p := range []string{"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6", "/usr/lib/libc.so.6"} {
		if _, err := os.Stat(p); err == nil {
			libc = p
			break
		}
	}
	if libc == "" {
		t.Skip("no libc.so.6 found to stand in for a wrong library")
	}
	_, err := loadDriver([]string{libc})
	if !errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), "symbol cu") {
		t.Fatalf("want ErrNoDriver naming a cu* symbol, got %v", err)
	}
	_, err = loadNVRTC([]string{libc})
	if !errors.Is(err, ErrNoNVRTC) || !strings.Contains(err.Error(), "symbol nvrtc") {
		t.Fatalf("want ErrNoNVRTC naming an nvrtc* symbol, got %v", err)
	}
}

func TestCandidatesHonourOverrides(t *testing.T) {
	defer SetLibraries(libraries())
	SetLibraries("/x/libcuda.so", "/y/libnvrtc.so")
	if c := driverCandidates(); len(c) != 1 || c[0] != "/x/libcuda.so" {
		t.Errorf("driver candidates %v", c)
	}
	if c := nvrtcCandidates(); len(c) != 1 || c[0] != "/y/libnvrtc.so" {
		t.Errorf("nvrtc candidates %v", c)
	}
	SetLibraries("/x/libcuda.so", "")
	dir := t.TempDir()
	t.Setenv("LD_LIBRARY_PATH", dir)
	c := nvrtcCandidates()
	if c[0] != "libnvrtc.so.13" || !containsStr(c, filepath.Join(dir, "libnvrtc.so.12")) {
		t.Errorf("nvrtc candidates do not search LD_LIBRARY_PATH: %v", c)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTarget(t *testing.T) {
	for _, c := range []struct {
		cc        int
		supported []int
		arch      string
		cubin     bool
	}{
		{90, nil, "sm_90", true},
		{90, []int{75, 80, 86, 89, 90}, "sm_90", true},
		{90, []int{75, 80, 86}, "compute_86", false}, // NVRTC older than the device
		{100, []int{80, 90}, "compute_90", false},
		{50, []int{75, 80}, "compute_50", false}, // device too old: NVRTC will say
	} {
		arch, cubin := Target(c.cc, c.supported)
		if arch != c.arch || cubin != c.cubin {
			t.Errorf("target(%d, %v) = %s %v, want %s %v", c.cc, c.supported, arch, cubin, c.arch, c.cubin)
		}
	}
}
