package errs

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestKinds(t *testing.T) {
	e := New(Binding, "column %q not found", "x")
	if !errors.Is(e, Binding) || errors.Is(e, Syntax) {
		t.Fatalf("errors.Is on kind broken: %v", e)
	}
	wrapped := fmt.Errorf("outer: %w", e)
	if KindOf(wrapped) != Binding {
		t.Fatalf("KindOf(wrapped) = %v", KindOf(wrapped))
	}
	if KindOf(errors.New("plain")) != Internal {
		t.Fatal("an error without a kind must be Internal")
	}
	if KindOf(context.Canceled) != Cancelled || KindOf(fmt.Errorf("x: %w", context.DeadlineExceeded)) != Cancelled {
		t.Fatal("context errors must be Cancelled")
	}
	io := Wrap(IO, errors.New("no such file"), "open %s", "a.parquet")
	if !errors.Is(io, IO) || io.Error() != "io error: open a.parquet: no such file" {
		t.Fatalf("Wrap: %v", io)
	}
	if Wrap(IO, e, "ignored") != error(e) {
		t.Fatal("Wrap must keep an existing kind")
	}
	at := &Error{Kind: Syntax, Msg: "bad", Line: 2, Col: 5}
	if at.Error() != "syntax error at line 2, column 5: bad" {
		t.Fatalf("positioned message: %q", at.Error())
	}
}
