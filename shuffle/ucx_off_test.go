//go:build !ucx

package shuffle

import (
	"errors"
	"strings"
	"testing"

	"gq/errs"
)

// Asking a build without the ucx tag for the ucx backend says which tag
// to build with, instead of quietly using another backend.
func TestUCXNeedsBuildTag(t *testing.T) {
	_, err := bootstrapUCX(Launch{Rank: 0, NRanks: 2, CoordAddr: "127.0.0.1:1"}, TCPOptions{})
	if !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "-tags ucx") {
		t.Fatalf("got %v, want an unsupported error naming the ucx build tag", err)
	}
}
