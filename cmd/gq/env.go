package main

import (
	"os"
	"strconv"
	"time"

	"gq/engine"
)

// gq's libraries read no environment variable: this binary is their edge.
// Every GQ_* variable (and a launcher's RRUN_*, OMPI_*, SLURM_*) is read
// through getenv and lookupEnv, here or in the flag defaults and options
// built from them, and passed down as values (the README's table of
// variables says which option each sets).
var (
	getenv    = os.Getenv
	lookupEnv = os.LookupEnv
)

// envDuration reads a duration ("30s") from the environment; unset or
// unreadable is 0 (no limit).
func envDuration(name string) time.Duration {
	d, _ := time.ParseDuration(getenv(name))
	return d
}

func envInt(name string) int {
	n, _ := strconv.Atoi(getenv(name))
	return n
}

// configureDevice passes the device's settings (GQ_LIBCUDA, GQ_LIBNVRTC,
// GQ_KERNEL_CACHE, GQ_CUDA_SYNC, GQ_GPU_STREAMS) to the layers under the
// engine before anything loads the driver: a bad value fails the
// device's opening, as --device says.
func configureDevice() { engine.ConfigureDevice(lookupEnv) }
