package arrowgpu

import (
	"sync"

	gqmem "gq/memory"
)

// DeviceTier is the Accountant that charges a pool's allocations to the
// DEVICE tier of the memory manager, so --device-memory-limit bounds them
// and a reservation that does not fit makes the spill manager spill device
// buffers first.
type DeviceTier struct {
	br  *gqmem.BufferResource
	mu  sync.Mutex // guards res
	res *gqmem.Reservation
}

// NewDeviceTier accounts in br's DEVICE tier.
func NewDeviceTier(br *gqmem.BufferResource) *DeviceTier {
	res, _ := br.Reserve(gqmem.Device, 0, false) // zero always fits
	return &DeviceTier{br: br, res: res}
}

// Reserve takes n bytes of the DEVICE tier, spilling if needed. It holds
// no lock while the memory manager spills: spilling frees device buffers,
// which calls Release.
func (d *DeviceTier) Reserve(n int64) error {
	more, err := d.br.Reserve(gqmem.Device, n, false)
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.res.Merge(more)
	d.mu.Unlock()
	return nil
}

// Release gives n bytes back to the DEVICE tier.
func (d *DeviceTier) Release(n int64) {
	d.mu.Lock()
	d.res.Use(n)
	d.mu.Unlock()
}

// MakeRoom spills at least n bytes of the DEVICE tier (unpinned cached
// tables): the pool asks when its free bytes suffice but no free span
// does, so that the spans they give back may join those pieces.
func (d *DeviceTier) MakeRoom(n int64) int64 {
	return d.br.SpillManager().Spill(gqmem.Device, n)
}
