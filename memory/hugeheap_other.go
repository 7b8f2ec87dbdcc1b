//go:build !linux

package memory

// hugePageSize is zero: marking memory for huge pages is Linux's
// madvise(MADV_HUGEPAGE) only.
func hugePageSize() int64 { return 0 }

func thpDisabledByGODEBUG() bool { return false }

func adviseHugePages([]byte, int64) {}
