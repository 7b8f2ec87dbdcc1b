package shuffle

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gq/errs"
)

// Launch is what a launcher's environment says about this process.
type Launch struct {
	Rank, NRanks int
	Launcher     string // "rrun", "mpirun", "slurm", or "" (no launcher)
	CoordDir     string // shared directory for address exchange
	CoordAddr    string // host:port of rank 0's address service
	// DerivedDir: CoordDir was made up from the launcher's job id (no
	// coordinator was named), so it is local to this host and rank 0
	// removes it once connected.
	DerivedDir bool
	// Hosts is how many hosts the launcher spread the ranks over, where
	// it says (0: unknown). A derived directory only works on one host.
	Hosts int
	// secret is the job secret the environment gave (RRUN_JOB_SECRET,
	// GQ_JOB_SECRET, GQ_JOB_SECRET_FILE), if any; see secretFromEnv.
	secret hidden
}

// hidden is a secret that does not print: a Launch in an error message
// or a log shows "[hidden]".
type hidden []byte

func (h hidden) String() string {
	if h == nil {
		return "[none]"
	}
	return "[hidden]"
}

// DetectLaunch reads rrun's, Open MPI's and Slurm's variables (in that
// order). Without any, the job is one rank. A world size over MaxRanks is
// refused before anything is sized by it; a job of several ranks reads
// its secret here, so a bad GQ_JOB_SECRET_FILE is named at start.
func DetectLaunch(getenv func(string) string) (Launch, error) {
	l := Launch{NRanks: 1}
	pairs := []struct{ launcher, rank, size string }{
		{"rrun", "RRUN_RANK", "RRUN_NRANKS"},
		{"mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
		{"slurm", "SLURM_PROCID", "SLURM_NTASKS"},
	}
	for _, p := range pairs {
		rs, ns := getenv(p.rank), getenv(p.size)
		if rs == "" && ns == "" {
			continue
		}
		r, err1 := strconv.Atoi(rs)
		n, err2 := strconv.Atoi(ns)
		if err1 != nil || err2 != nil || n < 1 || r < 0 || r >= n {
			return l, errs.New(errs.Communication, "bad launcher environment %s=%q %s=%q", p.rank, rs, p.size, ns)
		}
		if n > MaxRanks {
			return l, errs.New(errs.Communication, "%s=%d: a job has at most %d ranks", p.size, n, MaxRanks)
		}
		l.Rank, l.NRanks, l.Launcher = r, n, p.launcher
		l.Hosts = hostCount(p.launcher, n, getenv)
		break
	}
	l.CoordDir = firstSet(getenv, "RRUN_COORD_DIR", "GQ_COORD_DIR")
	l.CoordAddr = firstSet(getenv, "RRUN_SOCKET_ADDR", "GQ_COORD_ADDR")
	if l.CoordDir == "" && l.CoordAddr == "" && l.NRanks > 1 && l.Hosts <= 1 {
		// mpirun and srun name no coordinator; on one host, a directory
		// named after the job will do.
		if id := jobID(l.Launcher, getenv); id != "" {
			l.CoordDir = filepath.Join(os.TempDir(), "gq-coord-"+id)
			l.DerivedDir = true
		}
	}
	if l.NRanks > 1 {
		secret, err := secretFromEnv(getenv)
		if err != nil {
			return l, err
		}
		l.secret = secret
	}
	return l, nil
}

// hostCount is the number of hosts the launcher's variables describe:
// Open MPI tells each rank how many ranks share its host, Slurm how many
// nodes the step spans.
func hostCount(launcher string, n int, getenv func(string) string) int {
	switch launcher {
	case "mpirun":
		if local, err := strconv.Atoi(getenv("OMPI_COMM_WORLD_LOCAL_SIZE")); err == nil && local > 0 {
			if local < n {
				return 2 // at least: some ranks run elsewhere
			}
			return 1
		}
	case "slurm":
		if h, err := strconv.Atoi(firstSet(getenv, "SLURM_STEP_NUM_NODES", "SLURM_JOB_NUM_NODES", "SLURM_NNODES")); err == nil {
			return h
		}
	}
	return 0
}

// jobID is a name for this job that all its ranks see alike.
func jobID(launcher string, getenv func(string) string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
				return r
			}
			return '_'
		}, s)
	}
	switch launcher {
	case "mpirun":
		if v := firstSet(getenv, "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid"); v != "" {
			return "ompi-" + clean(v)
		}
	case "slurm":
		if j := getenv("SLURM_JOB_ID"); j != "" {
			return "slurm-" + clean(j) + "." + clean(getenv("SLURM_STEP_ID"))
		}
	}
	return ""
}

func firstSet(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// FromEnv returns this process's communicator as the launcher's
// environment, read through getenv (os.Getenv at a binary's edge),
// describes it: backend is "tcp" (the default; GQ_COMM may
// name it), "ucx" (binaries built with -tags ucx) or "local" (only
// meaningful for one rank here; gq --ranks runs goroutine ranks itself). Without a launcher it is a one-rank local
// communicator and no socket is opened. GQ_COMM_HOST is the address peers
// reach this rank at (default 127.0.0.1); GQ_CONNECT_TIMEOUT (or its
// older name GQ_COMM_TIMEOUT) bounds start-up, that is how long a rank
// waits for the others to appear (default 30s); GQ_TCP_CHECKSUM=always
// checksums the payloads of loopback connections too (see Checksum).
func FromEnv(backend string, getenv func(string) string) (Communicator, error) {
	l, err := DetectLaunch(getenv)
	if err != nil {
		return nil, err
	}
	if backend == "" {
		backend = getenv("GQ_COMM")
	}
	if l.NRanks == 1 {
		return NewLocal(1)[0], nil
	}
	switch backend {
	case "", "tcp", "ucx":
	case "local":
		return nil, errs.New(errs.Communication, "the local backend runs ranks as goroutines of one process (gq --ranks N), not under %s", l.Launcher)
	default:
		return nil, errs.New(errs.Communication, "unknown communicator backend %q (want tcp, ucx or local)", backend)
	}
	opts := TCPOptions{}
	for _, name := range []string{"GQ_CONNECT_TIMEOUT", "GQ_COMM_TIMEOUT"} {
		if s := getenv(name); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return nil, errs.New(errs.Communication, "%s=%q: want a positive duration such as 30s", name, s)
			}
			opts.ConnectTimeout = d
			break
		}
	}
	switch s := getenv("GQ_TCP_CHECKSUM"); s {
	case "", "auto":
	case "always":
		opts.Checksum = ChecksumAlways
	default:
		return nil, errs.New(errs.Communication, "GQ_TCP_CHECKSUM=%q: want auto (payloads of connections off this host) or always", s)
	}
	if backend == "ucx" { // a build without the ucx tag says so
		return bootstrapUCX(l, opts)
	}
	host := getenv("GQ_COMM_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	return bootstrapTCP(l, host, opts)
}

// bootstrapTCP listens on host, exchanges addresses through the launch's
// coordinator (a shared directory or rank 0's address service) and
// connects the mesh, every connection proving the job secret. Whether it
// succeeds or fails, it leaves nothing behind: address files (and a
// secret rank 0 wrote) are removed once every rank has read them (or
// when giving up), and so is a directory derived from the job id.
func bootstrapTCP(l Launch, host string, opts TCPOptions) (*TCP, error) {
	opts.fill()
	if l.NRanks > MaxRanks {
		return nil, errs.New(errs.Communication, "%d ranks, at most %d", l.NRanks, MaxRanks)
	}
	if l.CoordDir == "" && l.CoordAddr == "" {
		why := ""
		if l.Hosts > 1 {
			why = fmt.Sprintf(" (%s spread the ranks over several hosts, so a local directory will not do)", l.Launcher)
		}
		return nil, errs.New(errs.Communication, "%d ranks but no coordinator%s: set GQ_COORD_DIR (a directory every rank can see) or GQ_COORD_ADDR (host:port for rank 0), e.g. mpirun -x GQ_COORD_ADDR=HOST:PORT", l.NRanks, why)
	}
	if l.secret == nil && l.CoordDir == "" {
		return nil, noSecret(l)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: listen", l.Rank)
	}
	defer ln.Close()
	deadline := time.Now().Add(opts.ConnectTimeout)
	ex, err := exchange(l, ln.Addr().String(), deadline, false)
	defer ex.cleanup()
	if err != nil {
		return nil, err
	}
	opts.ConnectTimeout = max(time.Until(deadline), time.Second)
	opts.Secret = ex.secret
	t, err := connectTCP(l.Rank, ex.addrs, ln, opts)
	// Every rank connected to rank 0 has proven the secret, so it has
	// read the file: it goes before the barrier, so that the last rank
	// through finds a derived directory empty.
	ex.dropSecret()
	if err != nil || l.CoordDir == "" {
		return t, err
	}
	// A rank that dialed us may be connected before it has read every
	// address file: wait until every rank is through connectTCP, so
	// removing our file (deferred) hides it from nobody.
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(time.Second))
	defer cancel()
	if err := barrier(ctx, t, tagBootstrapBarrier); err != nil {
		t.Close()
		return nil, errs.Wrap(errs.Communication, err, "rank %d: start-up barrier", l.Rank)
	}
	return t, nil
}

// exchanged is what the coordinator gave a rank: every rank's address
// and the job secret.
type exchanged struct {
	l         Launch
	addrs     []string
	secret    []byte
	ownSecret bool // rank 0 wrote the secret into the coordinator directory
	published bool // this rank's address file may exist
}

// dropSecret removes the secret file rank 0 wrote, once every rank has
// it (or nobody will need it).
func (e *exchanged) dropSecret() {
	if e.ownSecret {
		removeDirSecret(e.l.CoordDir)
		e.ownSecret = false
	}
}

// cleanup removes what this rank left in the coordinator directory.
func (e *exchanged) cleanup() {
	e.dropSecret()
	if e.published {
		removeAddrFile(e.l)
	}
}

// exchange publishes addr through the launch's coordinator and returns
// every rank's address and the job secret: the environment's, or, with a
// coordinator directory and none given, one rank 0 writes there. private
// (the ucx backend, whose connections prove nothing) requires the
// directory to be this user's alone even when the secret came from the
// environment, so no stranger can read or plant an address, and needs no
// secret with it.
func exchange(l Launch, addr string, deadline time.Time, private bool) (*exchanged, error) {
	ex := &exchanged{l: l, secret: l.secret}
	var err error
	if l.CoordDir == "" {
		if ex.secret == nil {
			return ex, noSecret(l)
		}
		ex.addrs, err = exchangeSocket(l, addr, deadline, ex.secret)
		return ex, err
	}
	if l.DerivedDir {
		os.MkdirAll(l.CoordDir, 0o700)
	}
	if private || ex.secret == nil {
		if err := privateDir(l.CoordDir); err != nil {
			return ex, within(err, "rank %d: the ranks cannot meet there safely (set GQ_COORD_DIR to a directory of your own, mode 700, or give a secret in GQ_JOB_SECRET)", l.Rank)
		}
	}
	if ex.secret == nil && !private && l.Rank == 0 {
		if ex.secret, err = createDirSecret(l); err != nil {
			return ex, err
		}
		ex.ownSecret = true
	}
	ex.published = true
	if ex.addrs, err = exchangeDir(l, addr, deadline); err != nil {
		return ex, err
	}
	if ex.secret == nil && !private {
		// Rank 0 wrote the secret before its address, which is read.
		ex.secret, err = readDirSecret(l)
	}
	return ex, err
}

// mismatchLinger is how long a rank that found another world size in an
// address file keeps its own file up before it fails.
const mismatchLinger = 300 * time.Millisecond

func addrFile(dir string, rank int) string {
	return filepath.Join(dir, fmt.Sprintf("rank-%d.addr", rank))
}

// removeAddrFile removes this rank's address file. After a successful
// connect every rank has read it (each read all files before dialing,
// and all have reached this rank); after a failure nobody will. A
// directory derived from the job id goes with the last file.
func removeAddrFile(l Launch) {
	os.Remove(addrFile(l.CoordDir, l.Rank))
	if l.DerivedDir {
		os.Remove(l.CoordDir) // fails while other ranks' files remain
	}
}

// exchangeDir writes this rank's address and its count of ranks to
// DIR/rank-R.addr (atomically, by rename; readable by this user alone)
// and waits for every other rank's file. A rank that counts the ranks
// differently is named at once.
func exchangeDir(l Launch, addr string, deadline time.Time) ([]string, error) {
	name := addrFile(l.CoordDir, l.Rank)
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%s %d\n", addr, l.NRanks)), 0o600); err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: publishing address", l.Rank)
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return nil, errs.Wrap(errs.Communication, err, "rank %d: publishing address", l.Rank)
	}
	addrs := make([]string, l.NRanks)
	for {
		var absent []string
		for r := range l.NRanks {
			if addrs[r] != "" {
				continue
			}
			b, err := os.ReadFile(addrFile(l.CoordDir, r))
			if err != nil {
				absent = append(absent, strconv.Itoa(r))
				continue
			}
			f := strings.Fields(string(b))
			if len(f) == 0 {
				absent = append(absent, strconv.Itoa(r))
				continue
			}
			if len(f) > 1 {
				if n, err := strconv.Atoi(f[1]); err == nil && n != l.NRanks {
					// Our file stays up a moment (the others poll every
					// 20 ms), so that the rank we disagree with reads it
					// and names the mismatch too, rather than wait for a
					// file that is gone.
					time.Sleep(min(mismatchLinger, time.Until(deadline)))
					return nil, errs.Wrap(errs.Communication, mismatch(l.Rank, r, n, l.NRanks), "rank %d", l.Rank)
				}
			}
			addrs[r] = f[0]
		}
		if len(absent) == 0 {
			return addrs, nil
		}
		if time.Now().After(deadline) {
			return nil, errs.New(errs.Communication, "rank %d: timed out waiting for rank(s) %s to start (coordinator directory %s; GQ_CONNECT_TIMEOUT sets the wait)", l.Rank, strings.Join(absent, ","), l.CoordDir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exchangeSocket: rank 0 serves at CoordAddr; every other rank dials it
// (retrying while rank 0 starts), proves the job secret as a mesh
// connection does (a stranger is dropped, a rank of another world size
// named at once), and sends its address on a line. Rank 0 answers each
// with "OK" and every address once all are in; when some rank does not
// register in time, with "ERR" and the missing ranks, and when a rank of
// another world size turns up, with "MISMATCH" and what it said, so that
// every rank's error names the cause.
func exchangeSocket(l Launch, addr string, deadline time.Time, secret []byte) ([]string, error) {
	if l.Rank == 0 {
		return serveAddrs(l, addr, deadline, secret)
	}
	addrs := make([]string, l.NRanks)
	var err error
	registered := false
	for {
		var c net.Conn
		c, err = net.DialTimeout("tcp", l.CoordAddr, time.Second)
		if err == nil {
			err = dialAuth(c, secret, purposeCoord, l.Rank, l.NRanks, 0, handshakeDeadline(deadline, defaultHandshakeTimeout))
			var me *mismatchError
			if errors.As(err, &me) {
				c.Close()
				return nil, errs.Wrap(errs.Communication, err, "rank %d", l.Rank)
			}
		}
		if err == nil {
			registered = true
			c.SetDeadline(deadline.Add(2 * time.Second)) // rank 0 answers at its deadline
			fmt.Fprintf(c, "%s\n", addr)
			rd := bufio.NewReader(c)
			var status string
			if _, err = fmt.Fscan(rd, &status); err == nil && status != "OK" {
				why, _ := rd.ReadString('\n')
				why = strings.TrimSpace(why)
				c.Close()
				if status == "MISMATCH" {
					return nil, errs.New(errs.Communication, "rank %d: rank 0 refused the job: %s", l.Rank, why)
				}
				return nil, errs.New(errs.Communication, "rank %d: timed out waiting for rank(s) %s to start (rank 0 gave up waiting at %s; GQ_CONNECT_TIMEOUT sets the wait)", l.Rank, why, l.CoordAddr)
			}
			for i := range addrs {
				if err != nil {
					break
				}
				_, err = fmt.Fscan(rd, &addrs[i])
			}
			c.Close()
			if err == nil && status == "OK" {
				return addrs, nil
			}
		} else if c != nil {
			c.Close()
		}
		if time.Now().After(deadline) {
			if !registered {
				return nil, errs.New(errs.Communication, "rank %d: timed out waiting for rank 0 to start: cannot reach its coordinator at %s: %v", l.Rank, l.CoordAddr, err)
			}
			return nil, errs.New(errs.Communication, "rank %d: no address list from rank 0 at %s: %v", l.Rank, l.CoordAddr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serveAddrs is rank 0's side of exchangeSocket. Each connection proves
// itself in its own goroutine, within defaultHandshakeTimeout, so a
// stranger that connects and stays silent delays no rank.
func serveAddrs(l Launch, addr string, deadline time.Time, secret []byte) ([]string, error) {
	ln, err := net.Listen("tcp", l.CoordAddr)
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank 0: coordinator listen on %s", l.CoordAddr)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	go func() { <-ctx.Done(); ln.Close() }()
	addrs := make([]string, l.NRanks)
	addrs[0] = addr
	var mu sync.Mutex
	conns := map[int]net.Conn{}       // registered ranks
	pending := map[net.Conn]bool{}    // connections still proving themselves
	claimed := make([]bool, l.NRanks) // ranks proven, address not yet read
	var fatal error
	var hs sync.WaitGroup
	for {
		c, err := ln.Accept()
		if err != nil {
			break // closed: all in, a mismatch, or the deadline
		}
		mu.Lock()
		if len(pending) >= maxHandshakes {
			mu.Unlock()
			c.Close()
			continue
		}
		pending[c] = true
		mu.Unlock()
		hs.Add(1)
		go func() {
			defer hs.Done()
			hd := handshakeDeadline(deadline, defaultHandshakeTimeout)
			hello, err := acceptAuth(c, secret, purposeCoord, 0, l.NRanks, hd)
			r := hello.rank
			mu.Lock()
			delete(pending, c)
			var me *mismatchError
			if errors.As(err, &me) {
				if fatal == nil {
					fatal = err
				}
				mu.Unlock()
				c.Close()
				cancel()
				return
			}
			ok := err == nil && r > 0 && r < l.NRanks && !claimed[r] && ctx.Err() == nil
			if ok {
				claimed[r] = true
			}
			mu.Unlock()
			if !ok {
				if err == nil {
					answer(c, statusRefused, time.Now().Add(time.Second))
				}
				c.Close()
				return
			}
			var a string
			err = answer(c, statusAccepted, hd)
			if err == nil {
				c.SetReadDeadline(hd)
				a, err = bufio.NewReader(c).ReadString('\n')
				a = strings.TrimSpace(a)
				c.SetReadDeadline(time.Time{})
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil || a == "" || ctx.Err() != nil {
				claimed[r] = false
				c.Close()
				return
			}
			addrs[r], conns[r] = a, c
			if len(conns) == l.NRanks-1 {
				cancel() // all in
			}
		}()
	}
	// Stop the handshakes under way (strangers, or too late) and wait for
	// their goroutines, which own nothing once they are done.
	mu.Lock()
	for c := range pending {
		c.Close()
	}
	mu.Unlock()
	hs.Wait()
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	tell := func(msg string) {
		for _, c := range conns {
			c.SetWriteDeadline(time.Now().Add(time.Second))
			io.WriteString(c, msg)
		}
	}
	if fatal != nil {
		tell("MISMATCH " + fatal.Error() + "\n")
		return nil, errs.Wrap(errs.Communication, fatal, "rank 0")
	}
	if len(conns) < l.NRanks-1 {
		var absent []string
		for r := 1; r < l.NRanks; r++ {
			if conns[r] == nil {
				absent = append(absent, strconv.Itoa(r))
			}
		}
		missing := strings.Join(absent, ",")
		tell("ERR " + missing + "\n")
		return nil, errs.New(errs.Communication, "rank 0: timed out waiting for rank(s) %s to start (coordinator %s; GQ_CONNECT_TIMEOUT sets the wait)", missing, l.CoordAddr)
	}
	msg := "OK " + strings.Join(addrs, " ") + "\n"
	for r, c := range conns {
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, msg); err != nil {
			return nil, errs.Wrap(errs.Communication, err, "rank 0: answering rank %d", r)
		}
	}
	return addrs, nil
}
