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
// by side, all with the same all-to-all pattern on the same cores:
//
//	BenchmarkShuffleLocal   the shuffler over the local backend
//	BenchmarkShuffleTCP     the shuffler over the tcp backend
//	BenchmarkCommTCP        the tcp communicator alone (Send/Recv): the
//	                        shuffler's transport
//	BenchmarkRawTCPMesh     plain loopback sockets, no framing: the bound
//	BenchmarkRawTCPMeshAlloc  the same, each chunk read into a new buffer
//	                        as a transport that hands its receiver owned
//	                        buffers must (the cost of Go zeroing fresh
//	                        memory and the kernel faulting it in)
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

func benchShuffle(b *testing.B, comms []Communicator) {
	// Every chunk in flight has a buffer of its own, with room for the
	// shuffler's trailer, as an exchange's freshly encoded batches do;
	// they are reused from one iteration to the next, once all arrived.
	chunks := make([][][]byte, len(comms))
	for r := range chunks {
		for range benchChunks * benchRanks {
			chunks[r] = append(chunks[r], make([]byte, benchChunk, benchChunk+chunkTrailer))
		}
	}
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
							s.Insert(p, chunks[r][k*benchRanks+p][:benchChunk])
						}
					}
					s.InsertFinished()
				}()
				for {
					pid, err := s.WaitAny(context.Background())
					if err != nil {
						b.Error(err)
						return
					}
					if pid < 0 {
						return
					}
					s.Extract(pid)
				}
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	reportGBps(b)
}

func tcpComms(b *testing.B) ([]Communicator, func()) {
	comms := tcpMesh(b, benchRanks, TCPOptions{})
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

func BenchmarkShuffleLocal(b *testing.B) { benchShuffle(b, locals(benchRanks)) }

func BenchmarkShuffleTCP(b *testing.B) {
	cs, closeTCP := tcpComms(b)
	defer closeTCP()
	benchShuffle(b, cs)
}

// BenchmarkCommTCP moves the shuffle's bytes with bare Send/Recv: every
// rank sends each chunk to its owner (itself included) and receives what
// it owns. This is the transport the shuffler is measured against.
func BenchmarkCommTCP(b *testing.B) {
	cs, closeTCP := tcpComms(b)
	defer closeTCP()
	benchComm(b, cs)
}

func benchComm(b *testing.B, cs []Communicator) {
	chunk := make([]byte, benchChunk)
	b.SetBytes(perRankBytes)
	b.ResetTimer()
	for i := range b.N {
		tag := Tag(1000 + i)
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for range benchChunks {
					for dst := range benchRanks {
						if err := c.Send(dst, tag, chunk); err != nil {
							b.Error(err)
							return
						}
					}
				}
			}()
			go func() {
				defer wg.Done()
				for range benchChunks * benchRanks {
					if _, err := c.Recv(context.Background(), tag); err != nil {
						b.Error(err)
						return
					}
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
// A rank's share to itself is a memory copy, as in the communicators.
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
	chunk := make([]byte, benchChunk)
	b.SetBytes(perRankBytes)
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for src := range n {
			wg.Add(1)
			go func() { // one writer per rank, like a shuffler's inserter
				defer wg.Done()
				self := make([]byte, benchChunk)
				for range benchChunks {
					for dst := range n {
						if dst == src {
							if fresh {
								self = make([]byte, benchChunk)
							}
							copy(self, chunk)
							continue
						}
						if _, err := conns[src][dst].Write(chunk); err != nil {
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
