package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// startBound starts cmd (rank r) pinned to one CPU core (core: core r
// mod the CPUs) or to the CPUs of one NUMA node (numa: node r mod the
// nodes). The affinity is set on the thread that forks, which the child
// inherits, so the rank runs bound from its first instruction. A binding
// the machine refuses is reported through bindErr and the rank runs
// unbound.
func startBound(cmd *exec.Cmd, mode string, r int) (bindErr, err error) {
	set, bindErr := cpuSet(mode, r)
	if bindErr != nil || set == nil {
		return bindErr, cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.CPUSet
	if bindErr = unix.SchedGetaffinity(0, &old); bindErr == nil {
		bindErr = unix.SchedSetaffinity(0, set)
	}
	if bindErr != nil {
		return bindErr, cmd.Start()
	}
	err = cmd.Start()
	// Restoring the mask this thread had a moment ago does not fail.
	unix.SchedSetaffinity(0, &old)
	return nil, err
}

// cpuSet is the CPU set of rank r under mode (nil for none).
func cpuSet(mode string, r int) (*unix.CPUSet, error) {
	var cpus []int
	switch mode {
	case "none":
		return nil, nil
	case "core":
		cpus = []int{r % runtime.NumCPU()}
	case "numa":
		nodes, err := numaNodes()
		if err != nil {
			return nil, err
		}
		cpus = nodes[r%len(nodes)]
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return &set, nil
}

// numaNodes lists each NUMA node's CPUs from sysfs.
func numaNodes() ([][]int, error) {
	dirs, _ := filepath.Glob("/sys/devices/system/node/node[0-9]*")
	sort.Strings(dirs)
	var out [][]int
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cpulist"))
		if err != nil {
			continue
		}
		cpus, err := parseCPUList(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, err
		}
		if len(cpus) > 0 {
			out = append(out, cpus)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no NUMA nodes found in /sys/devices/system/node")
	}
	return out, nil
}

// parseCPUList parses the kernel's list format, e.g. "0-3,8,10-11".
func parseCPUList(s string) ([]int, error) {
	var out []int
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("bad CPU list %q", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("bad CPU list %q", s)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}
