package arrowgpu

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The element-wise builtin kernels run on the host too (one thread, see
// hostrun_test.go); the block-wide ones (scans, reductions) need real
// blocks and are checked by the GPU tests only. The harness prints one
// line per check, compared here with Go's answer.
const builtinHarness = `
#include <stdio.h>
u32 hist[64]; // the partition kernel's dynamic shared memory
int main() {
	i64 vals[10] = {5, -3, 7, 7, 0, 100, -100, 7, 2, 9};
	u8 valid[2] = {0xff & ~(1 << 2), 0xff}; // row 2 NULL
	u32 mask[1] = {0};
	printf("hash");
	for (int i = 0; i < 4; i++) printf(" %llu", gq_hash64((u64)vals[i]));
	printf(" %llu\n", gq_hash64((u64)(i64)-1));
	for (int op = 0; op < 6; op++) {
		gq_cmp_const_i64(vals, valid, 7, op, mask, 10);
		printf("cmp%d %u\n", op, mask[0]);
	}
	i32 idx[4] = {9, 0, 2, 5};
	u64 g64[4];
	gq_gather_64((const u64*)vals, idx, g64, 4);
	printf("gather64 %lld %lld %lld %lld\n", (i64)g64[0], (i64)g64[1], (i64)g64[2], (i64)g64[3]);
	u32 gv[1] = {0};
	gq_gather_bits(valid, idx, gv, 4);
	printf("gatherbits %u\n", gv[0]);
	i32 off[5] = {0, 2, 2, 5, 9};
	const u8* bytes = (const u8*)"abcdefghi";
	i32 sidx[3] = {3, 1, 0};
	u32 lens[3];
	gq_gather_str_len(off, sidx, lens, 3);
	i32 outOff[4] = {0, (i32)lens[0], (i32)(lens[0] + lens[1]), (i32)(lens[0] + lens[1] + lens[2])};
	u8 out[16] = {0};
	gq_gather_str_bytes(off, bytes, sidx, outOff, out, 3);
	printf("gatherstr %u %u %u %s\n", lens[0], lens[1], lens[2], (const char*)out);
	u64 h[10] = {0}; u32 pid[10]; u32 counts[4] = {0};
	gq_part_hash(vals, 0, 0, valid, 0, h, 10);
	gq_partition_count(h, 10, 4, pid, counts);
	printf("partition %u %u %u %u\n", counts[0], counts[1], counts[2], counts[3]);
	return 0;
}
`

func TestBuiltinsOnHost(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not found: builtin kernels not run on the host")
	}
	dir := t.TempDir()
	shim, src, bin := filepath.Join(dir, "cuda_shim.h"), filepath.Join(dir, "b.cpp"), filepath.Join(dir, "b")
	os.WriteFile(shim, []byte(cudaShim), 0o644)
	// The partition kernel's "extern __shared__ u32 hist[]" becomes a
	// declaration of the harness's array.
	os.WriteFile(src, []byte(builtinSource()+builtinHarness), 0o644)
	if out, err := exec.Command(gxx, "-O1", "-std=c++17", "-DGQ_HOST_RUN", "-include", shim, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(l, " ")
		got[k] = v
	}
	vals := []int64{5, -3, 7, 7, 0, 100, -100, 7, 2, 9}
	valid := func(i int) bool { return i != 2 }
	want := map[string]string{
		"hash":       fmt.Sprintf("%d %d %d %d %d", hashInt64(5), hashInt64(-3), hashInt64(7), hashInt64(7), hashInt64(-1)),
		"gather64":   "9 5 7 100",
		"gatherbits": fmt.Sprint(0b1011), // idx 2 is the NULL row
		"gatherstr":  "4 0 2 fghiab",
	}
	ops := []func(a, b int64) bool{
		func(a, b int64) bool { return a == b }, func(a, b int64) bool { return a != b },
		func(a, b int64) bool { return a < b }, func(a, b int64) bool { return a <= b },
		func(a, b int64) bool { return a > b }, func(a, b int64) bool { return a >= b },
	}
	for op, f := range ops {
		var m uint32
		for i, v := range vals {
			if valid(i) && f(v, 7) {
				m |= 1 << i
			}
		}
		want[fmt.Sprintf("cmp%d", op)] = fmt.Sprint(m)
	}
	var counts [4]int
	for i, v := range vals {
		h := hashInt64(v) // the CPU partitioner's: mix(0*31 + v)
		if !valid(i) {
			h = hashInt64(-7046029254386353131) // its NULL constant, 0x9e3779b97f4a7c15
		}
		counts[uint64(hashInt64(int64(h)))%4]++
	}
	want["partition"] = fmt.Sprintf("%d %d %d %d", counts[0], counts[1], counts[2], counts[3])
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: host kernels say %q, Go %q", k, got[k], w)
		}
	}
}
