// Package arrowgpu is the only package in gq that knows CUDA. It drives an
// NVIDIA GPU through the CUDA driver API and NVRTC, both loaded at run time
// with github.com/ebitengine/purego, so gq stays one binary built with
// CGO_ENABLED=0 that runs on machines with and without a GPU.
//
// What it owns:
//   - its process-wide settings (Config: the libraries, the kernel cache,
//     how a thread waits), set by a binary's edge with Configure
//     (ConfigFromEnv gives gq's variables their meaning); it reads no gq
//     variable itself;
//   - loading libcuda.so.1 and NVRTC (Load, LoadNVRTC, Probe) and reporting
//     what is missing as errors that name it (ErrNoDriver, ErrNoDevice,
//     ErrNoNVRTC), all of kind errs.Unsupported: the driver layer, in
//     internal/cuda (the bound driver and NVRTC functions, dlopen, the
//     errors), which nothing above arrowgpu can import;
//   - a Device: the primary context of one GPU; every driver call runs
//     inside Device.Do, which makes the context current on the calling
//     goroutine's OS thread and locks the goroutine to it meanwhile,
//     because CUDA contexts are per thread;
//   - device memory: one reservation sub-allocated by a Pool whose every byte
//     is reported to an Accountant (DeviceTier: the memory manager's DEVICE
//     tier), pinned host staging buffers and streams for asynchronous
//     copies (Queue);
//   - Arrow ↔ device: upload and download of record batches as device
//     columns (Column, Batch) in Arrow's layout at offset 0 — DECIMAL(38)
//     (decimal128) as its 16-byte values, gq_i128 in the kernels;
//   - device operations on a Queue (ops.go): compare with a constant, AND,
//     selection, gather, count/sum/min/max, hash partitioning, join-filter
//     tests of integer keys (ops_keys.go);
//   - grouped aggregation: a generated kernel per aggregation that filters,
//     evaluates keys and arguments and adds rows to a device hash table
//     with warp-combined atomics (agg.go, AggTable in agg_table.go), and a
//     second generated kernel over the table's groups for a HAVING and a
//     top-N's order keys (a radix select picks the N-th: topn.cu); the
//     table's groups can feed another aggregation in place (AggTable.Rows);
//   - hash joins: a device table of build keys (one or two, or none for a
//     one-row side), lookups, every matching pair, semi/anti marks (join.go);
//   - sorting: the permutation that orders rows by their order keys, a
//     stable LSD radix sort, a byte per pass and only the bytes in which
//     the keys differ (SortPerm, sort.go), and top-N selection (TopRows);
//   - kernels: CUDA C under kernels/ (embedded) and source generated for
//     fused expressions (GenerateFused: numbers, decimals — DECIMAL(38)
//     compared, cast and added, subtracted, multiplied in 128 bits, not
//     divided — dates, Booleans,
//     and strings compared with constants: =, <>, IN, LIKE without '_',
//     over a column or its SUBSTRING),
//     compiled by NVRTC for the device's architecture and cached on disk by
//     source hash and architecture.
//
// What it must not do: import exec, gpuexec, planner or physical (the
// GPU operators in gpuexec build on arrowgpu, not the reverse; arrowgpu
// reads only expr, the bottom floor: its IR, and each registered
// function's device code generator, which writes through the DeviceGen
// that fused_call.go implements); panic or exit when no GPU is present;
// hand Go memory that the GC may free to an asynchronous copy (staging is
// pinned host memory allocated by the driver).
//
// Tests that need the driver skip with the reason when it or a device is
// absent. Without a GPU, g++ (when present) type-checks every kernel and
// runs the element-wise, generated and aggregation kernels on one host
// thread against the CPU evaluator (hostrun_test.go, hostrun_agg_test.go).
// Test binaries for a GPU machine without a Go toolchain are built by
// `make gpu-bundle`; `make test-gpu` runs them there.
package arrowgpu
