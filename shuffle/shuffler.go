package shuffle

import (
	"bytes"
	"context"
	"encoding/binary"
	"sync"
	"time"

	"gq/errs"
	gqmem "gq/memory"
)

// Assignment maps partition ids to ranks.
type Assignment int

const (
	// RoundRobin: partition p lives on rank p mod nranks (hash shuffles).
	RoundRobin Assignment = iota
	// Contiguous: each rank owns one contiguous range of partition ids, so
	// concatenating ranks in order keeps the partitions' order (sorts,
	// gathers).
	Contiguous
)

// Message kinds inside a shuffle's tag. A message is its body, then a
// trailer that ends with the kind byte. A chunk's trailer (pid u32, kind)
// comes after the payload so that Insert can append it in the payload's
// spare capacity and hand the communicator one buffer: the payload is
// then never copied, on any backend (ucx and local would otherwise join
// a header and the payload; tcp copies its own sends to itself).
const (
	kindChunk  = 1 // payload, pid u32, kind
	kindFinish = 2 // (pid u32, count u32)* for the receiver's partitions, kind
	kindAbort  = 3 // reason text, kind

	chunkTrailer = 5
)

// Shuffler is one shuffle operation (seed 000): ranks insert chunks for
// partitions, then InsertFinished; each rank extracts the partitions it
// owns once complete. Completion is detected by counting: every rank
// sends each peer, at InsertFinished, the number of chunks it sent it for
// each partition, so a partition is complete when all nranks counts have
// arrived and that many chunks are in. Concurrent shuffles are kept apart
// by op id, which every rank must derive the same way (from the plan).
type Shuffler struct {
	comm   Communicator
	op     uint32
	nparts int
	assign Assignment
	stats  *Statistics
	br     *gqmem.BufferResource // nil: chunks are not accounted (see WithMemory)
	qs     *gqmem.Statistics

	mu       sync.Mutex
	sent     []uint32 // chunks sent per partition
	finished bool

	recvMu    sync.Mutex // one receiver at a time drives the event loop
	finFrom   []bool     // ranks whose finish message arrived
	parts     map[int]*partState
	returned  map[int]bool
	remaining int // local partitions not yet returned by WaitAny/WaitOn

	// With memory, a progress goroutine (drain.go) receives; dmu guards
	// the partitions' counts and returned/remaining then.
	dmu       sync.Mutex
	changed   chan struct{} // closed and replaced at every change
	drainErr  error
	drainOnce sync.Once
	stopDrain context.CancelFunc
	drained   chan struct{} // closed when the progress goroutine ends
}

type partState struct {
	store    *chunkStore // received, not yet extracted
	got      int         // chunks received in all
	expected int         // chunks announced by finish messages so far
	finishes int         // finish messages received
}

// Option configures a Shuffler.
type Option func(*Shuffler)

// WithMemory accounts received chunks in br's HOST tier until they are
// extracted, and lets its spill manager move them to disk under pressure
// (they come back on Extract or Next). A
// progress goroutine then receives continuously, as rapidsmpf's event
// loop does, so chunks never wait unaccounted in the communicator while
// the consumer is busy. qs (may be nil) also counts the spills.
func WithMemory(br *gqmem.BufferResource, qs *gqmem.Statistics) Option {
	return func(s *Shuffler) { s.br, s.qs = br, qs }
}

// NewShuffler starts shuffle op over comm with nparts partitions.
func NewShuffler(comm Communicator, op uint32, nparts int, assign Assignment, stats *Statistics, opts ...Option) *Shuffler {
	s := &Shuffler{comm: comm, op: op, nparts: nparts, assign: assign, stats: stats,
		sent: make([]uint32, nparts), parts: map[int]*partState{}, returned: map[int]bool{},
		finFrom: make([]bool, comm.NRanks()), changed: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	for _, p := range s.localPartitions() {
		s.parts[p] = &partState{store: newChunkStore(s.br, s.qs, stats)}
	}
	s.remaining = len(s.parts)
	return s
}

// owner is the rank that owns partition pid.
func (s *Shuffler) owner(pid int) int {
	n := s.comm.NRanks()
	if s.assign == Contiguous {
		per := (s.nparts + n - 1) / n
		return pid / per
	}
	return pid % n
}

// localPartitions lists the partitions this rank owns, ascending.
func (s *Shuffler) localPartitions() []int {
	var out []int
	for p := range s.nparts {
		if s.owner(p) == s.comm.Rank() {
			out = append(out, p)
		}
	}
	return out
}

func (s *Shuffler) tag() Tag { return Tag(s.op) }

// InsertChunks sends each chunk to the owner of its partition. The
// shuffler owns the chunks afterwards (see Insert).
func (s *Shuffler) InsertChunks(chunks map[int][]byte) error {
	for pid, data := range chunks {
		if err := s.Insert(pid, data); err != nil {
			return err
		}
	}
	return nil
}

// Insert sends one chunk for partition pid. The shuffler owns data
// afterwards and may use its spare capacity (as append does): to insert
// one buffer more than once, pass data[:n:n].
func (s *Shuffler) Insert(pid int, data []byte) error {
	if pid < 0 || pid >= s.nparts {
		return errs.New(errs.Internal, "shuffle %d: partition %d of %d", s.op, pid, s.nparts)
	}
	s.mu.Lock()
	if s.finished {
		s.mu.Unlock()
		return errs.New(errs.Internal, "shuffle %d: insert after InsertFinished", s.op)
	}
	s.sent[pid]++
	s.mu.Unlock()
	s.stats.Add(StatPayloadSend, float64(len(data)))
	var trailer [chunkTrailer]byte
	binary.LittleEndian.PutUint32(trailer[:], uint32(pid))
	trailer[4] = kindChunk
	if cap(data)-len(data) >= chunkTrailer {
		return s.comm.Send(s.owner(pid), s.tag(), append(data, trailer[:]...))
	}
	// No room: payload and trailer go out as one message without being
	// joined where the backend can (tcp: writev); others join them.
	return sendParts(s.comm, s.owner(pid), s.tag(), data, trailer[:])
}

// InsertFinished tells every rank that owns partitions how many chunks
// this rank sent it per partition; no more inserts may follow.
func (s *Shuffler) InsertFinished() error {
	s.mu.Lock()
	if s.finished {
		s.mu.Unlock()
		return nil
	}
	s.finished = true
	counts := append([]uint32(nil), s.sent...)
	s.mu.Unlock()
	// Only ranks that own partitions wait for finish messages; the others
	// (a gather's non-roots) may have left already.
	n := s.comm.NRanks()
	msgs := make([][]byte, n)
	for pid, c := range counts {
		r := s.owner(pid)
		if msgs[r] == nil {
			msgs[r] = make([]byte, 0, 8*len(counts)+1)
		}
		msgs[r] = binary.LittleEndian.AppendUint32(msgs[r], uint32(pid))
		msgs[r] = binary.LittleEndian.AppendUint32(msgs[r], c)
	}
	for r, m := range msgs {
		if m == nil {
			continue
		}
		m = append(m, kindFinish)
		start := time.Now()
		if err := s.comm.Send(r, s.tag(), m); err != nil {
			return err
		}
		s.stats.addDuration(StatMetadataSend, start)
	}
	return nil
}

// Abort tells every other rank that this rank gave up on the shuffle (its
// query failed with err), so they fail instead of waiting for chunks that
// will never come. They fail with err's kind: a query cancelled or out of
// memory on one rank is that on every rank, not a communication error.
func (s *Shuffler) Abort(err error) {
	msg := append([]byte(errs.KindOf(err).Error()), 0)
	msg = append(append(msg, err.Error()...), kindAbort)
	for r := range s.comm.NRanks() {
		if r != s.comm.Rank() {
			// Best effort: a rank that left needs no warning.
			s.comm.Send(r, s.tag(), append([]byte(nil), msg...))
		}
	}
}

func (p *partState) complete(nranks int) bool {
	return p.finishes == nranks && p.got == p.expected
}

// WaitAny waits until some local partition not yet returned is complete
// and returns its id; -1 and no error once every local partition has been
// returned.
func (s *Shuffler) WaitAny(ctx context.Context) (int, error) {
	return s.wait(ctx, -1)
}

// WaitOn waits until local partition pid is complete.
func (s *Shuffler) WaitOn(ctx context.Context, pid int) error {
	if s.owner(pid) != s.comm.Rank() {
		return errs.New(errs.Internal, "shuffle %d: partition %d is not local", s.op, pid)
	}
	_, err := s.wait(ctx, pid)
	return err
}

func (s *Shuffler) wait(ctx context.Context, want int) (int, error) {
	if s.br != nil {
		return s.waitDrained(ctx, want)
	}
	s.recvMu.Lock()
	defer s.recvMu.Unlock()
	n := s.comm.NRanks()
	for {
		check := time.Now()
		if want >= 0 {
			if s.parts[want].complete(n) {
				s.markReturned(want)
				return want, nil
			}
		} else {
			if s.remaining == 0 {
				return -1, nil
			}
			for pid, p := range s.parts {
				if !s.returned[pid] && p.complete(n) {
					s.markReturned(pid)
					return pid, nil
				}
			}
		}
		s.stats.addDuration(StatCheckFinished, check)
		msg, err := s.recv(ctx)
		if err != nil {
			return -1, err
		}
		loop := time.Now()
		if err := s.handle(msg); err != nil {
			return -1, err
		}
		s.stats.addDuration(StatEventLoop, loop)
	}
}

// recv waits for the shuffle's next message; a rank that left before
// sending its finish message ends the wait with an error.
func (s *Shuffler) recv(ctx context.Context) (Message, error) {
	return recv(ctx, s.comm, s.tag(), func(r int) bool { return !s.finFrom[r] })
}

func (s *Shuffler) markReturned(pid int) {
	if !s.returned[pid] {
		s.returned[pid] = true
		s.remaining--
	}
}

func (s *Shuffler) handle(msg Message) error {
	d := msg.Data
	if len(d) == 0 {
		return errs.New(errs.Communication, "shuffle %d: empty message from rank %d", s.op, msg.Src)
	}
	kind, body := d[len(d)-1], d[:len(d)-1]
	switch kind {
	case kindChunk:
		if len(d) < chunkTrailer {
			return errs.New(errs.Communication, "shuffle %d: short chunk from rank %d", s.op, msg.Src)
		}
		payload := d[:len(d)-chunkTrailer]
		pid := int(binary.LittleEndian.Uint32(d[len(payload):]))
		p := s.parts[pid]
		if p == nil {
			return errs.New(errs.Communication, "shuffle %d: rank %d sent partition %d, not owned here", s.op, msg.Src, pid)
		}
		p.store.push(payload)
		p.got++
		s.stats.Add(StatPayloadRecv, float64(len(payload)))
	case kindFinish:
		start := time.Now()
		for b := body; len(b) >= 8; b = b[8:] {
			pid := int(binary.LittleEndian.Uint32(b))
			p := s.parts[pid]
			if p == nil {
				return errs.New(errs.Communication, "shuffle %d: rank %d finished partition %d, not owned here", s.op, msg.Src, pid)
			}
			p.expected += int(binary.LittleEndian.Uint32(b[4:]))
		}
		for _, p := range s.parts {
			p.finishes++
		}
		s.finFrom[msg.Src] = true
		s.stats.addDuration(StatMetadataRecv, start)
	case kindAbort:
		errKind, reason := errs.Communication, body
		if name, rest, ok := bytes.Cut(reason, []byte{0}); ok {
			reason = rest
			if k := errs.KindNamed(string(name)); k != nil {
				errKind = k
			}
		}
		return errs.New(errKind, "rank %d failed: %s", msg.Src, reason)
	default:
		return errs.New(errs.Communication, "shuffle %d: unknown message kind %d from rank %d", s.op, kind, msg.Src)
	}
	return nil
}

// Extract removes and returns the chunks of a complete local partition
// (in arrival order; chunks from one rank keep their insertion order),
// reading back those that were spilled.
func (s *Shuffler) Extract(pid int) ([][]byte, error) {
	p := s.parts[pid]
	if p == nil {
		return nil, errs.New(errs.Internal, "shuffle %d: partition %d is not local", s.op, pid)
	}
	return p.store.take()
}

// Next returns the next received chunk of any local partition as soon as
// it arrives, without waiting for the partition to complete (a streaming
// consumer's alternative to WaitAny and Extract, which holds less in
// memory); pid -1 once every local partition is complete and drained.
// Do not mix with WaitAny/WaitOn on one shuffler.
func (s *Shuffler) Next(ctx context.Context) (pid int, chunk []byte, err error) {
	if s.br != nil {
		return s.nextDrained(ctx)
	}
	s.recvMu.Lock()
	defer s.recvMu.Unlock()
	n := s.comm.NRanks()
	for {
		done := true
		for id, p := range s.parts {
			c, ok, err := p.store.pop()
			if err != nil {
				return -1, nil, err
			}
			if ok {
				return id, c, nil
			}
			if !p.complete(n) {
				done = false
			}
		}
		if done {
			return -1, nil, nil
		}
		msg, err := s.recv(ctx)
		if err != nil {
			return -1, nil, err
		}
		loop := time.Now()
		if err := s.handle(msg); err != nil {
			return -1, nil, err
		}
		s.stats.addDuration(StatEventLoop, loop)
	}
}

// Shutdown stops the progress goroutine (if any) and drops whatever the
// shuffle still holds, spill files included.
func (s *Shuffler) Shutdown() {
	s.stopDraining()
	s.recvMu.Lock()
	defer s.recvMu.Unlock()
	for _, p := range s.parts {
		p.store.close()
	}
}
