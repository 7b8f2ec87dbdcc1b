package main

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// askParentDeathSignal has the kernel send this process SIGTERM when its
// parent dies: a rank that a rank's shell started learns at once that the
// shell (killed with rrun) is gone. SIGTERM ends a rank through its exit
// hooks (watch).
func askParentDeathSignal() {
	unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGTERM), 0, 0, 0)
}

// processAlive reports whether process pid runs: a zombie (killed, not yet
// reaped by its parent) does not.
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and may
	// hold spaces of its own.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+2 >= len(b) {
		return true
	}
	state := b[i+2]
	return state != 'Z' && state != 'X'
}
