package flight

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
)

// A plaintext gRPC client of a TLS server sees only "error reading server
// preface: EOF": the server's TLS handshake reads the client's HTTP/2
// preface as a broken ClientHello and hangs up. So a TLS server looks at
// each connection's first bytes: one that starts with the HTTP/2 preface
// ("PRI * HTTP/2.0") is answered in plaintext HTTP/2 with a gRPC error
// saying that the server speaks TLS, and the server logs it; everything
// else goes to the TLS handshake unchanged. The look costs no extra read
// for a TLS client (its first bytes are replayed to the handshake) and
// happens in the connection's own goroutine, not in Accept.

// plaintextHint is what a plaintext client is told.
const plaintextHint = "this Flight SQL server accepts only TLS connections: connect with TLS (grpc+tls://, or the driver's TLS option)"

// sniffListener hands out sniffConns.
type sniffListener struct {
	net.Listener
	log    *slog.Logger
	logged atomic.Int64 // when the last plaintext client was logged (unix ns)
}

func (l *sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &sniffConn{Conn: c, l: l}, nil
}

// sniffConn is a connection whose first Read looks for the HTTP/2
// preface.
type sniffConn struct {
	net.Conn
	l        *sniffListener
	once     sync.Once
	replay   []byte // bytes read while looking, for the next Reads
	hijacked atomic.Bool
}

var h2Preface = []byte(http2.ClientPreface)

func (c *sniffConn) Read(p []byte) (int, error) {
	var err error
	c.once.Do(func() { err = c.sniff() })
	if err != nil {
		return 0, err
	}
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// sniff reads until the first bytes are known not to be the preface, or
// are its first three: then the connection is answered elsewhere and the
// TLS handshake sees EOF.
func (c *sniffConn) sniff() error {
	head := make([]byte, 0, len(h2Preface))
	for len(head) < 3 && bytes.HasPrefix(h2Preface, head) {
		n, err := c.Conn.Read(head[len(head):cap(head)])
		head = head[:len(head)+n]
		if err != nil {
			c.replay = head
			if len(head) == 0 {
				return err
			}
			break
		}
	}
	if len(head) < 3 || !bytes.HasPrefix(head, h2Preface[:3]) {
		c.replay = head
		return nil
	}
	c.hijacked.Store(true)
	if now := time.Now().UnixNano(); now-c.l.logged.Load() > int64(10*time.Second) {
		c.l.logged.Store(now)
		c.l.log.Warn("a plaintext client connected to this TLS server: answered that the server needs TLS", "remote", c.Conn.RemoteAddr().String())
	}
	go answerPlaintext(&replayConn{Conn: c.Conn, replay: head})
	return io.EOF
}

// Close leaves a hijacked connection to answerPlaintext.
func (c *sniffConn) Close() error {
	if c.hijacked.Load() {
		return nil
	}
	return c.Conn.Close()
}

// replayConn reads replay before its connection.
type replayConn struct {
	net.Conn
	replay []byte
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// answerPlaintext answers every gRPC call on c with FailedPrecondition
// and plaintextHint (a trailers-only response), for a few seconds.
func answerPlaintext(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	var srv http2.Server
	srv.ServeConn(c, &http2.ServeConnOpts{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/grpc")
		w.Header().Set("Grpc-Status", strconv.Itoa(int(codes.FailedPrecondition)))
		w.Header().Set("Grpc-Message", plaintextHint)
		w.WriteHeader(http.StatusOK)
	})})
}
