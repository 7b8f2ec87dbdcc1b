// Package physical turns an optimised logical plan (planner) into a network
// of executable nodes (exec): it maps ColumnIDs to positions, chooses the
// operator for each logical node (hash join on equality keys, nested loops
// otherwise; top-N sort for ORDER BY … LIMIT), places operators on the GPU
// where they have a device twin (PlaceOnGPU, gpu.go) and renders physical
// plans for EXPLAIN. A device join pipeline probes one scan and builds
// every other input; which scan it probes is placement's choice, not the
// optimiser's join order: a tree of inner joins over scans is joined
// again from its largest table (gpu_reorder.go), since a device build of
// the largest table costs what the CPU plan's shape does not show. The
// device has no DECIMAL(38) (decimal128) kernels: an operator that reads
// or outputs such a column stays on the CPU, but for sums and averages of
// 64-bit values, which the device adds in 128 bits.
//
// physical must not rewrite plans (that is the optimiser's job) nor run
// them (exec's); it holds no state between calls.
package physical
