package shuffle

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
)

// Throughput of one all-to-all shuffle per iteration: each of 3 ranks
// sends chunkMiB chunks to every partition. b.SetBytes counts the bytes
// one rank sends, so MB/s reads as per-rank throughput. Compare with
// BenchmarkRawTCP, one plain loopback TCP stream (the transport's bound).
const (
	benchRanks  = 3
	benchChunk  = 1 << 20
	benchChunks = 8 // per partition per rank
)

func benchShuffle(b *testing.B, comms []Communicator) {
	chunk := make([]byte, benchChunk)
	b.SetBytes(int64(benchChunk * benchChunks * benchRanks))
	b.ResetTimer()
	for i := range b.N {
		var wg sync.WaitGroup
		for _, c := range comms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := NewShuffler(c, uint32(i+1), benchRanks, RoundRobin, nil)
				go func() {
					for range benchChunks {
						for p := range benchRanks {
							s.Insert(p, chunk)
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
}

func BenchmarkShuffleLocal(b *testing.B) { benchShuffle(b, locals(benchRanks)) }

func BenchmarkShuffleTCP(b *testing.B) {
	comms := tcpMesh(b, benchRanks, TCPOptions{})
	var cs []Communicator
	for _, c := range comms {
		cs = append(cs, c)
	}
	benchShuffle(b, cs)
	b.StopTimer()
	for _, c := range comms {
		go c.Close()
	}
}

// BenchmarkRawTCP streams 1 MiB writes over one loopback connection.
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
}
