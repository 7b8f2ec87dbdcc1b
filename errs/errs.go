// Package errs defines the kinds of error gq reports. Every error that leaves
// the engine carries one kind, testable with errors.Is:
//
//	if errors.Is(err, errs.Binding) { ... }
//
// An error may also carry a position in the SQL text (1-based line and column)
// or a token to locate there (Near), which the engine turns into a position.
package errs

import (
	"context"
	"errors"
	"fmt"
)

// Kind classifies an error. Kinds are comparable sentinels: errors.Is(err, kind).
type Kind struct{ name string }

func (k *Kind) Error() string { return k.name }

var (
	// Syntax: the SQL text does not parse.
	Syntax = &Kind{"syntax error"}
	// Binding: names or types in a parsed statement do not resolve (unknown
	// table or column, type mismatch, wrong argument count).
	Binding = &Kind{"binding error"}
	// Unsupported: valid SQL that gq does not implement; the message names the feature.
	Unsupported = &Kind{"unsupported"}
	// Execution: a runtime failure of the query's data (overflow, bad cast,
	// subquery returning more than one row).
	Execution = &Kind{"execution error"}
	// IO: a file is missing, unreadable or corrupt.
	IO = &Kind{"io error"}
	// ResourcesExhausted: a memory or disk limit was reached.
	ResourcesExhausted = &Kind{"resources exhausted"}
	// Cancelled: the query was cancelled or timed out.
	Cancelled = &Kind{"cancelled"}
	// Communication: a peer rank or client failed.
	Communication = &Kind{"communication error"}
	// Internal: a bug in gq.
	Internal = &Kind{"internal error"}
)

// KindNamed returns the kind whose name (Kind.Error) is name, or nil: a
// kind crossing a process boundary (a rank's failure, a server's answer)
// travels as its name.
func KindNamed(name string) *Kind {
	for _, k := range []*Kind{Syntax, Binding, Unsupported, Execution, IO, ResourcesExhausted, Cancelled, Communication, Internal} {
		if k.name == name {
			return k
		}
	}
	return nil
}

// Error is gq's error value.
type Error struct {
	Kind *Kind
	Msg  string
	// Line and Col are the 1-based position of the fault in the statement
	// text, 0 when unknown.
	Line, Col int
	// Near is a token of the statement text where the fault is (an unknown
	// name, say); the engine uses it to compute Line and Col when they are 0.
	Near  string
	cause error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s at line %d, column %d: %s", e.Kind.name, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Kind.name, e.Msg)
}

// Is reports whether target is this error's kind.
func (e *Error) Is(target error) bool { return target == error(e.Kind) }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an error of the given kind.
func New(kind *Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// NewNear returns an error of the given kind located at the token near in the SQL text.
func NewNear(kind *Kind, near string, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Near: near}
}

// Wrap returns an error of the given kind whose message is prefixed by msg
// and which unwraps to cause. A cause that already has a kind keeps it.
func Wrap(kind *Kind, cause error, format string, args ...any) error {
	if cause == nil {
		return nil
	}
	var ge *Error
	if errors.As(cause, &ge) {
		return cause
	}
	msg := fmt.Sprintf(format, args...)
	if msg != "" {
		msg += ": "
	}
	return &Error{Kind: kind, Msg: msg + cause.Error(), cause: cause}
}

// KindOf returns the kind of err, or Internal if it has none.
func KindOf(err error) *Kind {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.Kind
	}
	if errors.Is(err, Cancelled) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Cancelled
	}
	return Internal
}

// Within is err said of a part of a statement: prefix (e.g. "column a")
// before its message, near naming where it is. err keeps its kind; an
// error without one becomes Internal.
func Within(err error, near, prefix string) error {
	var ge *Error
	if !errors.As(err, &ge) {
		return &Error{Kind: Internal, Msg: prefix + ": " + err.Error(), Near: near, cause: err}
	}
	return &Error{Kind: ge.Kind, Msg: prefix + ": " + ge.Msg, Near: near, cause: err}
}
