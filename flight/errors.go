package flight

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/errs"
)

// toStatus turns an engine error into a gRPC status whose code tells a
// client what kind of failure it was (a syntax error is the caller's
// fault, a cancelled query is not a server bug).
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok && errs.KindOf(err) == errs.Internal {
		return err // already a status (from grpc or flightsql)
	}
	code := codes.Internal
	switch errs.KindOf(err) {
	case errs.Syntax, errs.Binding:
		code = codes.InvalidArgument
	case errs.Unsupported:
		code = codes.Unimplemented
	case errs.Execution:
		code = codes.FailedPrecondition
	case errs.IO:
		code = codes.Unavailable
	case errs.ResourcesExhausted:
		code = codes.ResourceExhausted
	case errs.Cancelled:
		code = codes.Canceled
		if errors.Is(err, context.DeadlineExceeded) {
			code = codes.DeadlineExceeded
		}
	case errs.Communication:
		code = codes.Unavailable
	}
	return status.Error(code, err.Error())
}
