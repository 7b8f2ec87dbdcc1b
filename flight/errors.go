package flight

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"syscall"

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
		code = ioCode(err)
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

// ioCode is the code of a file error. Unavailable tells clients to retry,
// so it is kept for conditions that pass (a timeout, a descriptor or
// memory shortage, an interrupted call); a missing file is NotFound, one
// the server may not read PermissionDenied, a full disk
// ResourceExhausted, and the rest — a file that does not parse as its
// format, a directory named as a file — the statement's input:
// InvalidArgument, which retrying cannot fix.
func ioCode(err error) codes.Code {
	var ne net.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return codes.NotFound
	case errors.Is(err, fs.ErrPermission):
		return codes.PermissionDenied
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return codes.ResourceExhausted
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR),
		errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE), errors.Is(err, syscall.ENOMEM),
		errors.As(err, &ne) && ne.Timeout():
		return codes.Unavailable
	}
	return codes.InvalidArgument
}
