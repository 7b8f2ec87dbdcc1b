package engine

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"gq/catalog"
	gqmem "gq/memory"
)

// TestMain fails the package's tests if any goroutine outlives them: every
// query — finished, failed (the bad-input catalogue) or cancelled — must
// stop all the operator goroutines it started. Two long-lived goroutines
// are expected and ignored: glog's flush daemon (a process-wide
// dependency's) and each Engine's periodic spill check, which lives until
// Engine.Close — and most tests here never close their engines. On a
// GPU machine (make test-gpu) the device's worker threads live for the
// process too.
//
// Freed buffers are poisoned before they are recycled
// (gqmem.SetPoisonFreed), so that an operator reading a batch after
// releasing it fails the checked results here instead of reading another
// batch's values, some of the time, in production.
//
// It is the tests' edge too: the device's GQ_* variables (gqemu's
// GQ_LIBCUDA and GQ_LIBNVRTC among them) configure it as gq's do, and
// testNew gives the engines the others.
func TestMain(m *testing.M) {
	gqmem.SetPoisonFreed(true)
	ConfigureDevice(os.LookupEnv)
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"),
		goleak.IgnoreAnyFunction("gq/memory.(*SpillManager).StartPeriodicCheck.func1"),
		goleak.IgnoreAnyFunction("gq/arrowgpu.(*Device).worker"),
	)
}

// testNew is New as a gq binary calls it: the GQ_* variables of the test
// matrix (GQ_DEVICE=gpu, GQ_SPILL_ALWAYS=1, GQ_MEMORY_LIMIT=...) fill
// what opts leaves unset. The environment is read at each call, so that a
// test's t.Setenv applies to the engines it makes after.
func testNew(cat *catalog.Catalog, opts Options) *Engine {
	return New(cat, opts.WithEnv(os.LookupEnv))
}
