// Command rrun launches an SPMD job: N copies of a command, each told its
// rank through RRUN_RANK, RRUN_NRANKS and a coordinator directory
// (RRUN_COORD_DIR) where the ranks exchange their addresses. It follows
// RAPIDS' rrun where it matters:
//
//	rrun -n 4 [-g 0,1,2,3] [-x VAR=VALUE]... [--tag-output] [--bind-to core|numa|none] gq --data DIR -f q.sql
//
// -g gives each rank one GPU through CUDA_VISIBLE_DEVICES (round-robin
// over the list). Signals sent to rrun are forwarded to every rank. When a
// rank exits non-zero or dies, rrun stops the others (SIGTERM, then
// SIGKILL after a grace period) and exits non-zero; the coordinator
// directory is removed in every case. Standard input is copied to every
// rank, since every rank runs the same script.
package main
