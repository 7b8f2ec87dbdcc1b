// Package physical turns an optimised logical plan (planner) into a network
// of executable nodes (exec): it maps ColumnIDs to positions, chooses the
// operator for each logical node (hash join on equality keys, nested loops
// otherwise; top-N sort for ORDER BY … LIMIT), places operators on the GPU
// where they have a device twin (PlaceOnGPU, gpu.go) and renders physical
// plans for EXPLAIN. A device join pipeline probes one scan and builds
// every other input; which scan it probes is placement's choice, not the
// optimiser's join order: a tree of inner joins over scans is joined
// again from its largest table (gpu_reorder.go), since a device build of
// the largest table costs what the CPU plan's shape does not show.
// DECIMAL(38) (decimal128) columns are device columns like the others:
// each device operator refuses, at placement, what it has no kernel for
// (a DECIMAL(38) group or join key, a min or max of one), and that
// operator stays on the CPU with the reason.
//
// physical must not rewrite plans (that is the optimiser's job) nor run
// them (exec's); it holds no state between calls.
package physical
