// Package exec is gq's streaming executor and its CPU operators.
//
// A physical plan is a tree of Nodes. Running it opens every node: each
// starts long-lived worker goroutines that read batches from its children's
// channels and write batches to its own bounded output channel (seed 003's
// network of nodes joined by channels). A full channel blocks the sender,
// which bounds memory; cancelling the Context stops every goroutine.
//
// Ownership: a batch sent on a channel belongs to the receiver, which must
// Release it when done. Batches hold only gq's value types (see expr);
// nested columns are payload only, gathered by expr.TakeNested.
//
// GPU operators (gpu*.go) are twins of CPU ones that physical.PlaceOnGPU
// puts in their place: GPUScan reads the device table cache (gpu_cache.go);
// GPUAggregate aggregates over it, or over a pipeline of hash joins whose
// probe side is the scan (gpu_join.go: inner, left, semi, anti, NOT IN,
// single; semi and anti joins with few probe rows run from their build
// side, gpu_from_build.go), with its HAVING, a top-N above it and an
// aggregation of its groups (GPUOuterAggregate) done on the device too;
// GPUJoinRows runs such
// a pipeline and emits its rows (gpu_join_rows.go), ordered there under a
// sort; GPUSort orders other rows on the device when they are many
// (gpu_sort.go). Under ranks a scan can read the rows an exchange brought
// (GPUScan.Source, gpu_source.go), and a scan or an aggregation below a
// hash exchange groups its rows by partition for it (partBatch). Each
// runs its CPU twin when the device cannot (fallback_mode). They drive
// the device through arrowgpu; GPU is the process's one handle on it, and
// GPU.eachChunk works on a few chunks of a table at once, each on its own
// queue.
//
// exec must not import planner or physical.
package exec
