package shuffle

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	gqmem "gq/memory"
)

// spillChunk is chunk i of rank r for partition p: a header naming it and
// pseudo-random bytes (so a chunk read back wrong is caught).
func spillChunk(r, p, i, size int) []byte {
	b := fmt.Appendf(nil, "%d:%d:%d:", r, p, i)
	rng := rand.New(rand.NewPCG(uint64(r*1000+p), uint64(i)))
	for len(b) < size {
		b = append(b, byte(rng.Uint32()))
	}
	return b
}

type spillRun struct {
	brs   []*gqmem.BufferResource
	stats *Statistics
	got   []map[int][][]byte // rank -> partition -> chunks in extraction order
}

// runSpillShuffle shuffles chunks chunks of size bytes per (rank,
// partition) over comms, each rank with its own buffer resource of the
// given HOST limit; consumers use WaitAny+Extract, or Next with useNext.
// Every rank inserts everything before any consumer starts, so the
// chunks pile up in the receivers' stores.
func runSpillShuffle(t *testing.T, comms []Communicator, limit int64, chunks, size int, useNext bool) *spillRun {
	t.Helper()
	n := len(comms)
	nparts := 2 * n
	run := &spillRun{stats: NewStatistics(), got: make([]map[int][][]byte, n)}
	shufflers := make([]*Shuffler, n)
	for r, c := range comms {
		limits := gqmem.NoLimits()
		limits[gqmem.Host] = limit
		br := gqmem.NewBufferResource(gqmem.Options{Limits: limits, SpillDir: t.TempDir()})
		t.Cleanup(func() { br.Close() })
		run.brs = append(run.brs, br)
		shufflers[r] = NewShuffler(c, 9, nparts, RoundRobin, run.stats, WithMemory(br, nil))
		run.got[r] = map[int][][]byte{}
	}
	for r, s := range shufflers {
		for i := range chunks {
			for p := range nparts {
				if err := s.Insert(p, spillChunk(r, p, i, size)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.InsertFinished(); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for r, s := range shufflers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.Shutdown()
			for {
				if useNext {
					pid, chunk, err := s.Next(ctx)
					if err != nil || pid < 0 {
						errc <- err
						return
					}
					run.got[r][pid] = append(run.got[r][pid], chunk)
					continue
				}
				pid, err := s.WaitAny(ctx)
				if err != nil || pid < 0 {
					errc <- err
					return
				}
				cs, err := s.Extract(pid)
				if err != nil {
					errc <- err
					return
				}
				run.got[r][pid] = cs
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every chunk arrived intact at its owner, each rank's in the order
	// it inserted them.
	for p := range nparts {
		owner := shufflers[0].owner(p)
		next := make([]int, n)
		for _, c := range run.got[owner][p] {
			var r, pp, i int
			if _, err := fmt.Sscanf(string(c), "%d:%d:%d:", &r, &pp, &i); err != nil || pp != p || i != next[r] {
				t.Fatalf("partition %d on rank %d: chunk %.20q out of place (want rank %d's chunk %d)", p, owner, c, r, next[r])
			}
			if !bytes.Equal(c, spillChunk(r, p, i, size)) {
				t.Fatalf("partition %d: chunk %d of rank %d came back different", p, i, r)
			}
			next[r]++
		}
		for r := range n {
			if next[r] != chunks {
				t.Errorf("partition %d: %d chunks of rank %d, want %d", p, next[r], r, chunks)
			}
		}
	}
	// Nothing stays reserved or on disk.
	for r, br := range run.brs {
		if got := br.Reserved(gqmem.Host); got != 0 {
			t.Errorf("rank %d: %d bytes still reserved", r, got)
		}
		if live := br.SpillFiles().Live(); live != 0 {
			t.Errorf("rank %d: %d spill files left", r, live)
		}
	}
	return run
}

func spilledBytes(run *spillRun) (toDisk, back float64) {
	for _, br := range run.brs {
		st, _ := br.Statistics().GetStat(gqmem.StatSpillBytesHostToDisk)
		toDisk += st.Value
		st, _ = br.Statistics().GetStat(gqmem.StatSpillBytesDiskToHost)
		back += st.Value
	}
	return toDisk, back
}

// TestShufflerSpillsUnderMemoryLimit: with a 16 KiB HOST limit per rank
// and about 190 KiB received per rank, buffered chunks go to disk (the
// memory manager's and the shuffle's statistics show it) and WaitAny +
// Extract, or Next, return exactly what was inserted, over the local and
// the tcp backends.
func TestShufflerSpillsUnderMemoryLimit(t *testing.T) {
	for _, backend := range []string{"local", "tcp"} {
		for _, useNext := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/next=%v", backend, useNext), func(t *testing.T) {
				comms := locals(3)
				if backend == "tcp" {
					comms = tcps(t, 3)
				}
				run := runSpillShuffle(t, comms, 16<<10, 32, 1000, useNext)
				toDisk, back := spilledBytes(run)
				if toDisk == 0 || back == 0 {
					t.Errorf("no spill under a 16 KiB limit: %v bytes to disk, %v back", toDisk, back)
				}
				if st := run.stats.Get(StatSpillBytesHostToDisk); st.Value == 0 {
					t.Errorf("the shuffle's statistics show no spill:\n%s", run.stats.Report())
				}
				t.Logf("spilled %.0f bytes to disk, read %.0f back", toDisk, back)
			})
		}
	}
}

// TestShufflerAccountsWithoutSpilling: without a limit nothing spills,
// but the chunks held were reserved while they waited.
func TestShufflerAccountsWithoutSpilling(t *testing.T) {
	run := runSpillShuffle(t, locals(2), gqmem.Unlimited, 8, 500, false)
	if toDisk, _ := spilledBytes(run); toDisk != 0 {
		t.Errorf("%v bytes spilled without a limit", toDisk)
	}
	for r, br := range run.brs {
		// Each rank owns two of four partitions, 8 chunks from each of 2
		// ranks: 32 chunks of 500 bytes wait for the consumer.
		if peak := br.PeakReserved(gqmem.Host); peak < 32*500 {
			t.Errorf("rank %d: peak reservation %d, want the %d bytes held", r, peak, 32*500)
		}
	}
}

// TestShufflerShutdownDropsSpills: a shuffle shut down before its
// partitions are extracted releases its reservation and its spill files.
func TestShufflerShutdownDropsSpills(t *testing.T) {
	c := locals(1)[0]
	limits := gqmem.NoLimits()
	limits[gqmem.Host] = 1 << 10
	br := gqmem.NewBufferResource(gqmem.Options{Limits: limits, SpillDir: t.TempDir()})
	defer br.Close()
	s := NewShuffler(c, 4, 1, RoundRobin, nil, WithMemory(br, nil))
	for i := range 20 {
		if err := s.Insert(0, spillChunk(0, 0, i, 400)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertFinished(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if pid, err := s.WaitAny(ctx); pid != 0 || err != nil {
		t.Fatalf("WaitAny: %d %v", pid, err)
	}
	if br.SpillFiles().Live() == 0 {
		t.Fatal("20 chunks of 400 bytes under a 1 KiB limit did not spill")
	}
	s.Shutdown()
	if got, live := br.Reserved(gqmem.Host), br.SpillFiles().Live(); got != 0 || live != 0 {
		t.Errorf("after Shutdown: %d bytes reserved, %d spill files", got, live)
	}
	if _, err := s.Extract(0); err == nil {
		t.Errorf("Extract after Shutdown: no error")
	}
}
