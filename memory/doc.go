// Package memory is gq's memory manager, modelled on rapidsmpf's
// BufferResource, reservations, spill manager and Statistics (seed 000),
// adapted to Go and to gq's memory tiers DEVICE, PINNED_HOST, HOST and DISK.
//
// What it owns:
//   - Tier and the per-tier limits (ParseLimit: bytes, "4GiB", "80%" of the
//     machine; LimitsFromEnv: GQ_MEMORY_LIMIT, GQ_DEVICE_MEMORY_LIMIT,
//     GQ_PINNED_MEMORY_LIMIT, GQ_DISK_LIMIT, read through the lookup a
//     binary's edge passes: the package reads no gq variable itself).
//   - BufferResource: Reserve(tier, n, allowOverbooking) before holding
//     state; a reservation that does not fit asks the SpillManager to spill
//     (lowest priority first) and otherwise fails with errs.ResourcesExhausted
//     naming the tier, the request and the limit.
//   - SpillManager: Spillable buffers registered with a priority, spilled on
//     demand and by a periodic check (rapidsmpf's periodic_spill_check).
//   - SpillFiles: Arrow IPC files under the spill directory, read back on
//     use and deleted when closed.
//   - Allocator: an accounting wrapper of an Arrow allocator (live and peak
//     bytes); the engine gives every query a fresh one and tests check it
//     returns to zero. Adopt counts Go memory a decoder filled itself (the
//     Parquet and CSV scans' batches), uncounted when the batch is released.
//   - TieRuntimeLimit: the Go runtime's soft memory limit set to the HOST
//     limit plus runtimeHeadroom (gq and gq serve call it), so the
//     collector does not let garbage double the resident memory.
//   - PaceGC: GOGC raised while the live heap is small, so streaming
//     queries' garbage fills a budget between collections (HeapBudgetFor:
//     follows the data, 128 MiB to 1 GiB), and lowered to 50 once the
//     live heap is large (to 100 at once when the heap outgrows the
//     budget under a stale high GOGC); gq and gq serve call it, a GOGC in
//     the environment turns it off.
//   - noZero: buffers without Go's zeroing pass, for decoders and kernels
//     that overwrite them whole (Allocator.AllocateNoZero counts them).
//   - Recycling (recycle.go): the large buffers of AllocateNoZero and of
//     Scratch (a decoder's, adopted by a batch) go back to process-wide
//     size-class pools when their batch is released, so a streaming query
//     reuses a few warm buffers instead of growing and collecting the
//     heap; SetPoisonFreed lets tests catch reads after release.
//   - Statistics: named counters with rapidsmpf's event names
//     (spill-bytes-host-to-disk, spill-time-host-to-disk, ...).
//
// What a limit means: HOST reservations are the state operators choose to
// hold (sort runs, hash tables, buffered partitions). Batches in flight
// between operators are not reserved: channel capacity bounds them, so
// they are a fixed overhead of about threads × batch size per operator on
// top of the limit. The Allocator measures the true total (peak bytes).
//
// Users in exec: the sort buffers its input under a reservation and
// spills sorted runs (exec/spill_sort.go, merged by exec/spill_merge.go);
// under a limit, grouped hash aggregation and hash join partition their
// input into SpillableBatches (exec/spill_partition.go, hashagg_spill.go,
// hashjoin_grace.go). The engine (engine/memory.go) owns one
// BufferResource per engine, a fresh Allocator and Statistics per query.
//
// Naming: this package is called memory, like arrow-go's
// arrow/memory. Importers that need both alias this one as gqmem
// (import gqmem "gq/memory"), the convention used throughout gq.
//
// It must not import exec, engine or arrowgpu: device buffers plug in through
// the Spillable interface and the DEVICE tier's limit, so the GPU code
// depends on this package, not the other way round.
package memory
