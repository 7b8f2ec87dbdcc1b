//go:build !ucx

package shuffle

import "gq/errs"

// bootstrapUCX, in a build without the ucx tag, says how to get the
// backend instead of falling back to another one.
func bootstrapUCX(l Launch, opts TCPOptions) (Communicator, error) {
	return nil, errs.New(errs.Unsupported, "communicator backend ucx: this gq was built without it; rebuild with `go build -tags ucx` (needs libucx-dev and cgo)")
}
