package exec

import (
	"errors"
	"sync/atomic"
	"testing"

	"gq/errs"
)

func TestParallelRecoversPanics(t *testing.T) {
	var ran atomic.Int32
	err := parallel(4, func(i int) {
		ran.Add(1)
		if i == 2 {
			panic("boom")
		}
	})
	if !errors.Is(err, errs.Internal) {
		t.Fatalf("want an Internal error from the panicking worker, got %v", err)
	}
	if ran.Load() != 4 {
		t.Fatalf("every worker must run: %d ran", ran.Load())
	}
	if err := parallel(3, func(int) {}); err != nil {
		t.Fatalf("no panic, no error: %v", err)
	}
}
