// Package physical turns an optimised logical plan (planner) into a network
// of executable nodes (exec): it maps ColumnIDs to positions, chooses the
// operator for each logical node (hash join on equality keys, nested loops
// otherwise; top-N sort for ORDER BY … LIMIT) and renders physical plans
// for EXPLAIN. PlaceOnGPU (gpu.go) puts operators on the GPU where they
// have a device twin; the rules are gpuexec's (gpuexec.Place), and
// physical lends them what they ask of the planner (EXPLAIN's text, an
// aggregation's partial and final steps) through gpuexec.Plans.
//
// physical must not rewrite plans (that is the optimiser's job) nor run
// them (exec's); it holds no state between calls.
package physical
