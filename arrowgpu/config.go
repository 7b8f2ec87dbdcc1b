package arrowgpu

import (
	"os"
	"path/filepath"
	"sync"

	"gq/arrowgpu/internal/cuda"
)

// Config is arrowgpu's configuration. The driver and NVRTC are loaded
// once per process, so it is the process's: a binary sets it at its edge
// (Configure(ConfigFromEnv(os.LookupEnv))) before the first Load, and
// arrowgpu reads no variable itself. Without Configure it is
// defaultConfig.
type Config struct {
	// LibCUDA and LibNVRTC name the file to load the driver and NVRTC
	// from instead of searching the usual places ("": search).
	LibCUDA, LibNVRTC string
	// KernelCache is the directory of compiled kernels ("": no disk
	// cache, every process compiles its kernels).
	KernelCache string
	// CUDASync is how a thread waits in a stream synchronisation: "" or
	// "auto" (the driver's default), "spin", "yield" or "blocking"
	// (syncFlags); another value makes opening a device fail.
	CUDASync string
}

// defaultConfig searches for the libraries, keeps compiled kernels under
// the user's cache directory (gq/kernels) and leaves the driver's
// scheduling alone.
func defaultConfig() Config {
	c := Config{}
	if d, err := os.UserCacheDir(); err == nil {
		c.KernelCache = filepath.Join(d, "gq", "kernels")
	}
	return c
}

// ConfigFromEnv is defaultConfig with what gq's variables set, read
// through lookup (os.LookupEnv at a binary's edge): GQ_LIBCUDA,
// GQ_LIBNVRTC, GQ_KERNEL_CACHE (set and empty: no disk cache) and
// GQ_CUDA_SYNC.
func ConfigFromEnv(lookup func(string) (string, bool)) Config {
	c := defaultConfig()
	c.LibCUDA, _ = lookup("GQ_LIBCUDA")
	c.LibNVRTC, _ = lookup("GQ_LIBNVRTC")
	if d, ok := lookup("GQ_KERNEL_CACHE"); ok {
		c.KernelCache = d
	}
	c.CUDASync, _ = lookup("GQ_CUDA_SYNC")
	return c
}

var config struct {
	sync.RWMutex
	c   Config
	set bool
}

// Configure sets the process's configuration. The libraries it names are
// used by the first Load and LoadNVRTC (later calls return what those
// loaded); the kernel cache and CUDASync apply from the next compile and
// the next device opened.
func Configure(c Config) {
	config.Lock()
	defer config.Unlock()
	config.c, config.set = c, true
	cuda.SetLibraries(c.LibCUDA, c.LibNVRTC)
}

// Configured is the configuration in force: the last Configure's, else
// defaultConfig.
func Configured() Config {
	config.RLock()
	defer config.RUnlock()
	if !config.set {
		return defaultConfig()
	}
	return config.c
}
