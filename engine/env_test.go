package engine

import (
	"context"
	"testing"

	"gq/catalog"
	gqmem "gq/memory"
)

// mapEnv is a lookup over m, as os.LookupEnv over an environment.
func mapEnv(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestOptionsWithEnv: the GQ_* variables fill what Options leaves unset
// and nothing it sets, as the engine read them itself before issue 29.
func TestOptionsWithEnv(t *testing.T) {
	env := map[string]string{"GQ_DEVICE": "gpu", "GQ_FALLBACK_MODE": "raise", "GQ_MEMORY_LIMIT": "16MiB", "GQ_DISK_LIMIT": "1GiB", "GQ_SPILL_ALWAYS": "1"}
	o := Options{}.WithEnv(mapEnv(env))
	if o.Device != "gpu" || o.FallbackMode != "raise" || !o.SpillAlways || o.Limits == nil ||
		o.Limits[gqmem.Host] != 16<<20 || o.Limits[gqmem.Disk] != 1<<30 || o.Limits[gqmem.Device] != gqmem.Unlimited {
		t.Errorf("from the environment: %+v, limits %v", o, o.Limits)
	}
	mine := gqmem.NoLimits()
	o = Options{Device: "cpu", FallbackMode: "warn", Limits: &mine}.WithEnv(mapEnv(env))
	if o.Device != "cpu" || o.FallbackMode != "warn" || o.Limits != &mine {
		t.Errorf("the embedder's settings must win: %+v", o)
	}
	o = Options{}.WithEnv(mapEnv(nil))
	if o.Device != "" || o.FallbackMode != "" || o.SpillAlways || (o.Limits != nil && *o.Limits != gqmem.NoLimits()) {
		t.Errorf("an empty environment changed the options: %+v", o)
	}
	env["GQ_PINNED_MEMORY_LIMIT"] = "lots"
	if o = (Options{}).WithEnv(mapEnv(env)); o.Limits != nil {
		t.Errorf("a malformed limit: limits %v, want none applied", *o.Limits)
	}
}

// TestSpillAlwaysFromTheMatrix: GQ_SPILL_ALWAYS=1, set as the test matrix
// sets it, still reaches an engine made by the tests' edge (testNew): its
// sort spills to disk.
func TestSpillAlwaysFromTheMatrix(t *testing.T) {
	t.Setenv("GQ_SPILL_ALWAYS", "1")
	cat := catalog.New()
	if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{Device: "cpu", BatchSize: 2, SpillDir: t.TempDir()})
	defer e.Close()
	if !e.Memory().SpillAlways() {
		t.Fatal("GQ_SPILL_ALWAYS=1: the engine's buffer resource does not spill always")
	}
	res, err := e.Query(context.Background(), "select * from people order by name desc")
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	spilled, _ := res.Stats.GetStat(gqmem.StatSpillBytesHostToDisk)
	if spilled.Value <= 0 {
		t.Errorf("GQ_SPILL_ALWAYS=1: the sort spilled nothing (%v)", res.Stats.Report())
	}
}
