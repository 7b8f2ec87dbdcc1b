package engine

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"strings"
	"sync/atomic"

	"gq/errs"
	"gq/exec"
	"gq/physical"
	"gq/shuffle"
)

// SPMD execution. With Options.Comm of several ranks, every rank's engine
// runs the same statements in the same order (the launcher starts the
// same script everywhere). Each query takes the next statement sequence
// number on every rank; its exchanges' op ids derive from it, so the
// ranks' shuffles meet without any negotiation. Hence a multi-rank
// engine must run one statement at a time, in script order (a server
// taking concurrent queries would need ids agreed by message instead).

// opsPerStatement bounds the exchanges of one statement; op 0 of each
// statement is the plan fingerprint check.
const opsPerStatement = 1 << 12

// rankState is an engine's SPMD bookkeeping.
type rankState struct {
	seq atomic.Uint32 // statements run so far
}

// Rank is this engine's rank (0 without a communicator).
func (e *Engine) Rank() int {
	if e.opts.Comm == nil {
		return 0
	}
	return e.opts.Comm.Rank()
}

// NRanks is the number of ranks the engine runs with (1 without a
// communicator).
func (e *Engine) NRanks() int {
	if e.opts.Comm == nil {
		return 1
	}
	return e.opts.Comm.NRanks()
}

func (e *Engine) distributed() bool { return e.NRanks() > 1 }

// distribute checks that every rank planned the same query and places the
// exchanges. planErr is this rank's planning error: the ranks exchange it
// too, so a rank that failed to plan makes the others fail instead of
// waiting for it. It returns the plan to run and its exchange op ids.
func (e *Engine) distribute(ctx context.Context, root exec.Node, planErr error) (exec.Node, []uint32, error) {
	if !e.distributed() {
		return root, nil, planErr
	}
	base := e.ranks.seq.Add(1) * opsPerStatement
	// Every earlier statement has ended on this rank (one runs at a
	// time): what peers sent for them and nobody took — a statement
	// cancelled or failed mid-way — is dropped, now and when it arrives.
	shuffle.ForgetOpsBelow(e.opts.Comm, base)
	if err := e.checkSymmetry(ctx, base, root, planErr); err != nil {
		return nil, nil, err
	}
	n, ops, err := physical.Distribute(root, physical.DistOptions{Comm: e.opts.Comm, OpBase: base + 1, Stats: e.opts.ShuffleStats,
		Everywhere: ctx.Value(everywhereKey{}) != nil})
	if err == nil && len(ops) >= opsPerStatement-1 {
		// Every rank fails alike: the plans are the same.
		err = errs.New(errs.Unsupported, "a distributed query with %d exchanges (at most %d)", len(ops), opsPerStatement-2)
	}
	if err == nil {
		n, err = e.placeOnGPU(n, true)
	}
	return n, ops, err
}

// placeOnGPU puts the plan's operators that have GPU twins on the device
// when the engine has one (ranks: a rank's plan, exchanges placed — each
// rank on its own GPU, rrun -g).
func (e *Engine) placeOnGPU(n exec.Node, ranks bool) (exec.Node, error) {
	if e.gpu == nil {
		return n, nil
	}
	if why := e.coldOnCPU(n); why != "" {
		if e.opts.FallbackMode == "warn" {
			e.opts.Warn(why)
		}
		return n, nil
	}
	e.gpu.Start()
	return physical.PlaceOnGPU(n, e.gpu, physical.GPUOptions{FallbackMode: e.opts.FallbackMode, Warn: e.opts.Warn, Ranks: ranks})
}

type everywhereKey struct{}

// everywhere marks a query whose result every rank needs whole (CREATE
// TABLE AS: each rank registers the table, and the ranks' catalogs, whose
// statistics steer planning, must agree).
func everywhere(ctx context.Context) context.Context {
	return context.WithValue(ctx, everywhereKey{}, true)
}

// rootOnly empties a result on ranks other than 0: rank 0 alone answers,
// also for statements every rank evaluates locally (SHOW, DESCRIBE,
// EXPLAIN).
func (e *Engine) rootOnly(res *Result) *Result {
	if res != nil && e.Rank() != 0 {
		for _, b := range res.Batches {
			b.Release()
		}
		res.Batches = nil
	}
	return res
}

// checkSymmetry all-gathers a fingerprint of each rank's physical plan (or
// its planning error) and fails every rank, naming the odd one, when they
// differ: running different plans would deadlock in the exchanges. The
// fingerprint is structural (exec.Fingerprints, tables by name): every
// operator's parameters, not only what EXPLAIN shows.
func (e *Engine) checkSymmetry(ctx context.Context, op uint32, root exec.Node, planErr error) error {
	var mine []byte
	if planErr != nil {
		mine = append([]byte{1}, planErr.Error()...)
	} else {
		key, _ := exec.NewFingerprints(false).Of(root)
		h := fnv.New64a()
		h.Write([]byte(key))
		mine = binary.LittleEndian.AppendUint64([]byte{0}, h.Sum64())
	}
	all, err := shuffle.AllGather(ctx, e.opts.Comm, op, mine)
	if err != nil {
		return err
	}
	if planErr != nil {
		return planErr
	}
	for r, fp := range all {
		switch {
		case len(fp) > 0 && fp[0] == 1:
			return errs.New(errs.Execution, "rank %d failed to plan the statement: %s", r, fp[1:])
		case string(fp) != string(mine):
			return errs.New(errs.Execution, "query symmetry violated: rank %d planned a different query than rank %d (every rank must run the same statements over the same tables)", r, e.Rank())
		}
	}
	return nil
}

// agree makes a query that failed on one rank fail on every rank: the
// ranks all-gather their outcome (err: this rank's) on the statement's
// last op id. A data-dependent error — a scalar subquery's second row, a
// sum's overflow — may meet one rank's rows only, and the others would
// otherwise answer as if the query had worked. It returns this rank's
// error, else the first failing peer's (its kind, naming the rank). Every
// rank calls it once per statement, also when the statement failed before
// it ran (distribute), so that no peer waits for a status that never
// comes; a cancelled rank still sends its own (the all-gather sends
// before it waits) and then stops waiting.
func (e *Engine) agree(ctx context.Context, err error) error {
	if !e.distributed() {
		return err
	}
	mine := []byte{0}
	if err != nil { // 1, kind, 0, message
		mine = append(append(append([]byte{1}, errs.KindOf(err).Error()...), 0), err.Error()...)
	}
	op := e.ranks.seq.Load()*opsPerStatement + opsPerStatement - 1
	all, gerr := shuffle.AllGather(ctx, e.opts.Comm, op, mine)
	switch {
	case err != nil:
		return err
	case gerr != nil:
		return gerr
	}
	for r, st := range all {
		if len(st) == 0 || st[0] != 1 {
			continue
		}
		name, msg, _ := strings.Cut(string(st[1:]), "\x00")
		kind := errs.KindNamed(name)
		if kind == nil {
			kind = errs.Execution
		}
		return errs.New(kind, "rank %d: %s", r, msg)
	}
	return nil
}

// abortRanks tells the peers this rank's query failed, so that none waits
// in an exchange for chunks this rank will never send. (When the failure
// came from a peer, the messages are redundant and harmless.)
func (e *Engine) abortRanks(ops []uint32, err error) {
	if !e.distributed() || len(ops) == 0 || err == nil {
		return
	}
	exec.AbortExchanges(e.opts.Comm, ops, err)
}

// explainDistributed shows the plan as rank 0 runs it, exchanges
// included (op ids as the next statement would get them).
func (e *Engine) explainDistributed(root exec.Node) (exec.Node, error) {
	if !e.distributed() {
		return root, nil
	}
	n, _, err := physical.Distribute(root, physical.DistOptions{Comm: e.opts.Comm, OpBase: (e.ranks.seq.Load()+1)*opsPerStatement + 1})
	if err == nil {
		n, err = e.placeOnGPU(n, true)
	}
	return n, err
}
