package exec

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gq/errs"
)

// TestGoRecoversPanic: a panicking operator goroutine fails its query with
// an Internal error and cancels the rest, instead of ending the process.
func TestGoRecoversPanic(t *testing.T) {
	c := NewContext(context.Background(), Options{})
	c.Go(func() error {
		var m map[string]int
		m["x"] = 1 // a nil-map write: a runtime panic
		return nil
	})
	c.Go(func() error {
		<-c.Done() // a sibling sees the cancellation
		return c.Err()
	})
	err := c.Wait()
	if !errors.Is(err, errs.Internal) || !strings.Contains(err.Error(), "operator panicked") {
		t.Fatalf("got %v, want an Internal 'operator panicked' error", err)
	}
}
