// Package emulator builds gqemu, a stand-in for the CUDA driver and NVRTC
// that runs gq's kernels on the CPU (csrc/gqemu.cpp says how), so that the GPU
// path — arrowgpu's driver binding, kernel compilation and launches, the
// device table cache, the GPU operators and their placement — is tested on
// machines without a GPU, CI included.
//
// It is a correctness device: threads are fibers, warp collectives and
// barriers wait for the lanes they name (and report a deadlock instead of
// hanging), device memory is host memory. Timings mean nothing.
//
// Use: Enable() before the first use of arrowgpu in the process (it
// configures arrowgpu to load the library, and sets GQ_LIBCUDA,
// GQ_LIBNVRTC and GQ_KERNEL_CACHE for child processes), or `go run
// ./arrowgpu/emulator/cmd/gqemu` to build the library and print the
// environment for a shell (make test-emu does this).
package emulator
