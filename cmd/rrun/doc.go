// Command rrun launches an SPMD job: N copies of a command, each told its
// rank through RRUN_RANK, RRUN_NRANKS and a coordinator directory
// (RRUN_COORD_DIR) where the ranks exchange their addresses. It follows
// RAPIDS' rrun where it matters:
//
//	rrun -n 4 [-g 0,1,2,3] [-x VAR=VALUE]... [--tag-output] [--bind-to core|numa|none] gq --data DIR -f q.sql
//
// -g gives each rank one GPU through CUDA_VISIBLE_DEVICES (round-robin
// over the list). Signals sent to rrun are forwarded to every rank. When a
// rank exits non-zero or dies, rrun gives the others two seconds to notice
// and exit by themselves (gq's ranks do, naming the lost rank), then stops
// them (SIGTERM, then SIGKILL after a grace period) and exits non-zero.
// The job's directory (the coordinator directory, and each rank's spill
// directory GQ_SPILL_DIR unless the environment names one) is removed in
// every case, so even a rank killed by a signal leaves no spill file
// behind. Standard input is copied to every rank, since every rank runs
// the same script.
//
// Each job gets a fresh random secret, passed to the ranks in
// RRUN_JOB_SECRET (the environment, never a command line): gq's ranks
// prove it on every connection, so no other process joins the job. The
// ranks die with rrun, even when it is killed by SIGKILL: each gets
// SIGKILL from the kernel when rrun goes (a parent-death signal), and a
// gq started by a rank's shell ends when it finds itself reparented. -n is
// at most 65,536, the most ranks a job may have.
package main
