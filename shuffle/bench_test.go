package shuffle

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
)

// Shuffle throughput, in GB/s per rank (metric "GB/s/rank"): each of
// benchRanks ranks sends benchChunks chunks of benchChunk bytes to every
// partition per iteration, one partition per rank. The figures to put side
// by side, all with the same all-to-all pattern and the same data (see
// benchData) on the same cores:
//
//	BenchmarkShuffleLocal   the shuffler over the local backend
//	BenchmarkShuffleTCP     the shuffler over the tcp backend (consumed
//	                        with Next, as the exchange does; ...Extract:
//	                        whole partitions; ...Checksummed: payloads
//	                        summed, as off this host)
//	BenchmarkCommTCP        the tcp communicator alone (Send/Recv): the
//	                        shuffler's transport
//	BenchmarkRawTCPMesh     plain loopback sockets, no framing: the bound
//	BenchmarkRawTCPMeshAlloc  the same, each chunk read into a new buffer
//	                        (the cost of Go zeroing fresh memory and the
//	                        kernel faulting it in, which the receive pool
//	                        of bufpool.go saves)
//	BenchmarkRawTCP         one plain stream, one writer, one reader
//
// go test ./shuffle -run X -bench . -benchtime 30x
const (
	benchRanks  = 3
	benchChunk  = 1 << 20
	benchChunks = 8 // per partition per rank
)

// perRankBytes is what one rank sends per iteration (its own partition
// included, as in a real shuffle).
const perRankBytes = benchChunk * benchChunks * benchRanks

func reportGBps(b *testing.B) {
	b.ReportMetric(float64(perRankBytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s/rank")
}

// benchData is what each rank sends per iteration, the same in every
// benchmark: benchChunks*benchRanks chunks of benchChunk bytes, each in a
// buffer of its own with room for the shuffler's trailer, as an
// exchange's freshly encoded batches are. chunks[r][k*benchRanks+p] is
// rank r's k-th chunk for partition p. The buffers are reused from one
// iteration to the next, once all arrived: a buffer received in an
// iteration may be a rank's share to itself, handed over by the
// communicator, so only the others go back to the receive pool.
type benchData struct {
	chunks [][][]byte
	own    map[*byte]bool
}

func newBenchData() *benchData {
	d := &benchData{chunks: make([][][]byte, benchRanks), own: map[*byte]bool{}}
	for r := range d.chunks {
		for range benchChunks * benchRanks {
			c := make([]byte, benchChunk, benchChunk+chunkTrailer)
			for i := range c {
				c[i] = byte(r + i)
			}
			d.chunks[r] = append(d.chunks[r], c)
			d.own[&c[0]] = true
		}
	}
	return d
}

// chunk is rank r's k-th chunk for partition p.
func (d *benchData) chunk(r, k, p int) []byte { return d.chunks[r][k*benchRanks+p][:benchChunk] }

// release hands a received buffer back as the exchange does once it has
// decoded a chunk, unless it is one of the benchmark's own.
func (d *benchData) release(c []byte) {
	if len(c) > 0 && !d.own[&c[0]] {
		Release(c)
	}
}

// benchShuffle consumes each rank's partitions as the exchange does, with
// Next, handing each chunk back once consumed; with extract, it waits
// for whole partitions instead (WaitAny, Extract), holding every chunk of
// one until it completes.
func benchShuffle(b *testing.B, comms []Communicator, extract bool) {
	d := newBenchData()
	b.SetBytes(perRankBytes)
	b.ResetTimer()
	for i := range b.N {
		var wg sync.WaitGroup
		for r, c := range comms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := NewShuffler(c, uint32(i+1), benchRanks, RoundRobin, nil)
				go func() {
					for k := range benchChunks {
						for p := range benchRanks {
							s.Insert(p, d.chunk(r, k, p))
						}
					}
					s.InsertFinished()
				}()
				for {
					var pid int
					var got [][]byte
					var err error
					if extract {
						if pid, err = s.WaitAny(context.Background()); err == nil && pid >= 0 {
							got, err = s.Extract(pid)
						}
					} else {
						var c []byte
						pid, c, err = s.Next(context.Background())
						got = [][]byte{c}
					}
					if err != nil {
						b.Error(err)
						return
					}
					if pid < 0 {
						return
					}
					for _, c := range got {
						d.release(c)
					}
				}
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	reportGBps(b)
}

func tcpComms(b *testing.B, opts TCPOptions) ([]Communicator, func()) {
	comms := tcpMesh(b, benchRanks, opts)
	var cs []Communicator
	for _, c := range comms {
		cs = append(cs, c)
	}
	return cs, func() {
		var wg sync.WaitGroup
		for _, c := range comms {
			wg.Add(1)
			go func() { defer wg.Done(); c.Close() }()
		}
		wg.Wait()
	}
}

func BenchmarkShuffleLocal(b *testing.B) { benchShuffle(b, locals(benchRanks), false) }

func BenchmarkShuffleTCP(b *testing.B) {
	cs, closeTCP := tcpComms(b, TCPOptions{})
	defer closeTCP()
	benchShuffle(b, cs, false)
}

// BenchmarkShuffleTCPChecksummed sums every payload, as connections that
// leave the host do (GQ_TCP_CHECKSUM=always).
func BenchmarkShuffleTCPChecksummed(b *testing.B) {
	cs, closeTCP := tcpComms(b, TCPOptions{Checksum: ChecksumAlways})
	defer closeTCP()
	benchShuffle(b, cs, false)
}

func BenchmarkShuffleTCPExtract(b *testing.B) {
	cs, closeTCP := tcpComms(b, TCPOptions{})
	defer closeTCP()
	benchShuffle(b, cs, true)
}

// BenchmarkCommTCP moves the shuffle's bytes with bare Send/Recv: every
// rank sends each chunk to its owner (itself included) and receives what
// it owns. This is the transport the shuffler is measured against.
func BenchmarkCommTCP(b *testing.B) {
	cs, closeTCP := tcpComms(b, TCPOptions{})
	defer closeTCP()
	benchComm(b, cs)
}

func benchComm(b *testing.B, cs []Communicator) {
	d := newBenchData()
	b.SetBytes(perRankBytes)
	b.ResetTimer()
	for i := range b.N {
		tag := Tag(1000 + i)
		var wg sync.WaitGroup
		for r, c := range cs {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for k := range benchChunks {
					for dst := range benchRanks {
						if err := c.Send(dst, tag, d.chunk(r, k, dst)); err != nil {
							b.Error(err)
							return
						}
					}
				}
			}()
			go func() {
				defer wg.Done()
				for range benchChunks * benchRanks {
					m, err := c.Recv(context.Background(), tag)
					if err != nil {
						b.Error(err)
						return
					}
					d.release(m.Data)
				}
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	reportGBps(b)
}

// BenchmarkRawTCPMesh is the same all-to-all over plain loopback sockets
// (one per ordered pair of ranks, readers into reused buffers, no framing,
// no allocation): the most the tcp backend could reach on this machine.
// A rank's share to itself costs nothing, as in the communicators, which
// hand it over.
func BenchmarkRawTCPMesh(b *testing.B) { benchRawMesh(b, false) }

func BenchmarkRawTCPMeshAlloc(b *testing.B) { benchRawMesh(b, true) }

func benchRawMesh(b *testing.B, fresh bool) {
	n := benchRanks
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Skip(err)
	}
	defer ln.Close()
	// conns[src][dst] writes, accepted[src][dst] reads.
	conns := make([][]net.Conn, n)
	readers := make([][]net.Conn, n)
	for src := range n {
		conns[src] = make([]net.Conn, n)
		readers[src] = make([]net.Conn, n)
		for dst := range n {
			if src == dst {
				continue
			}
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			a, err := ln.Accept()
			if err != nil {
				b.Fatal(err)
			}
			conns[src][dst], readers[src][dst] = c, a
		}
	}
	defer func() {
		for src := range n {
			for dst := range n {
				if src != dst {
					conns[src][dst].Close()
					readers[src][dst].Close()
				}
			}
		}
	}()
	d := newBenchData()
	b.SetBytes(perRankBytes)
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for src := range n {
			wg.Add(1)
			go func() { // one writer per rank, like a shuffler's inserter
				defer wg.Done()
				for k := range benchChunks {
					for dst := range n {
						if dst == src {
							continue
						}
						if _, err := conns[src][dst].Write(d.chunk(src, k, dst)); err != nil {
							b.Error(err)
							return
						}
					}
				}
			}()
			for dst := range n {
				if dst == src {
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					buf := make([]byte, benchChunk)
					for range benchChunks {
						if fresh {
							buf = make([]byte, benchChunk)
						}
						if _, err := io.ReadFull(readers[src][dst], buf); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
		}
		wg.Wait()
	}
	b.StopTimer()
	reportGBps(b)
}

// BenchmarkRawTCP streams 1 MiB writes over one loopback connection: one
// writer and one reader, the whole machine for one stream.
func BenchmarkRawTCP(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Skip(err)
	}
	defer ln.Close()
	done := make(chan struct{})
	go func() {
		c, err := ln.Accept()
		if err == nil {
			io.Copy(io.Discard, c)
			c.Close()
		}
		close(done)
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, benchChunk)
	b.SetBytes(benchChunk)
	b.ResetTimer()
	for range b.N {
		if _, err := c.Write(buf); err != nil {
			b.Fatal(err)
		}
	}
	c.Close()
	<-done
	b.StopTimer()
	b.ReportMetric(float64(benchChunk)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s/rank")
}
