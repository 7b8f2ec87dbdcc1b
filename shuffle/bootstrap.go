package shuffle

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
}

// DetectLaunch reads rrun's, Open MPI's and Slurm's variables (in that
// order). Without any, the job is one rank.
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
// environment describes it: backend is "tcp" (the default; GQ_COMM may
// name it), "ucx" (binaries built with -tags ucx) or "local" (only
// meaningful for one rank here; gq --ranks runs goroutine ranks itself). Without a launcher it is a one-rank local
// communicator and no socket is opened. GQ_COMM_HOST is the address peers
// reach this rank at (default 127.0.0.1); GQ_CONNECT_TIMEOUT (or its
// older name GQ_COMM_TIMEOUT) bounds start-up, that is how long a rank
// waits for the others to appear (default 30s); GQ_TCP_CHECKSUM=always
// checksums the payloads of loopback connections too (see Checksum).
func FromEnv(backend string) (Communicator, error) {
	l, err := DetectLaunch(os.Getenv)
	if err != nil {
		return nil, err
	}
	if backend == "" {
		backend = os.Getenv("GQ_COMM")
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
		if s := os.Getenv(name); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return nil, errs.New(errs.Communication, "%s=%q: want a positive duration such as 30s", name, s)
			}
			opts.ConnectTimeout = d
			break
		}
	}
	switch s := os.Getenv("GQ_TCP_CHECKSUM"); s {
	case "", "auto":
	case "always":
		opts.Checksum = ChecksumAlways
	default:
		return nil, errs.New(errs.Communication, "GQ_TCP_CHECKSUM=%q: want auto (payloads of connections off this host) or always", s)
	}
	if backend == "ucx" { // a build without the ucx tag says so
		return BootstrapUCX(l, opts)
	}
	host := os.Getenv("GQ_COMM_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	return BootstrapTCP(l, host, opts)
}

// BootstrapTCP listens on host, exchanges addresses through the launch's
// coordinator (a shared directory or rank 0's address service) and
// connects the mesh. Whether it succeeds or fails, it leaves nothing
// behind: address files are removed once every rank has read them (or
// when giving up), and so is a directory derived from the job id.
func BootstrapTCP(l Launch, host string, opts TCPOptions) (*TCP, error) {
	opts.fill()
	if l.CoordDir == "" && l.CoordAddr == "" {
		why := ""
		if l.Hosts > 1 {
			why = fmt.Sprintf(" (%s spread the ranks over several hosts, so a local directory will not do)", l.Launcher)
		}
		return nil, errs.New(errs.Communication, "%d ranks but no coordinator%s: set GQ_COORD_DIR (a directory every rank can see) or GQ_COORD_ADDR (host:port for rank 0), e.g. mpirun -x GQ_COORD_ADDR=HOST:PORT", l.NRanks, why)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: listen", l.Rank)
	}
	defer ln.Close()
	deadline := time.Now().Add(opts.ConnectTimeout)
	var addrs []string
	if l.CoordDir != "" {
		if l.DerivedDir {
			os.MkdirAll(l.CoordDir, 0o700)
		}
		defer removeAddrFile(l)
		addrs, err = exchangeDir(l, ln.Addr().String(), deadline)
	} else {
		addrs, err = exchangeSocket(l, ln.Addr().String(), deadline)
	}
	if err != nil {
		return nil, err
	}
	opts.ConnectTimeout = max(time.Until(deadline), time.Second)
	t, err := ConnectTCP(l.Rank, addrs, ln, opts)
	if err != nil || l.CoordDir == "" {
		return t, err
	}
	// A rank that dialed us may be connected before it has read every
	// address file (the kernel accepts for us): wait until every rank is
	// through ConnectTCP, so removing our file (deferred) hides it from
	// nobody.
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(time.Second))
	defer cancel()
	if err := barrier(ctx, t, tagBootstrapBarrier); err != nil {
		t.Close()
		return nil, errs.Wrap(errs.Communication, err, "rank %d: start-up barrier", l.Rank)
	}
	return t, nil
}

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

// exchangeDir writes this rank's address to DIR/rank-R.addr (atomically,
// by rename) and waits for every other rank's file.
func exchangeDir(l Launch, addr string, deadline time.Time) ([]string, error) {
	name := addrFile(l.CoordDir, l.Rank)
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(addr), 0o644); err != nil {
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
			addrs[r] = strings.TrimSpace(string(b))
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

// exchangeSocket: rank 0 serves at CoordAddr, collects "RANK ADDR" lines
// from the others and answers each with "OK" and every address, or, when
// some rank does not register in time, "ERR" and the missing ranks, so
// that every rank's error names them. The others dial it (retrying while
// rank 0 starts).
func exchangeSocket(l Launch, addr string, deadline time.Time) ([]string, error) {
	if l.Rank == 0 {
		return serveAddrs(l, addr, deadline)
	}
	addrs := make([]string, l.NRanks)
	var err error
	registered := false
	for {
		var c net.Conn
		c, err = net.DialTimeout("tcp", l.CoordAddr, time.Second)
		if err == nil {
			registered = true
			c.SetDeadline(deadline.Add(2 * time.Second)) // rank 0 answers at its deadline
			fmt.Fprintf(c, "%d %s\n", l.Rank, addr)
			rd := bufio.NewReader(c)
			var status string
			if _, err = fmt.Fscan(rd, &status); err == nil && status == "ERR" {
				var missing string
				fmt.Fscan(rd, &missing)
				c.Close()
				return nil, errs.New(errs.Communication, "rank %d: timed out waiting for rank(s) %s to start (rank 0 gave up waiting at %s; GQ_CONNECT_TIMEOUT sets the wait)", l.Rank, missing, l.CoordAddr)
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

// serveAddrs is rank 0's side of exchangeSocket.
func serveAddrs(l Launch, addr string, deadline time.Time) ([]string, error) {
	ln, err := net.Listen("tcp", l.CoordAddr)
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank 0: coordinator listen on %s", l.CoordAddr)
	}
	defer ln.Close()
	ln.(*net.TCPListener).SetDeadline(deadline)
	addrs := make([]string, l.NRanks)
	addrs[0] = addr
	conns := map[int]net.Conn{}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for len(conns) < l.NRanks-1 {
		c, err := ln.Accept()
		if err != nil {
			var absent []string
			for r := 1; r < l.NRanks; r++ {
				if conns[r] == nil {
					absent = append(absent, strconv.Itoa(r))
				}
			}
			missing := strings.Join(absent, ",")
			for _, c := range conns {
				c.SetWriteDeadline(time.Now().Add(time.Second))
				fmt.Fprintf(c, "ERR %s\n", missing)
			}
			return nil, errs.New(errs.Communication, "rank 0: timed out waiting for rank(s) %s to start (coordinator %s; GQ_CONNECT_TIMEOUT sets the wait)", missing, l.CoordAddr)
		}
		c.SetDeadline(deadline)
		var r int
		var a string
		if _, err := fmt.Fscan(bufio.NewReader(c), &r, &a); err != nil || r <= 0 || r >= l.NRanks || conns[r] != nil {
			c.Close()
			continue
		}
		addrs[r] = a
		conns[r] = c
	}
	msg := "OK " + strings.Join(addrs, " ") + "\n"
	for r, c := range conns {
		if _, err := c.Write([]byte(msg)); err != nil {
			return nil, errs.Wrap(errs.Communication, err, "rank 0: answering rank %d", r)
		}
	}
	return addrs, nil
}
