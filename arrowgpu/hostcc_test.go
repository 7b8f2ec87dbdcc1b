package arrowgpu

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed testdata/cuda_shim.h
var cudaShim string

// hostCheck type-checks CUDA source with g++ and a shim of the CUDA
// built-ins: it catches syntax and type errors in the embedded and
// generated kernels without a GPU or NVRTC. Skips when g++ is absent.
func hostCheck(t *testing.T, name, src string) {
	t.Helper()
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not found: CUDA sources not host-checked")
	}
	dir := t.TempDir()
	shim := filepath.Join(dir, "cuda_shim.h")
	if err := os.WriteFile(shim, []byte(cudaShim), 0o644); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gxx, "-fsyntax-only", "-std=c++17", "-Wall", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Werror", "-x", "c++", "-include", shim, f).CombinedOutput()
	if err != nil {
		t.Fatalf("g++ rejects %s: %v\n%s", name, err, out)
	}
}

func TestKernelSourcesHostCompile(t *testing.T) {
	hostCheck(t, "builtin.cu", builtinSource())
}

func TestFusedSourceHostCompile(t *testing.T) {
	f, err := GenerateFused(fusedFixtures(), q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	hostCheck(t, "fused.cu", f.fullSource())
}
