package shuffle

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"gq/errs"
)

// MaxRanks bounds the world size a launcher may announce. The ucx backend
// carries the sender's rank in 16 bits of a message's tag, and a tcp rank
// holds a connection (a file descriptor) per peer: past 65,536 ranks
// neither works. A world size read from the environment is checked
// before anything is sized by it: a huge one would otherwise end the rank
// in an out-of-memory crash instead of an error.
const MaxRanks = 1 << 16

// A job secret is what tells a rank of this job from any other process
// that can reach its sockets. Where the launcher does not hand one out
// (rrun does, in RRUN_JOB_SECRET), the user gives one in GQ_JOB_SECRET or
// in a file only they can read (GQ_JOB_SECRET_FILE); failing both, ranks
// meeting in a coordinator directory share one that rank 0 writes there
// (secretFile). There is no way to run unauthenticated: any local process
// could otherwise join a job as one of its ranks and change its answer.
const (
	minSecretLen = 16
	secretName   = "job.secret" // in the coordinator directory
)

// secretFromEnv returns the job secret the environment gives (nil when it
// gives none), or why the one it names cannot be used.
func secretFromEnv(getenv func(string) string) ([]byte, error) {
	for _, name := range []string{"RRUN_JOB_SECRET", "GQ_JOB_SECRET"} {
		if s := strings.TrimSpace(getenv(name)); s != "" {
			if len(s) < minSecretLen {
				return nil, errs.New(errs.Communication, "%s is %d characters, want at least %d (e.g. the output of: head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n')", name, len(s), minSecretLen)
			}
			return []byte(s), nil
		}
	}
	if path := getenv("GQ_JOB_SECRET_FILE"); path != "" {
		return readSecretFile(path, "GQ_JOB_SECRET_FILE")
	}
	return nil, nil
}

// readSecretFile reads a secret from a regular file that its owner, this
// user, alone may read or write: a secret others can read is no secret,
// and one others can write lets them choose it.
func readSecretFile(path, what string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "%s", what)
	}
	defer f.Close()
	if err := ownedPrivate(f, path, what); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "%s %s", what, path)
	}
	s := strings.TrimSpace(string(b))
	if len(s) < minSecretLen {
		return nil, errs.New(errs.Communication, "%s %s holds %d characters, want at least %d", what, path, len(s), minSecretLen)
	}
	return []byte(s), nil
}

// ownedPrivate checks that f is a regular file owned by this user with no
// permission for group or others.
func ownedPrivate(f *os.File, path, what string) error {
	fi, err := f.Stat()
	if err != nil {
		return errs.Wrap(errs.Communication, err, "%s %s", what, path)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return errs.New(errs.Communication, "%s %s is not a regular file", what, path)
	case ok && int(st.Uid) != os.Geteuid():
		return errs.New(errs.Communication, "%s %s belongs to uid %d, not to this user (uid %d)", what, path, st.Uid, os.Geteuid())
	case fi.Mode().Perm()&0o077 != 0:
		return errs.New(errs.Communication, "%s %s may be read or written by others (mode %04o): it must be readable by its owner alone (chmod 600 %s)", what, path, fi.Mode().Perm(), path)
	}
	return nil
}

// privateDir checks that dir is a directory (not a link to one) owned by
// this user that nobody else may write: a secret file in it could
// otherwise be swapped for another's, or the directory be a stranger's.
func privateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return errs.Wrap(errs.Communication, err, "coordinator directory")
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return errs.New(errs.Communication, "coordinator directory %s is not a directory", dir)
	case ok && int(st.Uid) != os.Geteuid():
		return errs.New(errs.Communication, "coordinator directory %s belongs to uid %d, not to this user (uid %d)", dir, st.Uid, os.Geteuid())
	case fi.Mode().Perm()&0o022 != 0:
		return errs.New(errs.Communication, "coordinator directory %s may be written by others (mode %04o)", dir, fi.Mode().Perm())
	}
	return nil
}

// noSecret is the error of a rank that has no way to get the job secret.
func noSecret(l Launch) error {
	return errs.New(errs.Communication, "rank %d: no job secret: ranks that meet at a coordinator address (%s) must be given one — "+
		"export GQ_JOB_SECRET=\"$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n')\" and pass it to every rank (mpirun -x GQ_JOB_SECRET; srun passes the environment), "+
		"or set GQ_JOB_SECRET_FILE to a file that only you can read (chmod 600) on a file system every rank sees; rrun hands one out by itself", l.Rank, l.CoordAddr)
}

// createDirSecret is rank 0's side of a secret shared through the
// coordinator directory (which exchange has checked is this user's
// alone): a fresh random secret in DIR/job.secret, mode 0600, created
// before rank 0 publishes its address, so a rank that has read every
// address file finds it. A file left by an earlier job that died starting
// in the same directory is replaced (only this user can have written it).
func createDirSecret(l Launch) ([]byte, error) {
	secret := randomSecret()
	path := filepath.Join(l.CoordDir, secretName)
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		if errors.Is(err, os.ErrExist) && try == 0 {
			os.Remove(path)
			continue
		}
		if err != nil {
			return nil, errs.Wrap(errs.Communication, err, "rank 0: writing the job secret")
		}
		_, err = f.Write(secret)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return nil, errs.Wrap(errs.Communication, err, "rank 0: writing the job secret")
		}
		return secret, nil
	}
}

// readDirSecret is the other ranks' side: rank 0 wrote the secret before
// its address, which this rank has read; the file must be this user's
// alone, as the directory is.
func readDirSecret(l Launch) ([]byte, error) {
	s, err := readSecretFile(filepath.Join(l.CoordDir, secretName), "job secret file")
	if err != nil {
		return nil, within(err, "rank %d", l.Rank)
	}
	return s, nil
}

func removeDirSecret(dir string) { os.Remove(filepath.Join(dir, secretName)) }

// randomSecret is 32 random bytes, hex-encoded (the form rrun passes in
// the environment).
func randomSecret() []byte {
	var b [32]byte
	rand.Read(b[:]) // never fails on Linux (getrandom)
	return []byte(hex.EncodeToString(b[:]))
}

// NewJobSecret returns a fresh secret for a job, as a launcher hands it to
// its ranks in RRUN_JOB_SECRET.
func NewJobSecret() string { return string(randomSecret()) }

// The handshake: before a connection carries a frame, each side proves it
// holds the job secret, by an HMAC-SHA256 keyed with it over both sides'
// fresh nonces, ranks and world sizes, and the connection's purpose:
//
//	dialer   -> acceptor: hello (magic, purpose, rank, nranks, nonce)
//	acceptor -> dialer:   hello, MAC("accept", ...)
//	dialer   -> acceptor: MAC("dial", ...)
//	acceptor -> dialer:   one status byte (accepted, refused, mismatch)
//
// The acceptor proves itself first, to a dialer that chose its nonce, but
// its proof is labelled so that it never serves as a dialer's, and each
// side's nonce makes a recorded handshake worthless on a new connection.
// An old-style hello is too short to complete one: that connection waits
// out the handshake deadline and is dropped.
const (
	authMagic    = 0x34737167 // "gqs4" on the wire: framing version 4, with the handshake
	nonceLen     = 32
	authHelloLen = 4 + 4 + 4 + 4 + nonceLen // magic, purpose, rank, nranks, nonce
	macLen       = sha256.Size

	purposeMesh  = 1 // a tcp connection between two ranks
	purposeCoord = 2 // a rank registering its address with rank 0

	statusAccepted = 1
	statusRefused  = 2 // a real rank, but not one this side takes (duplicate, out of range)
	statusMismatch = 3 // a real rank of a job of another size
)

// defaultHandshakeTimeout bounds one connection's handshake: a real
// rank's is a few small messages, and a connection that has not proven
// itself in that time is dropped without holding up the others.
const defaultHandshakeTimeout = 3 * time.Second

type authHello struct {
	purpose      uint32
	rank, nranks int
	nonce        [nonceLen]byte
}

func (h *authHello) marshal() []byte {
	b := make([]byte, authHelloLen)
	binary.LittleEndian.PutUint32(b[0:], authMagic)
	binary.LittleEndian.PutUint32(b[4:], h.purpose)
	binary.LittleEndian.PutUint32(b[8:], uint32(h.rank))
	binary.LittleEndian.PutUint32(b[12:], uint32(h.nranks))
	copy(b[16:], h.nonce[:])
	return b
}

func readAuthHello(c net.Conn) (authHello, error) {
	var b [authHelloLen]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		return authHello{}, err
	}
	if binary.LittleEndian.Uint32(b[0:]) != authMagic {
		return authHello{}, errors.New("not a gq rank's hello")
	}
	h := authHello{purpose: binary.LittleEndian.Uint32(b[4:]),
		rank: int(binary.LittleEndian.Uint32(b[8:])), nranks: int(binary.LittleEndian.Uint32(b[12:]))}
	copy(h.nonce[:], b[16:])
	return h, nil
}

// authMAC is one side's proof: label says which side.
func authMAC(secret []byte, label string, dialer, acceptor *authHello) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("gq rank handshake v1 " + label))
	m.Write(dialer.marshal())
	m.Write(acceptor.marshal())
	return m.Sum(nil)
}

func newHello(purpose uint32, rank, n int) authHello {
	h := authHello{purpose: purpose, rank: rank, nranks: n}
	rand.Read(h.nonce[:])
	return h
}

// mismatchError: a peer that proved the job secret disagrees on the world
// size. It is the job's configuration that is wrong, so the rank fails at
// once instead of waiting for ranks that will never fit.
type mismatchError struct{ msg string }

func (e *mismatchError) Error() string { return e.msg }
func (e *mismatchError) Unwrap() error { return errs.Communication }

func mismatch(self, peer, peerN, n int) error {
	return &mismatchError{fmt.Sprintf("rank %d says the job has %d ranks, this rank (%d) says %d: the ranks were started with different world sizes", peer, peerN, self, n)}
}

// dialAuth runs the dialer's side of the handshake on c (deadline bounds
// it): it proves the secret to a peer that must prove it first and be
// rank want. It returns nil once the peer accepted this rank.
func dialAuth(c net.Conn, secret []byte, purpose uint32, rank, n, want int, deadline time.Time) error {
	c.SetDeadline(deadline)
	defer c.SetDeadline(time.Time{})
	mine := newHello(purpose, rank, n)
	if _, err := c.Write(mine.marshal()); err != nil {
		return err
	}
	theirs, err := readAuthHello(c)
	if err != nil {
		return err
	}
	proof := make([]byte, macLen)
	if _, err := io.ReadFull(c, proof); err != nil {
		return err
	}
	if theirs.purpose != purpose || !hmac.Equal(proof, authMAC(secret, "accept", &mine, &theirs)) {
		return errors.New("the peer did not prove the job secret (another job's rank, or not a rank)")
	}
	if _, err := c.Write(authMAC(secret, "dial", &mine, &theirs)); err != nil {
		return err
	}
	if theirs.nranks != n {
		return mismatch(rank, theirs.rank, theirs.nranks, n)
	}
	if theirs.rank != want {
		return fmt.Errorf("rank %d answered there, not rank %d", theirs.rank, want)
	}
	var st [1]byte
	if _, err := io.ReadFull(c, st[:]); err != nil {
		return err
	}
	switch st[0] {
	case statusAccepted:
		return nil
	case statusMismatch:
		return mismatch(rank, theirs.rank, theirs.nranks, n)
	}
	return fmt.Errorf("rank %d refused this rank (another process already joined as rank %d?)", want, rank)
}

// acceptAuth runs the acceptor's side of the handshake on c: it returns
// the dialer's hello once the dialer has proven the secret. A dialer that
// proves it but counts a different world size is told so and named in a
// mismatchError. The caller answers a proven dialer with accept.
func acceptAuth(c net.Conn, secret []byte, purpose uint32, rank, n int, deadline time.Time) (authHello, error) {
	c.SetDeadline(deadline)
	defer c.SetDeadline(time.Time{})
	theirs, err := readAuthHello(c)
	if err != nil {
		return theirs, err
	}
	if theirs.purpose != purpose {
		return theirs, errors.New("a hello for another purpose")
	}
	mine := newHello(purpose, rank, n)
	if _, err := c.Write(append(mine.marshal(), authMAC(secret, "accept", &theirs, &mine)...)); err != nil {
		return theirs, err
	}
	proof := make([]byte, macLen)
	if _, err := io.ReadFull(c, proof); err != nil {
		return theirs, err
	}
	if !hmac.Equal(proof, authMAC(secret, "dial", &theirs, &mine)) {
		return theirs, errors.New("the dialer did not prove the job secret")
	}
	if theirs.nranks != n {
		c.Write([]byte{statusMismatch})
		return theirs, mismatch(rank, theirs.rank, theirs.nranks, n)
	}
	return theirs, nil
}

// answer tells a proven dialer whether it is taken.
func answer(c net.Conn, status byte, deadline time.Time) error {
	c.SetWriteDeadline(deadline)
	defer c.SetWriteDeadline(time.Time{})
	_, err := c.Write([]byte{status})
	return err
}

// handshakeDeadline is when a handshake starting now must be done: after
// d, and never after the start-up's deadline.
func handshakeDeadline(startup time.Time, d time.Duration) time.Time {
	if t := time.Now().Add(d); t.Before(startup) {
		return t
	}
	return startup
}

// within prefixes err's message with where it happened, keeping its kind.
func within(err error, format string, args ...any) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return errs.New(e.Kind, "%s: %s", fmt.Sprintf(format, args...), e.Msg)
	}
	return errs.Wrap(errs.Communication, err, format, args...)
}
