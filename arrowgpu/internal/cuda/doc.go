// Package cuda is arrowgpu's driver layer: it loads libcuda.so.1 and
// NVRTC at run time (purego's dlopen, no cgo), binds the driver and NVRTC
// functions gq calls (API, one field per C function), compiles CUDA C for
// a device's architecture (Compiler), and turns failed calls into errors
// that name the call and the code (CUDAError, NVRTCError) or say what is
// missing (ErrNoDriver, ErrNoDevice, ErrNoNVRTC, of kind
// errs.Unsupported).
//
// It is internal so that only arrowgpu calls the driver: everything above
// it (gpuexec, engine, cmd/gq) reaches the device through arrowgpu's
// Device, Queue and kernels, and sees of this layer only what arrowgpu
// names (driver.go there).
//
// cuda must not import anything of gq's but errs, nor hold a device or
// context: that is arrowgpu's Device.
package cuda
