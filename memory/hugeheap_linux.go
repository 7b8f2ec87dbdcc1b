package memory

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// thpDir is where Linux describes transparent huge pages.
const thpDir = "/sys/kernel/mm/transparent_hugepage/"

// hugePageSize is the size of a transparent huge page when marking memory
// changes what the process gets: the system mode is "madvise" (under
// "always" every mapping has them already, under "never" none may).
// Zero otherwise.
func hugePageSize() int64 {
	mode, err := os.ReadFile(thpDir + "enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		return 0
	}
	size, err := os.ReadFile(thpDir + "hpage_pmd_size")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64)
	if err != nil || n <= 0 || n&(n-1) != 0 {
		return 0
	}
	return n
}

// thpDisabledByGODEBUG reports whether GODEBUG asks the runtime to keep
// huge pages off the heap (disablethp=1); the last setting wins, as in
// the runtime.
func thpDisabledByGODEBUG() bool {
	off := false
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "disablethp="); ok {
			off = v == "1"
		}
	}
	return off
}

// adviseHugePages marks the whole huge pages inside b MADV_HUGEPAGE. A
// failure only leaves the pages small, so it is not reported.
func adviseHugePages(b []byte, page int64) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + uintptr(page) - 1) &^ (uintptr(page) - 1)
	end := (p + uintptr(len(b))) &^ (uintptr(page) - 1)
	if beg < end {
		syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE)
	}
}
