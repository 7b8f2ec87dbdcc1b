package flight

import (
	"bufio"
	"crypto/subtle"
	"os"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/errs"
)

// authenticator checks credentials for flight's basic-auth middleware: a
// Flight handshake with user:password (basic auth) gets a session token
// back; every other call must carry `authorization: Bearer TOKEN`, the
// static --auth-token or a session token. Session tokens live in the
// server's session store (session.go): they expire when idle and at their
// lifetime, and are bounded in number, so that a flood of handshakes
// cannot grow the server.
type authenticator struct {
	token    string
	users    map[string]string
	sessions *sessionStore
}

// staticToken is the identity of a caller with the static token: its
// session is its connection's, as every client holds that token alike.
type staticToken struct{}

func newAuthenticator(token string, users map[string]string, sessions *sessionStore) *authenticator {
	return &authenticator{token: token, users: users, sessions: sessions}
}

// Validate checks a user's password and issues a session token.
func (a *authenticator) Validate(user, password string) (string, error) {
	want, ok := a.users[user]
	// Compare even for unknown users, so timing does not tell which exist.
	if subtle.ConstantTimeCompare([]byte(want), []byte(password)) != 1 || !ok {
		return "", status.Error(codes.Unauthenticated, "invalid user name or password")
	}
	tok := newID()
	a.sessions.add("t:"+tok, user, true)
	return tok, nil
}

// IsValid checks a bearer token and returns the caller's identity: the
// token's session, or staticToken.
func (a *authenticator) IsValid(token string) (any, error) {
	if a.token != "" && subtle.ConstantTimeCompare([]byte(a.token), []byte(token)) == 1 {
		return staticToken{}, nil
	}
	if len(token) == idLen {
		if s, ok := a.sessions.touch("t:" + token); ok {
			return s, nil
		}
	}
	return nil, status.Error(codes.Unauthenticated, "invalid or expired bearer token")
}

// ReadUsers reads a users file: one `user:password` a line; blank lines
// and lines starting with # are skipped.
func ReadUsers(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "users file")
	}
	defer f.Close()
	users := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		user, pw, ok := strings.Cut(line, ":")
		if !ok || user == "" {
			return nil, errs.New(errs.Syntax, "%s:%d: want user:password", path, n)
		}
		if pw == "" {
			// Anyone could log in as that user: refuse to start rather
			// than serve with it.
			return nil, errs.New(errs.Syntax, "%s:%d: user %s has an empty password", path, n, user)
		}
		users[user] = pw
	}
	if err := sc.Err(); err != nil {
		return nil, errs.Wrap(errs.IO, err, "users file")
	}
	if len(users) == 0 {
		return nil, errs.New(errs.Syntax, "%s: no users", path)
	}
	return users, nil
}
