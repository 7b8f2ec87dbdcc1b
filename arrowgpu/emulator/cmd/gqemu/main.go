// Command gqemu builds the CPU emulation of a CUDA device (package
// arrowgpu/emulator) and prints the environment that makes gq use it:
//
//	eval "$(go run ./arrowgpu/emulator/cmd/gqemu)"
//	gq --device gpu ...
package main

import (
	"fmt"
	"os"
	"sort"

	"gq/arrowgpu/emulator"
)

func main() {
	lib, err := emulator.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gqemu:", err)
		os.Exit(1)
	}
	env := emulator.Env(lib)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("export %s=%s\n", k, env[k])
	}
}
