package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/physical"
	"gq/shuffle"
)

// TestSQLLogicRanks runs the sqllogictest files on three ranks of the
// local backend (tiny batches, so exchanges carry many chunks; no
// broadcast joins, so every join repartitions — TPC-H covers broadcasts):
// rank 0 must answer as one rank does, and a failing statement must fail
// on every rank (none may hang).
func TestSQLLogicRanks(t *testing.T) {
	runTestFilesRanks(t, 2, func(t *testing.T) []shuffle.Communicator {
		var out []shuffle.Communicator
		for _, c := range shuffle.NewLocal(3) {
			out = append(out, c)
		}
		return out
	})
}

// TestSQLLogicRanksTCP runs the same files on three ranks of the tcp
// backend over loopback, every payload checksummed (ChecksumAlways, as
// off the host), with default batches: framing, checksums and the
// receive-buffer pool under the whole suite.
func TestSQLLogicRanksTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("the local-backend run covers the plans; this one the transport")
	}
	runTestFilesRanks(t, 0, func(t *testing.T) []shuffle.Communicator {
		tcps, err := shuffle.LoopbackTCP(3, shuffle.TCPOptions{Checksum: shuffle.ChecksumAlways})
		if err != nil {
			t.Fatal(err)
		}
		comms := make([]shuffle.Communicator, len(tcps))
		for i, c := range tcps {
			comms[i] = c
		}
		t.Cleanup(func() {
			var wg sync.WaitGroup
			for _, c := range tcps {
				wg.Add(1)
				go func() { defer wg.Done(); c.Close() }()
			}
			wg.Wait()
		})
		return comms
	})
}

// runTestFilesRanks runs every sqllogictest file on the ranks comms makes
// for it, with batches of batch rows (0: the default) and no broadcast
// joins.
func runTestFilesRanks(t *testing.T, batch int, comms func(*testing.T) []shuffle.Communicator) {
	defer func(b int64) { physical.BroadcastRows = b }(physical.BroadcastRows)
	physical.BroadcastRows = -1
	files, err := filepath.Glob("../testdata/sql/*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			runTestFileRanks(t, file, comms(t), batch)
		})
	}
}

// runTestFileRanks runs file's records on one engine per comm, with
// batches of batch rows (0: the default).
func runTestFileRanks(t *testing.T, file string, comms []shuffle.Communicator, batch int) {
	n := len(comms)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := parseTest(string(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	engines := make([]*Engine, n)
	for r := range n {
		e := newTestEngine(t, Options{Threads: 2, BatchSize: batch})
		e.opts.Comm = comms[r]
		engines[r] = e
	}
	for _, rec := range recs {
		where := fmt.Sprintf("%s:%d", filepath.Base(file), rec.line)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		results := make([]*Result, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for r, e := range engines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[r], errs[r] = e.Query(ctx, rec.sql)
			}()
		}
		wg.Wait()
		cancel()
		var got []string
		if results[0] != nil {
			got = resultLines(results[0])
		}
		for r := 1; r < n; r++ {
			if results[r] != nil && results[r].NumRows() > 0 {
				t.Errorf("%s: rank %d returned %d rows, want none (rank 0 answers)", where, r, results[r].NumRows())
			}
		}
		for _, res := range results {
			if res != nil {
				res.Release()
			}
		}
		switch {
		case rec.wantErr:
			for r, err := range errs {
				if err == nil {
					t.Errorf("%s: rank %d: expected error %q, got success\n%s", where, r, rec.errText, rec.sql)
				}
			}
			if errs[0] != nil && !strings.Contains(strings.ToLower(errs[0].Error()), strings.ToLower(rec.errText)) {
				t.Errorf("%s: error %q does not contain %q\n%s", where, errs[0], rec.errText, rec.sql)
			}
			continue
		case errs[0] != nil || errs[1] != nil:
			t.Errorf("%s: %v / %v\n%s", where, errs[0], errs[1], rec.sql)
			continue
		case rec.kind == "statement":
			continue
		}
		if rec.sortRow {
			sort.Strings(got)
		}
		if strings.Join(got, "\n") != strings.Join(rec.want, "\n") {
			t.Errorf("%s: wrong result\n%s\n--- got\n%s\n--- want\n%s", where, rec.sql, strings.Join(got, "\n"), strings.Join(rec.want, "\n"))
		}
	}
}
