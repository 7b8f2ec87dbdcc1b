// Package shuffle moves bytes between the ranks of an SPMD job (seeds 000,
// 001, 002, 004).
//
// A Communicator connects nranks processes (or goroutines) and delivers
// tagged byte buffers between them, asynchronously: Send never waits for the
// receiver (messages are buffered at the receiving rank, demultiplexed by
// tag), so several exchanges can be in flight at once without deadlock.
// Backends, chosen like unidist's backends by flag or GQ_COMM:
//   - local: nranks goroutines in one process (tests, gq --ranks N);
//   - tcp:   one process per rank, a full mesh of TCP connections with
//     heartbeats, so a dead or silent peer fails every rank in bounded time;
//     frames carry an XXH3 checksum (payloads too off this host, see
//     Checksum);
//   - ucx:   the same over UCX (cgo, build tag ucx; shared memory, RDMA).
//
// Received buffers come from a pool (bufpool.go): a receiver done with a
// message's or chunk's bytes hands them back with Release, which saves
// zeroing and faulting in a fresh buffer per message.
//
// Bootstrap (FromEnv, DetectLaunch) reads the launcher's environment
// through the getenv a binary's edge passes (os.Getenv; the package reads
// no variable itself, so a test gives a map): rrun (RRUN_RANK,
// RRUN_NRANKS, RRUN_COORD_DIR or RRUN_SOCKET_ADDR), Open MPI
// (OMPI_COMM_WORLD_RANK/SIZE) and Slurm (SLURM_PROCID/NTASKS); without a
// launcher the job is one rank and no network is touched.
//
// On top of a Communicator, the Shuffler (seed 000) hash-partitions chunks:
// each rank inserts chunks for partitions, signals InsertFinished, and
// extracts the partitions it owns (WaitAny/WaitOn then Extract, or chunk
// by chunk as they arrive with Next). Completion is detected by counting:
// each rank's finish message says how many chunks it sent for each
// partition. Op ids, assigned from the plan, keep concurrent shuffles
// apart. AllGather and Gather exchange one buffer per rank.
//
// Failures never leave a rank waiting: a dead peer (EOF without goodbye,
// or no heartbeat within the timeout) fails every rank's communicator
// with an errs.Communication error naming it, and the rank that noticed
// tells the others the first cause; a peer that said goodbye while others
// still expect data from it ends their wait with an error too; a rank
// whose query failed sends an abort on each of the query's shuffles
// (Shuffler.Abort).
//
// Memory: a Shuffler made WithMemory (the engine's exchanges are) files
// received chunks in per-partition stores reserved in the buffer
// resource's HOST tier and registered with its spill manager; under
// pressure they go to Arrow IPC spill files and come back on Extract or
// Next. A progress goroutine receives continuously, so chunks do not wait
// unaccounted in the communicator while the consumer is busy.
//
// Bootstrap without a coordinator (mpirun, srun) uses a directory named
// after the job in TMPDIR, so it needs the ranks on one host; across hosts
// set GQ_COORD_ADDR (or GQ_COORD_DIR on a shared file system).
// GQ_CONNECT_TIMEOUT (default 30s) bounds the wait for ranks to start.
//
// Ranks accept only their job (auth.go). Every tcp connection, and every
// registration with rank 0's address service, first proves the job
// secret: an HMAC-SHA256 over both sides' fresh nonces, ranks and world
// sizes, the side that accepts proving itself too. A connection that
// fails, stays silent past a few seconds (in its own goroutine, so it
// holds up no rank) or claims a rank already connected is dropped and the
// job goes on; a proven rank of another world size is named at once. The
// secret comes from the launcher (rrun's RRUN_JOB_SECRET), from
// GQ_JOB_SECRET or GQ_JOB_SECRET_FILE (a file only its owner may read),
// or, for ranks meeting in a coordinator directory that is this user's
// alone, from a file rank 0 writes there; without any, a rank refuses to
// start. Frames after the handshake are checksummed, not signed: the
// handshake keeps out other processes, not an attacker on the network
// path. The ucx backend's own traffic is not authenticated (UCX has no
// such notion); its worker addresses go only to proven ranks or into a
// directory only this user can read.
//
// A world size over MaxRanks (65,536) is refused at start.
//
// shuffle knows nothing of Arrow, plans or queries: it must not import exec.
package shuffle
