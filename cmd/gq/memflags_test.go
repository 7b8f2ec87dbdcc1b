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
// spill statistics and the operators' figures to stderr and --stats-json
// writes them as JSON.
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
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	var spilled struct {
		Count int64
		Value float64
	}
	if err := json.Unmarshal(doc["spill-bytes-host-to-disk"], &spilled); err != nil || spilled.Count == 0 || spilled.Value <= 0 {
		t.Errorf("JSON spill-bytes-host-to-disk = %+v (%v)", spilled, err)
	}
	// The query's operators: the sort spilled (all of the query's spill
	// bytes), the scan did not; the scan read the 6 rows of people.
	var queries []struct {
		Statement string
		Operators []struct {
			Depth    int
			Operator string
			Rows     int64
			Spilled  int64 `json:"spilled_bytes"`
		}
	}
	if err := json.Unmarshal(doc["queries"], &queries); err != nil || len(queries) != 1 {
		t.Fatalf("JSON queries: %v in %s", err, data)
	}
	var sortSpilled, scanRows int64 = -1, -1
	for _, op := range queries[0].Operators {
		switch {
		case strings.HasPrefix(op.Operator, "Sort "):
			sortSpilled = op.Spilled
		case strings.HasPrefix(op.Operator, "Scan people"):
			scanRows = op.Rows
			if op.Spilled != 0 {
				t.Errorf("the scan spilled %d bytes", op.Spilled)
			}
		}
	}
	if sortSpilled != int64(spilled.Value) || scanRows != 6 {
		t.Errorf("sort spilled %d bytes (query %v), scan rows %d (want 6):\n%s", sortSpilled, spilled.Value, scanRows, data)
	}
	if !strings.Contains(errOut.String(), "Operators:") || !strings.Contains(errOut.String(), "peak mem") {
		t.Errorf("--stats output lacks the operators:\n%s", errOut.String())
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
