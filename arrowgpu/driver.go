package arrowgpu

import "gq/arrowgpu/internal/cuda"

// The driver layer (loading libcuda.so.1 and NVRTC, the bound driver
// functions, their errors) is internal/cuda; what callers above arrowgpu
// may see of it is named here.

// Driver is the loaded CUDA driver: internal/cuda's, with what opens a
// device (device.go).
type Driver struct{ *cuda.Driver }

// Compiler is the loaded NVRTC.
type Compiler = cuda.Compiler

// CUDAError is a failed driver call; NVRTCError a failed compilation.
type (
	CUDAError  = cuda.CUDAError
	NVRTCError = cuda.NVRTCError
)

// The reasons a GPU cannot be used (internal/cuda/errors.go).
var (
	ErrNoDriver = cuda.ErrNoDriver
	ErrNoDevice = cuda.ErrNoDevice
	ErrNoNVRTC  = cuda.ErrNoNVRTC
)

// Load loads the CUDA driver (Config.LibCUDA, else libcuda.so.1).
func Load() (*Driver, error) {
	d, err := cuda.Load()
	if err != nil {
		return nil, err
	}
	return &Driver{d}, nil
}

// LoadNVRTC loads NVRTC (Config.LibNVRTC, else the newest libnvrtc found).
func LoadNVRTC() (*Compiler, error) { return cuda.LoadNVRTC() }

// DriverPresent says whether a CUDA driver library can be loaded.
func DriverPresent() bool { return cuda.DriverPresent() }
