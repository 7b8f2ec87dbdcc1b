package arrowgpu

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"testing"
)

// The emulator (arrowgpu/emulator, gqemu) stands in for a GPU in CI; these
// tests check that it keeps the SIMT rules gq's kernels rely on — block
// barriers, warp ballots, shuffles and matches — and that a collective that
// can never complete is an error, not a hang. They run only on gqemu (make
// test-emu).

const emulatorTestSource = `
typedef long long i64;
typedef unsigned int u32;
extern "C" __global__ void t_simt(const i64* in, i64* out) {
	__shared__ i64 s[256];
	int t = threadIdx.x;
	i64 v = in[blockIdx.x * blockDim.x + t];
	s[t] = v;
	__syncthreads();
	i64 rev = s[blockDim.x - 1 - t];
	u32 b = __ballot_sync(0xffffffffu, v & 1);
	i64 sum = v;
	for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
	u32 m = __match_any_sync(0xffffffffu, v % 3);
	i64 down = __shfl_down_sync(0xffffffffu, v, 1);
	i64* o = out + 5 * (blockIdx.x * blockDim.x + t);
	o[0] = rev; o[1] = b; o[2] = sum; o[3] = m; o[4] = down;
}
extern "C" __global__ void t_exited_lane(i64* out) {
	if (threadIdx.x & 1) return;
	out[threadIdx.x] = __shfl_sync(0xffffffffu, (i64)threadIdx.x, 1);
}
`

func needEmulator(t *testing.T) *Queue {
	q := needKernels(t)
	if !strings.HasPrefix(q.dv.Info().Name, "gqemu") {
		t.Skip("not the emulator: " + q.dv.Info().Name)
	}
	return q
}

func TestEmulatorSIMT(t *testing.T) {
	q := needEmulator(t)
	m, err := q.dv.module(emulatorTestSource, "emulator_test.cu")
	if err != nil {
		t.Fatal(err)
	}
	k, err := q.dv.kernel(m, "t_simt")
	if err != nil {
		t.Fatal(err)
	}
	const blocks, threads = 2, 256
	in := make([]byte, 8*blocks*threads)
	vals := make([]int64, blocks*threads)
	for i := range vals {
		vals[i] = int64(i*7919%1000) - 300
		binary.LittleEndian.PutUint64(in[8*i:], uint64(vals[i]))
	}
	inB, err := q.UploadBytes(in)
	if err != nil {
		t.Fatal(err)
	}
	defer inB.Free()
	outB, err := q.pool.Alloc(int64(5 * 8 * len(vals)))
	if err != nil {
		t.Fatal(err)
	}
	defer outB.Free()
	out := make([]byte, outB.Size)
	err = q.dv.Do(func() error {
		if err := k.launchLocked(q.stream, d1(blocks), d1(threads), 0, inB.Ptr, outB.Ptr); err != nil {
			return err
		}
		if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(out, outB.Ptr)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		b, tid, w := i/threads, i%threads, i/32*32
		var ballot, match uint32
		var sum int64
		for l := range 32 {
			x := vals[w+l]
			if x&1 != 0 {
				ballot |= 1 << l
			}
			if x%3 == v%3 {
				match |= 1 << l
			}
			sum += x
		}
		down := v
		if i%32 < 31 {
			down = vals[i+1]
		}
		want := []int64{vals[b*threads+threads-1-tid], int64(ballot), sum, int64(match), down}
		for j, wv := range want {
			if got := int64(binary.LittleEndian.Uint64(out[8*(5*i+j):])); got != wv {
				t.Fatalf("thread %d output %d: got %d, want %d (ballot has %d lanes)", i, j, got, wv, bits.OnesCount32(ballot))
			}
		}
	}
}

func TestEmulatorReportsStuckCollective(t *testing.T) {
	q := needEmulator(t)
	m, err := q.dv.module(emulatorTestSource, "emulator_test.cu")
	if err != nil {
		t.Fatal(err)
	}
	k, err := q.dv.kernel(m, "t_exited_lane")
	if err != nil {
		t.Fatal(err)
	}
	outB, err := q.pool.Alloc(32 * 8)
	if err != nil {
		t.Fatal(err)
	}
	defer outB.Free()
	err = q.dv.Do(func() error { return k.launchLocked(q.stream, d1(1), d1(32), 0, outB.Ptr) })
	if err == nil {
		t.Fatal("a shuffle waiting for lanes that have exited completed")
	}
	t.Logf("as expected: %v", err)
}
