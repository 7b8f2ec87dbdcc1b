package engine

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: every
// query — finished, failed (the bad-input catalogue) or cancelled — must
// stop all the operator goroutines it started. Two long-lived goroutines
// are expected and ignored: glog's flush daemon (a process-wide
// dependency's) and each Engine's periodic spill check, which lives until
// Engine.Close — and most tests here never close their engines. On a
// GPU machine (make test-gpu) the device's worker threads live for the
// process too.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon"),
		goleak.IgnoreAnyFunction("gq/memory.(*SpillManager).StartPeriodicCheck.func1"),
		goleak.IgnoreAnyFunction("gq/arrowgpu.(*Device).worker"),
	)
}
