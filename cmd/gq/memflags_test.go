package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatsFlags: --spill-always makes a sort spill, --stats prints the
// spill statistics to stderr and --stats-json writes them as JSON.
func TestStatsFlags(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "stats.json")
	spillDir := filepath.Join(dir, "spill")
	var out, errOut bytes.Buffer
	code := run([]string{"--data", "../../testdata/sql/data", "--spill-always", "--spill-dir", spillDir, "--batch-size", "2",
		"--stats", "--stats-json", jsonPath, "-c", "select name from people order by name desc"}, strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "name\nFrank\n") {
		t.Fatalf("output %q", out.String())
	}
	for _, want := range []string{"spill-bytes-host-to-disk", "spill-time-host-to-disk", "spill-bytes-disk-to-host", "peak-host-bytes"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("--stats output lacks %s:\n%s", want, errOut.String())
		}
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]struct {
		Count int64
		Value float64
	}
	if err := json.Unmarshal(data, &stats); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	if s := stats["spill-bytes-host-to-disk"]; s.Count == 0 || s.Value <= 0 {
		t.Errorf("JSON spill-bytes-host-to-disk = %+v", s)
	}
	if ents, _ := os.ReadDir(spillDir); len(ents) != 0 {
		t.Errorf("%d spill files left", len(ents))
	}
}

func TestMemoryLimitFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--memory-limit", "4XB", "-c", "select 1"}, strings.NewReader(""), &out, &errOut); code != exitUsage {
		t.Fatalf("bad limit: exit %d, want %d (%s)", code, exitUsage, errOut.String())
	}
	errOut.Reset()
	code := run([]string{"--data", "../../testdata/sql/data", "--memory-limit", "64", "-c", "select name from people order by name"}, strings.NewReader(""), &out, &errOut)
	if code != exitQuery || !strings.Contains(errOut.String(), "resources exhausted") {
		t.Fatalf("tiny limit: exit %d, stderr %q", code, errOut.String())
	}
}
