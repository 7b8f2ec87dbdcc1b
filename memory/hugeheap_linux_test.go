package memory

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vmFlagsAt returns the VmFlags of the mapping of /proc/self/smaps that
// holds address p.
func vmFlagsAt(t *testing.T, p uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(line, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(p) >= a && uint64(p) < b
				continue
			}
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(v)
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return nil
}

func TestAdviseHugeHeapMarksTheNextGrowth(t *testing.T) {
	page := hugePageSize()
	if page == 0 {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	if thpDisabledByGODEBUG() {
		t.Skip("GODEBUG=disablethp=1")
	}
	AdviseHugeHeap(64 << 20)
	// A buffer of several huge pages allocated next lands in the marked
	// stretch: the allocator takes the lowest free run that fits.
	b := make([]byte, 8<<20)
	b[0], b[len(b)-1] = 1, 1
	flags := vmFlagsAt(t, uintptr(unsafe.Pointer(&b[len(b)/2])))
	found := false
	for _, f := range flags {
		found = found || f == "hg"
	}
	if !found {
		t.Fatalf("the heap's next growth is not marked for huge pages: VmFlags %v", flags)
	}
}

func TestThpDisabledByGODEBUG(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"gctrace=1, disablethp=1", true},
		{"disablethp=1,disablethp=0", false},
		{"disablethp=0", false},
	} {
		t.Setenv("GODEBUG", c.godebug)
		if got := thpDisabledByGODEBUG(); got != c.want {
			t.Errorf("GODEBUG=%q: got %v, want %v", c.godebug, got, c.want)
		}
	}
}
