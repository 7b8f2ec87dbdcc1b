package shuffle

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"gq/errs"
)

// TestForgetOpsBelow: messages of finished statements (op ids below the
// floor) are dropped whether queued or arriving later; newer ops and
// gq's own tags above the op ids are kept; the floor may move down (op
// ids wrap).
func TestForgetOpsBelow(t *testing.T) {
	for _, c := range []struct {
		name  string
		comms []Communicator
	}{
		{"local", func() []Communicator { l := NewLocal(2); return []Communicator{l[0], l[1]} }()},
		{"tcp", func() []Communicator {
			tc, err := LoopbackTCP(2, TCPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return []Communicator{tc[0], tc[1]}
		}()},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := c.comms[0], c.comms[1]
			defer a.Close()
			defer b.Close()
			send := func(tag Tag, s string) {
				t.Helper()
				if err := a.Send(1, tag, []byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			recv := func(tag Tag) string {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				m, err := b.Recv(ctx, tag)
				if err != nil {
					t.Fatalf("tag %d: %v", tag, err)
				}
				return string(m.Data)
			}
			waitQueued := func(n int) {
				t.Helper()
				for deadline := time.Now().Add(5 * time.Second); Queued(b) != n; {
					if time.Now().After(deadline) {
						t.Fatalf("%d messages queued, want %d", Queued(b), n)
					}
					time.Sleep(time.Millisecond)
				}
			}
			send(4096, "old statement")
			send(4097, "old chunk")
			send(8192, "new statement")
			send(1<<40, "serve")
			waitQueued(4)
			ForgetOpsBelow(b, 8192)
			waitQueued(2)
			send(4098, "late chunk of the old statement")
			send(8193, "new chunk")
			waitQueued(3) // the late one is dropped on arrival
			if got := recv(8192); got != "new statement" {
				t.Fatalf("got %q", got)
			}
			if got := recv(8193); got != "new chunk" {
				t.Fatalf("got %q", got)
			}
			if got := recv(1 << 40); got != "serve" {
				t.Fatalf("got %q", got)
			}
			ForgetOpsBelow(b, 0) // wrapped
			send(1, "after the wrap")
			if got := recv(1); got != "after the wrap" {
				t.Fatalf("got %q", got)
			}
			waitQueued(0)
		})
	}
}

// TestAbortCarriesKind: a peer waiting in a shuffle that another rank
// abandoned fails with the abandoning rank's error kind (a cancellation
// on one rank is a cancellation everywhere), and with Communication for
// an abort from a build that sends no kind.
func TestAbortCarriesKind(t *testing.T) {
	comms := locals(2)
	for i, c := range []struct {
		cause error
		want  *errs.Kind
	}{
		{errs.New(errs.Cancelled, "waiting for a shuffle"), errs.Cancelled},
		{errs.New(errs.ResourcesExhausted, "HOST: 10 MiB over the 8 MiB limit"), errs.ResourcesExhausted},
		{errs.New(errs.Execution, "division overflow"), errs.Execution},
		{context.Canceled, errs.Cancelled},
	} {
		op := uint32(100 + i)
		NewShuffler(comms[0], op, 2, Contiguous, nil).Abort(c.cause)
		s := NewShuffler(comms[1], op, 2, Contiguous, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := s.WaitAny(ctx)
		cancel()
		s.Shutdown()
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "rank 0 failed: ") || !strings.Contains(err.Error(), c.cause.Error()) {
			t.Errorf("abort with %v: got %v, want kind %v", c.cause, err, c.want)
		}
	}
	// An old-style abort: reason text only.
	comms[0].Send(1, Tag(200), append([]byte("boom"), kindAbort))
	s := NewShuffler(comms[1], 200, 2, Contiguous, nil)
	defer s.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.WaitAny(ctx); !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank 0 failed: boom") {
		t.Errorf("a reason without kind: got %v", err)
	}
}
