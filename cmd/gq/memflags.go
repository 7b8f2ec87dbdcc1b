package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"gq/engine"
	"gq/errs"
	gqmem "gq/memory"
)

// memoryFlags are the memory manager's and statistics' flags.
type memoryFlags struct {
	limit, deviceLimit, spillDir *string
	spillAlways, stats           *bool
	statsJSON                    *string

	// queries are the per-operator figures of each query, for --stats-json.
	mu      sync.Mutex
	queries []engine.QueryOperators
}

func memFlags(fs *flag.FlagSet) *memoryFlags {
	return &memoryFlags{
		limit:       fs.String("memory-limit", getenv("GQ_MEMORY_LIMIT"), `host memory limit for operator state: bytes, "4GiB" or "80%" of RAM; beyond it sorts spill to disk (env GQ_MEMORY_LIMIT)`),
		deviceLimit: fs.String("device-memory-limit", getenv("GQ_DEVICE_MEMORY_LIMIT"), "device memory limit: bytes or \"4GiB\" (env GQ_DEVICE_MEMORY_LIMIT)"),
		spillDir:    fs.String("spill-dir", getenv("GQ_SPILL_DIR"), "directory for spill files (default: a temporary directory removed at exit; env GQ_SPILL_DIR)"),
		spillAlways: fs.Bool("spill-always", gqmem.SpillAlwaysFromEnv(getenv), "spill everything spillable at every opportunity, a test mode (env GQ_SPILL_ALWAYS=1)"),
		stats:       fs.Bool("stats", false, "print each query's statistics (spills, peak memory) and its operators' (as EXPLAIN ANALYZE) to stderr"),
		statsJSON:   fs.String("stats-json", "", "write the statistics of all queries, and each query's operators', as JSON to `FILE` at exit"),
	}
}

// apply sets opts from the flags; a bad size is a usage error.
func (m *memoryFlags) apply(opts *engine.Options, stderr io.Writer) error {
	host, err := gqmem.ParseLimit(*m.limit, gqmem.HostMemory())
	if err != nil {
		return fmt.Errorf("--memory-limit: %w", err)
	}
	dev, err := gqmem.ParseLimit(*m.deviceLimit, 0)
	if err != nil {
		return fmt.Errorf("--device-memory-limit: %w", err)
	}
	if host != gqmem.Unlimited {
		opts.MemoryLimit = host
	}
	if dev != gqmem.Unlimited {
		opts.DeviceMemoryLimit = dev
	}
	opts.SpillDir, opts.SpillAlways = *m.spillDir, *m.spillAlways
	if *m.stats || *m.statsJSON != "" {
		opts.Stats = gqmem.NewStatistics(true)
	}
	if *m.stats {
		opts.AfterQuery = func(st *gqmem.Statistics) {
			m.mu.Lock()
			defer m.mu.Unlock()
			fmt.Fprint(stderr, st.Report())
		}
	}
	if *m.stats || *m.statsJSON != "" {
		// Per-operator figures: the query's operators run instrumented,
		// as under EXPLAIN ANALYZE.
		opts.AfterQueryOperators = func(q engine.QueryOperators) {
			m.mu.Lock()
			defer m.mu.Unlock()
			if *m.stats {
				fmt.Fprint(stderr, "Operators:\n"+q.Text)
			}
			if *m.statsJSON != "" {
				m.queries = append(m.queries, q)
			}
		}
	}
	return nil
}

// finish writes the JSON statistics (when asked) and closes the engine,
// removing its spill directory; it reports a failure on stderr.
func (m *memoryFlags) finish(eng *engine.Engine, stderr io.Writer) {
	if *m.statsJSON != "" {
		if err := m.writeJSON(eng.Statistics()); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
		}
	}
	if err := eng.Close(); err != nil {
		fmt.Fprintf(stderr, "Error: removing the spill directory: %v\n", err)
	}
}

// writeJSON writes the --stats-json file: the statistics of all queries
// by name ({"spill-bytes-host-to-disk": {"count": …, "value": …}, …}, as
// memory.Statistics.JSON writes them) and, under "queries", each query's
// statement and operators (exec.OperatorRow), in the order they ran.
func (m *memoryFlags) writeJSON(st *gqmem.Statistics) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	doc := map[string]any{}
	for name, v := range st.Snapshot() {
		doc[name] = v
	}
	queries := m.queries
	if queries == nil {
		queries = []engine.QueryOperators{}
	}
	doc["queries"] = queries
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return errs.Wrap(errs.Internal, err, "encoding statistics")
	}
	if err := os.WriteFile(*m.statsJSON, append(data, '\n'), 0o644); err != nil {
		return errs.Wrap(errs.IO, err, "writing statistics")
	}
	return nil
}
