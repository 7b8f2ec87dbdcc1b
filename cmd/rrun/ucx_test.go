//go:build ucx

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRRunUCX runs TPC-H q05 and q18 on three gq processes talking UCX
// (gq built with -tags ucx) and compares rank 0's output with one
// process's. make test-ucx runs it where libucx-dev is installed.
func TestRRunUCX(t *testing.T) {
	gq, rrun := binaries(t)
	dir := t.TempDir()
	gqUCX := filepath.Join(dir, "gq-ucx")
	if out, err := exec.Command("go", "build", "-tags", "ucx", "-o", gqUCX, "gq/cmd/gq").CombinedOutput(); err != nil {
		t.Fatalf("building gq with -tags ucx: %v\n%s", err, out)
	}
	data := tpchData(t)
	for _, q := range []string{"q05", "q18"} {
		sql := filepath.Join("..", "..", "testdata", "tpch", "queries", q+".sql")
		want, err := exec.Command(gq, "--data", data, "--format", "csv", "-f", sql).Output()
		if err != nil {
			t.Fatalf("%s on one process: %v", q, err)
		}
		cmd := exec.Command(rrun, "-n", "3", "-x", "GQ_COMM=ucx", "-x", "GQ_THREADS=1", gqUCX, "--data", data, "--format", "csv", "-f", sql)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Env = append(os.Environ(), "GQ_CONNECT_TIMEOUT=30s")
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s on 3 ucx ranks: %v\n%s", q, err, stderr.String())
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: 3 ucx ranks printed\n%s\none process printed\n%s", q, got, want)
		}
	}
}
