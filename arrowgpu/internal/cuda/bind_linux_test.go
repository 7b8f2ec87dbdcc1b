//go:build linux

package cuda

import (
	"testing"

	"github.com/ebitengine/purego"
)

// purego checks a function's Go signature when it is bound and panics on
// a type it cannot pass. Binding every driver and NVRTC function to some
// real symbol (never called) catches that here instead of on the first
// GPU machine.
func TestBindingSignatures(t *testing.T) {
	var h uintptr
	var err error
	for _, p := range []string{"libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6"} {
		if h, err = purego.Dlopen(p, purego.RTLD_NOW); err == nil {
			break
		}
	}
	if h == 0 {
		t.Skipf("no libc to bind against: %v", err)
	}
	sym, err := purego.Dlsym(h, "abs")
	if err != nil {
		t.Fatal(err)
	}
	var d driverAPI
	var n nvrtcAPI
	all := d.symbols()
	for k, v := range n.required() {
		all[k] = v
	}
	all["nvrtcGetNumSupportedArchs"] = &n.nvrtcGetNumSupportedArchs
	all["nvrtcGetSupportedArchs"] = &n.nvrtcGetSupportedArchs
	for name, fp := range all {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: purego rejects the signature: %v", name, r)
				}
			}()
			purego.RegisterFunc(fp, sym)
		}()
	}
	if len(all) < 45 {
		t.Errorf("only %d functions bound", len(all))
	}
}
