// Package exec is gq's streaming executor and its CPU operators.
//
// A physical plan is a tree of Nodes. Running it opens every node: each
// starts long-lived worker goroutines that read batches from its children's
// channels and write batches to its own bounded output channel (seed 003's
// network of nodes joined by channels). A full channel blocks the sender,
// which bounds memory; cancelling the Context stops every goroutine.
//
// Plans apart from runs: a plan is a description that may be opened
// again, or under two Contexts at once. A rewrite makes a copy
// (Node.WithChildren, RewriteChildren; node_children.go) instead of
// changing the plan it was given; what a run builds or counts lives in
// the closures Open starts or in the Context's run (RunState,
// runstate.go), never on a node. Each operator states its identity for
// the plan's structural fingerprint (Keyed, Fingerprints; node_key.go).
//
// A RecursiveCTE (recursive_cte.go) opens its recursive term once per
// iteration under a Context of its own: the term's run state is the
// iteration's, and its WorkScans find the working table in that Context.
//
// Ownership: a batch sent on a channel belongs to the receiver, which must
// Release it when done. Batches hold only gq's value types (see expr);
// nested columns are payload only, gathered by expr.TakeNested.
//
// The GPU operators, twins of CPU ones, live in gpuexec, which imports
// exec; exec never imports it. What they share of exec's internals is
// lent in one file, device.go, under exported names; every other
// difference between a CPU and a device operator is an interface the
// device one implements (RunDeviceReporter, RunStatsReporter: what a run
// did is read from the run, not from the node).
//
// exec must not import planner, physical, gpuexec or arrowgpu: the CPU
// operators need no device, and a ScalarFeed hands the device its row as
// a batch (gpuexec makes the device's parameters of it).
package exec
