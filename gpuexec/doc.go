// Package gpuexec is gq's device path above arrowgpu: the GPU operators,
// twins of exec's CPU ones, and the device table cache they read.
//
// GPUScan reads the device table cache (cache.go, loaded by load.go), or
// when a table's columns pass the cache's budget for resident tables
// (half the device memory limit) streams them through the device in
// chunks sized from the limit, each read, uploaded, run and freed
// (stream.go; a chunk the device has no room for is filtered on the
// CPU); GPUAggregate does the same with its probe side, its join build
// sides staying resident;
// GPUAggregate aggregates over it, or over a pipeline of hash joins whose
// probe side is the scan (join.go: inner, left, semi, anti, NOT IN,
// single; semi and anti joins with few probe rows run from their build
// side, from_build.go), with its HAVING, a top-N above it and an
// aggregation of its groups (GPUOuterAggregate) done on the device too;
// GPUJoinRows runs such a pipeline and emits its rows (join_rows.go),
// ordered there under a sort; GPUSort orders other rows on the device when
// they are many (sort.go). Under ranks a scan can read the rows an
// exchange brought (GPUScan.Source, source.go), and a scan or an
// aggregation below a hash exchange groups its rows by partition for it
// (exec.PartBatch). Each runs its CPU twin when the device cannot
// (fallback_mode); an aggregation whose table of groups does not fit
// beside the streamed chunks runs as a grace aggregation first
// (agg_grace.go: partial groups hashed into partitions in host memory,
// each merged on the device), and one whose join build sides do not fit,
// or a GPUJoinRows', as a grace join (join_grace.go: the build rows and
// the rows reaching the join hashed by key into partitions in host
// memory, joined on the device a group of partitions at a time). A
// streamed chunk the device has no room for waits for the stream's other
// chunks to finish and is uploaded again (stream.go). They drive the device through arrowgpu; GPU is the
// process's one handle on it, and GPU.eachChunk works on a few chunks of a
// table at once, each on its own queue.
//
// A fused pipeline is a list of stages (stage.go: scan, joins, the
// aggregation or the rows, HAVING, an outer aggregation, a top-N, a sort
// or a partition). An operator holds its Pipeline, its constructor takes
// one (NewGPUAggregate, NewGPUJoinRows), and its run code and EXPLAIN read
// the stages; a stage is added by a function that checks the order and
// returns a new operator (GPUAggregate.WithHaving, WithTopN, ...). No
// operator changes once built: placement finishes a new one by a copy
// (its build sides, its CPU twin), and a run's state lives in the run.
//
// Place (place.go) decides which operators of a lowered plan the device
// takes and builds the device twins in a new plan, the one it was given
// left as it was (a kept CPU operator is a copy over its placed inputs, a
// pipeline's CPU twin copies of the plan's nodes): a scan's filter split
// into what the kernel generator handles and the rest, a join pipeline's
// probe side chosen from its largest table (place_reorder.go), and each
// operator left on the CPU named with the reason: DECIMAL(38) columns are
// device columns like the others, and each device operator refuses what
// it has no kernel for (a DECIMAL(38) group or join key, a min or max of
// one). What it asks of the
// physical planner (EXPLAIN's text, an aggregation split into partial and
// final steps) it asks through Plans, which physical implements.
//
// The floors: gpuexec imports exec (Node, Context, the CPU twins it falls
// back to, and the helpers exec lends it in exec/device.go), arrowgpu,
// expr, catalog and memory. exec does not import gpuexec: where exec's
// code must treat a device operator apart it asks an interface the
// operator implements (exec.RunDeviceReporter, exec.RunStatsReporter:
// every operator's figures live in the run, exec.RunState, never on its
// node). Each operator's
// WithChildren and links are in node_children.go. physical
// imports gpuexec to place the operators (physical.PlaceOnGPU calls
// Place) and to name them in EXPLAIN; engine imports it for the process's
// GPU.
//
// gpuexec must not import planner, physical or engine, nor talk to the
// CUDA driver except through arrowgpu.
package gpuexec
