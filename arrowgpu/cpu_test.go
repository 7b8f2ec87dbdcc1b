package arrowgpu

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu/internal/cuda"
	"gq/errs"
)

// These tests need no GPU: error paths, parameter arrays, target choice
// and the kernel cache.

// The parameter array must hold one pointer per argument, each pointing at
// the argument's bytes as the kernel reads them.
func TestKernelParams(t *testing.T) {
	args := []any{DevPtr(0xdeadbeef00), int32(-7), uint32(9), int64(-1 << 40), 2.5, float32(1.5), true, uintptr(42), 3}
	kp, err := newKernelParams(args...)
	if err != nil {
		t.Fatal(err)
	}
	defer kp.release()
	arr := unsafe.Slice((*unsafe.Pointer)(kp.pointer()), len(args))
	wantSize := []int{8, 4, 4, 8, 8, 4, 1, 8, 8}
	for i := range args {
		if kp.sizes[i] != wantSize[i] {
			t.Errorf("arg %d: size %d, want %d", i, kp.sizes[i], wantSize[i])
		}
	}
	if got := *(*uint64)(arr[0]); got != 0xdeadbeef00 {
		t.Errorf("DevPtr read %#x", got)
	}
	if got := *(*int32)(arr[1]); got != -7 {
		t.Errorf("int32 read %d", got)
	}
	if got := *(*uint32)(arr[2]); got != 9 {
		t.Errorf("uint32 read %d", got)
	}
	if got := *(*int64)(arr[3]); got != -1<<40 {
		t.Errorf("int64 read %d", got)
	}
	if got := *(*float64)(arr[4]); got != 2.5 {
		t.Errorf("float64 read %v", got)
	}
	if got := *(*float32)(arr[5]); got != 1.5 {
		t.Errorf("float32 read %v", got)
	}
	if got := *(*bool)(arr[6]); !got {
		t.Errorf("bool read false")
	}
	if got := *(*int64)(arr[8]); got != 3 {
		t.Errorf("int read %d", got)
	}
	// Distinct slots: no two arguments share memory.
	for i := 1; i < len(args); i++ {
		if uintptr(arr[i])-uintptr(arr[i-1]) != 8 {
			t.Errorf("slots %d and %d not 8 bytes apart", i-1, i)
		}
	}
	if _, err := newKernelParams("text"); !errors.Is(err, errs.Internal) {
		t.Errorf("string argument: want Internal error, got %v", err)
	}
	kp0, _ := newKernelParams()
	if kp0.pointer() != nil {
		t.Errorf("no arguments must pass a nil array")
	}
	kp0.release()
}

func TestKernelCache(t *testing.T) {
	dir := t.TempDir()
	k1 := cacheKey("src", cuda.CompileOptions("sm_90"), "12.4", "sm_90", true)
	if k1 == cacheKey("src2", cuda.CompileOptions("sm_90"), "12.4", "sm_90", true) ||
		k1 == cacheKey("src", cuda.CompileOptions("sm_80"), "12.4", "sm_80", true) ||
		k1 == cacheKey("src", cuda.CompileOptions("sm_90"), "13.0", "sm_90", true) {
		t.Fatal("cache key ignores source, architecture or NVRTC version")
	}
	if !strings.HasSuffix(k1, ".sm_90.cubin") {
		t.Errorf("key %q", k1)
	}
	if cacheRead(dir, k1) != nil {
		t.Fatal("hit in an empty cache")
	}
	cacheWrite(dir, k1, []byte("image"))
	if got := string(cacheRead(dir, k1)); got != "image" {
		t.Fatalf("read back %q", got)
	}
	cacheWrite("", k1, []byte("x")) // disabled cache: no effect, no panic
	defer Configure(Configured())
	env := map[string]string{"GQ_KERNEL_CACHE": dir}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	Configure(ConfigFromEnv(lookup))
	if cacheDir() != dir {
		t.Errorf("GQ_KERNEL_CACHE not honoured")
	}
	env["GQ_KERNEL_CACHE"] = ""
	Configure(ConfigFromEnv(lookup))
	if cacheDir() != "" {
		t.Errorf("GQ_KERNEL_CACHE set empty: cache %q, want none", cacheDir())
	}
	delete(env, "GQ_KERNEL_CACHE")
	Configure(ConfigFromEnv(lookup))
	if cacheDir() != defaultConfig().KernelCache || (cacheDir() != "" && !strings.HasSuffix(cacheDir(), filepath.Join("gq", "kernels"))) {
		t.Errorf("GQ_KERNEL_CACHE unset: cache %q, want the user cache dir's gq/kernels", cacheDir())
	}
}

func TestBuiltinSourceHasKernels(t *testing.T) {
	src := builtinSource()
	for _, k := range []string{"gq_cmp_const_i64", "gq_and_bits", "gq_select_write", "gq_gather_64", "gq_gather_str_bytes", "gq_sum_i64", "gq_minmax_f64", "gq_partition_scatter", "gq_hash64"} {
		if !strings.Contains(src, k) {
			t.Errorf("builtin source lacks %s", k)
		}
	}
	if strings.Index(src, "typedef long long i64") > strings.Index(src, "gq_cmp_const_i64") {
		t.Error("common.cuh must come first")
	}
}

// Upload normalises arrays to offset 0: bitmaps shifted, string offsets
// rebased, values sliced.
func TestHostPartsNormalises(t *testing.T) {
	mem := memory.NewGoAllocator()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"ab", "", "cde", "f", "gh"}, []bool{true, false, true, true, true})
	full := sb.NewArray()
	defer full.Release()
	s := array.NewSlice(full, 1, 4) // "", "cde", "f" with the first NULL
	defer s.Release()
	valid, data, offsets, err := hostParts(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "cdef" || valid[0] != 0b110 {
		t.Errorf("data %q, validity %08b", data, valid[0])
	}
	for i, want := range []uint32{0, 0, 3, 4} {
		if got := binary.LittleEndian.Uint32(offsets[4*i:]); got != want {
			t.Errorf("offset %d = %d, want %d", i, got, want)
		}
	}
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true, true, false, false, true, true, false, true, true}, nil)
	bools := bb.NewArray()
	defer bools.Release()
	bs := array.NewSlice(bools, 3, 11)
	defer bs.Release()
	valid, data, _, err = hostParts(bs)
	if err != nil || valid != nil || data[0] != 0b11011001 {
		t.Errorf("bools: validity %v, data %08b, %v", valid, data, err)
	}
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{1, 2, 3}, nil)
	ints := ib.NewArray()
	defer ints.Release()
	is := array.NewSlice(ints, 1, 3)
	defer is.Release()
	if _, data, _, _ = hostParts(is); binary.LittleEndian.Uint64(data) != 2 || len(data) != 16 {
		t.Errorf("int64 slice bytes %v", data)
	}
	empty := array.NewStringBuilder(mem).NewArray()
	defer empty.Release()
	if _, _, offsets, err = hostParts(empty); err != nil || len(offsets) != 4 {
		t.Errorf("empty strings: offsets %v, %v", offsets, err)
	}
	lb := array.NewInt16Builder(mem)
	lb.Append(1)
	i16 := lb.NewArray()
	defer i16.Release()
	if _, _, _, err := hostParts(i16); !errors.Is(err, errs.Unsupported) {
		t.Errorf("int16 column: want Unsupported, got %v", err)
	}
}
