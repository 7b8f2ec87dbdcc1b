//go:build !linux

package main

import "syscall"

// askParentDeathSignal: only Linux has parent-death signals; elsewhere the
// poll (watchLauncher) is the only watch.
func askParentDeathSignal() {}

// processAlive reports whether process pid exists.
func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }
