package cuda

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Library search. The driver is normally found by the system loader by its
// soname alone; NVRTC ships with the CUDA toolkit (or pip's nvidia wheels)
// and is often not on the loader path, so we also try the usual install
// directories. SetLibraries names a file to use instead (arrowgpu's
// Config: GQ_LIBCUDA and GQ_LIBNVRTC at gq's edge).

var libs struct {
	sync.Mutex
	driver, nvrtc string
}

// SetLibraries names the files the driver and NVRTC are loaded from ("":
// search); it applies to loads not yet made.
func SetLibraries(driver, nvrtc string) {
	libs.Lock()
	defer libs.Unlock()
	libs.driver, libs.nvrtc = driver, nvrtc
}

func libraries() (driver, nvrtc string) {
	libs.Lock()
	defer libs.Unlock()
	return libs.driver, libs.nvrtc
}

// driverCandidates lists what to dlopen for the driver, in order.
func driverCandidates() []string {
	if p, _ := libraries(); p != "" {
		return []string{p}
	}
	c := []string{"libcuda.so.1"}
	for _, d := range []string{"/usr/lib/x86_64-linux-gnu", "/usr/local/nvidia/lib64", "/usr/lib64", "/usr/lib/wsl/lib", "/usr/local/cuda/compat"} {
		c = append(c, filepath.Join(d, "libcuda.so.1"))
	}
	return c
}

// nvrtcNames are NVRTC sonames, newest first.
var nvrtcNames = []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"}

// nvrtcCandidates lists what to dlopen for NVRTC, in order: each soname
// through the loader, then each soname in each directory that exists.
func nvrtcCandidates() []string {
	if _, p := libraries(); p != "" {
		return []string{p}
	}
	c := append([]string(nil), nvrtcNames...)
	for _, d := range nvrtcDirs() {
		for _, n := range nvrtcNames {
			c = append(c, filepath.Join(d, n))
		}
	}
	return c
}

// nvrtcDirs are the directories that may hold NVRTC and exist here. The
// search reads LD_LIBRARY_PATH, CUDA_HOME and CUDA_PATH itself: they are
// not gq's settings but the system's and the CUDA toolkit's conventions
// for where libraries live (the dynamic loader honours the first), so
// every program that loads NVRTC looks there, whoever embeds arrowgpu;
// the README's table of variables says so.
func nvrtcDirs() []string {
	var dirs []string
	dirs = append(dirs, filepath.SplitList(os.Getenv("LD_LIBRARY_PATH"))...)
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if h := os.Getenv(env); h != "" {
			dirs = append(dirs, filepath.Join(h, "lib64"), filepath.Join(h, "targets/x86_64-linux/lib"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/local/cuda/lib64", "/usr/lib/x86_64-linux-gnu")
	for _, pat := range []string{
		"/usr/local/cuda-*/targets/x86_64-linux/lib",
		"/usr/local/cuda-*/lib64",
		"/usr/local/lib/python3*/dist-packages/nvidia/cuda_nvrtc/lib",
		"/usr/local/lib/python3*/dist-packages/nvidia/cu1*/lib", // CUDA 13 wheels
		"/usr/lib/python3/dist-packages/nvidia/cuda_nvrtc/lib",
		"/usr/local/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib",
		"/usr/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib",
		"/opt/conda/lib",
	} {
		m, _ := filepath.Glob(pat)
		dirs = append(dirs, m...)
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// openFirst dlopens the first candidate that loads. It returns the handle,
// the candidate that loaded, and on failure every loader message joined.
func openFirst(cands []string) (uintptr, string, error) {
	var msgs []string
	for _, c := range cands {
		h, err := dlopen(c)
		if err == nil {
			return h, c, nil
		}
		msgs = append(msgs, err.Error())
	}
	return 0, "", &loadError{tried: cands, msgs: msgs}
}

type loadError struct {
	tried []string
	msgs  []string
}

func (e *loadError) Error() string {
	// The first message is the loader's answer for the plain soname, the
	// most telling one; the rest would repeat "not found" per path.
	first := ""
	if len(e.msgs) > 0 {
		first = e.msgs[0]
	}
	return "tried " + strings.Join(e.tried, ", ") + ": " + first
}

// DriverPresent reports whether a CUDA driver library opens here, without
// binding it for use (Load does that, once per process): tests choose
// between the GPU and the emulator with it.
func DriverPresent() bool {
	_, _, err := openFirst(driverCandidates())
	return err == nil
}
