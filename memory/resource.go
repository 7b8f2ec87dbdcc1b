package memory

import (
	"fmt"
	"sync"

	"gq/errs"
)

// Options configure a BufferResource.
type Options struct {
	Limits Limits // per tier; use NoLimits() for none
	// SpillDir is where spilled data goes ("": a fresh temporary
	// directory made on first use and removed by Close).
	SpillDir string
	// SpillAlways spills everything spillable at every opportunity.
	SpillAlways bool
	// Stats receives the spill statistics (nil: a fresh enabled one).
	Stats *Statistics
}

// BufferResource holds the limit of each tier and the reservations made
// against them, and owns the spill manager that frees memory when a
// reservation does not fit. It is safe for concurrent use; one serves a
// whole process (every query and operator shares it).
type BufferResource struct {
	mu       sync.Mutex
	limits   Limits
	reserved [NumTiers]int64
	peak     [NumTiers]int64

	spill       *SpillManager
	stats       *Statistics
	files       *SpillFiles
	spillAlways bool
}

// NewBufferResource returns a resource with opts' limits.
func NewBufferResource(opts Options) *BufferResource {
	st := opts.Stats
	if st == nil {
		st = NewStatistics(true)
	}
	br := &BufferResource{limits: opts.Limits, stats: st, spillAlways: opts.SpillAlways}
	for i, l := range br.limits {
		if l <= 0 {
			br.limits[i] = Unlimited
		}
	}
	br.files = newSpillFiles(opts.SpillDir, st)
	br.spill = &SpillManager{br: br}
	return br
}

// Close stops the periodic spill check and removes the spill directory if
// this resource created it. Spill files still open are removed with it.
func (br *BufferResource) Close() error {
	br.spill.stopPeriodic()
	return br.files.close()
}

// Limit is tier's limit in bytes (Unlimited: none).
func (br *BufferResource) Limit(t Tier) int64 { return br.limits[t] }

// Limited reports whether tier has a limit.
func (br *BufferResource) Limited(t Tier) bool { return br.limits[t] != Unlimited }

// Reserved is the memory reserved in tier now.
func (br *BufferResource) Reserved(t Tier) int64 {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.reserved[t]
}

// PeakReserved is the most memory ever reserved at once in tier.
func (br *BufferResource) PeakReserved(t Tier) int64 {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.peak[t]
}

// Available is the memory of tier not reserved (may be negative after
// overbooking; Unlimited for a tier without a limit).
func (br *BufferResource) Available(t Tier) int64 {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.availableLocked(t)
}

func (br *BufferResource) availableLocked(t Tier) int64 {
	if br.limits[t] == Unlimited {
		return Unlimited
	}
	return br.limits[t] - br.reserved[t]
}

// SpillManager is the resource's spill manager.
func (br *BufferResource) SpillManager() *SpillManager { return br.spill }

// Statistics is the resource's statistics.
func (br *BufferResource) Statistics() *Statistics { return br.stats }

// SpillFiles is where spilled batches are written.
func (br *BufferResource) SpillFiles() *SpillFiles { return br.files }

// SpillAlways reports the spill-everything test mode.
func (br *BufferResource) SpillAlways() bool { return br.spillAlways }

// tryReserve reserves n in t if it fits, or unconditionally with force.
func (br *BufferResource) tryReserve(t Tier, n int64, force bool) bool {
	br.mu.Lock()
	defer br.mu.Unlock()
	if !force && br.limits[t] != Unlimited && br.reserved[t]+n > br.limits[t] {
		return false
	}
	br.reserved[t] += n
	br.peak[t] = max(br.peak[t], br.reserved[t])
	return true
}

func (br *BufferResource) release(t Tier, n int64) {
	br.mu.Lock()
	br.reserved[t] -= n
	br.mu.Unlock()
}

// Reserve reserves n bytes of tier t, like rapidsmpf's
// reserve_device_memory_and_spill. If they do not fit, the spill manager
// spills buffers of t (lowest priority first) until they do. If spilling
// is not enough, allowOverbooking makes the reservation anyway (the
// caller copes, e.g. by spilling its own state) and otherwise Reserve
// fails with a ResourcesExhausted error naming the tier, request and
// limit. In SpillAlways mode every reservation first spills everything.
func (br *BufferResource) Reserve(t Tier, n int64, allowOverbooking bool) (*Reservation, error) {
	if n < 0 {
		return nil, errs.New(errs.Internal, "negative reservation of %d bytes", n)
	}
	if br.spillAlways {
		br.spill.spill(t, Unlimited)
	}
	if !br.tryReserve(t, n, false) {
		br.spill.spill(t, n-br.Available(t))
		if !br.tryReserve(t, n, allowOverbooking) {
			return nil, br.exhausted(t, n)
		}
	}
	return &Reservation{br: br, tier: t, size: n}, nil
}

func (br *BufferResource) exhausted(t Tier, n int64) error {
	br.mu.Lock()
	defer br.mu.Unlock()
	return errs.New(errs.ResourcesExhausted, "cannot reserve %s of %s memory: limit %s, %s already reserved and nothing more to spill",
		FormatBytes(n), t, FormatBytes(br.limits[t]), FormatBytes(br.reserved[t]))
}

// Reservation is memory reserved in one tier. Its owner grows it as its
// state grows and releases it (in part or whole) as it frees state. A
// Reservation is not safe for concurrent use; Release of the whole is
// idempotent.
type Reservation struct {
	br   *BufferResource
	tier Tier
	size int64
}

// Tier is the reservation's tier.
func (r *Reservation) Tier() Tier { return r.tier }

// Size is the bytes held.
func (r *Reservation) Size() int64 { return r.size }

// Grow adds n bytes, under Reserve's rules.
func (r *Reservation) Grow(n int64, allowOverbooking bool) error {
	more, err := r.br.Reserve(r.tier, n, allowOverbooking)
	if err != nil {
		return err
	}
	r.size += more.size
	return nil
}

// Use gives back n of the reserved bytes (the part the owner no longer
// needs: freed state, or memory now accounted elsewhere).
func (r *Reservation) Use(n int64) {
	n = min(max(n, 0), r.size)
	r.size -= n
	r.br.release(r.tier, n)
}

// Release gives back everything still held.
func (r *Reservation) Release() {
	if r == nil {
		return
	}
	r.Use(r.size)
}

// FormatBytes writes n with a binary unit ("1.5 MiB").
func FormatBytes(n int64) string {
	if n == Unlimited {
		return "unlimited"
	}
	const unit = 1024
	if n < unit && n > -unit {
		return fmt.Sprintf("%d B", n)
	}
	f, u := float64(n), -1
	for (f >= unit || f <= -unit) && u < 4 {
		f /= unit
		u++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTP"[u])
}

// Merge moves o's bytes into r (same tier); o is left empty.
func (r *Reservation) Merge(o *Reservation) {
	if o == nil || o == r {
		return
	}
	if o.tier != r.tier || o.br != r.br {
		// Different accounts: give o back and grow r unconditionally.
		n := o.size
		o.Release()
		r.br.tryReserve(r.tier, n, true)
		r.size += n
		return
	}
	r.size += o.size
	o.size = 0
}

// SetLimit changes tier t's limit to n bytes (n <= 0: none). Reservations
// already made stay; the next ones see the new limit. For a process whose
// device pool outlives the limit asked for (tests that run each query
// under a limit of its own).
func (br *BufferResource) SetLimit(t Tier, n int64) {
	br.mu.Lock()
	defer br.mu.Unlock()
	if n <= 0 {
		n = Unlimited
	}
	br.limits[t] = n
}
