package shuffle

import (
	"bufio"
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
		break
	}
	l.CoordDir = firstSet(getenv, "RRUN_COORD_DIR", "GQ_COORD_DIR")
	l.CoordAddr = firstSet(getenv, "RRUN_SOCKET_ADDR", "GQ_COORD_ADDR")
	if l.CoordDir == "" && l.CoordAddr == "" && l.NRanks > 1 {
		// mpirun and srun name no coordinator; on one host, a directory
		// named after the job will do.
		if id := jobID(l.Launcher, getenv); id != "" {
			l.CoordDir = filepath.Join(os.TempDir(), "gq-coord-"+id)
			l.DerivedDir = true
		}
	}
	return l, nil
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
// name it) or "local" (only meaningful for one rank here; gq --ranks runs
// goroutine ranks itself). Without a launcher it is a one-rank local
// communicator and no socket is opened. GQ_COMM_HOST is the address peers
// reach this rank at (default 127.0.0.1); GQ_COMM_TIMEOUT bounds start-up
// (default 30s).
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
	case "", "tcp":
	case "local":
		return nil, errs.New(errs.Communication, "the local backend runs ranks as goroutines of one process (gq --ranks N), not under %s", l.Launcher)
	default:
		return nil, errs.New(errs.Communication, "unknown communicator backend %q (want local or tcp)", backend)
	}
	opts := TCPOptions{}
	if s := os.Getenv("GQ_COMM_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, errs.New(errs.Communication, "GQ_COMM_TIMEOUT=%q: %v", s, err)
		}
		opts.ConnectTimeout = d
	}
	host := os.Getenv("GQ_COMM_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	return BootstrapTCP(l, host, opts)
}

// BootstrapTCP listens on host, exchanges addresses through the launch's
// coordinator (a shared directory or rank 0's address service) and
// connects the mesh.
func BootstrapTCP(l Launch, host string, opts TCPOptions) (*TCP, error) {
	opts.fill()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: listen", l.Rank)
	}
	defer ln.Close()
	deadline := time.Now().Add(opts.ConnectTimeout)
	var addrs []string
	switch {
	case l.CoordDir != "":
		if l.DerivedDir {
			os.MkdirAll(l.CoordDir, 0o700)
		}
		addrs, err = exchangeDir(l, ln.Addr().String(), deadline)
	case l.CoordAddr != "":
		addrs, err = exchangeSocket(l, ln.Addr().String(), deadline)
	default:
		err = errs.New(errs.Communication, "%d ranks but no coordinator: set GQ_COORD_DIR (a directory every rank can see) or GQ_COORD_ADDR (host:port for rank 0)", l.NRanks)
	}
	if err != nil {
		return nil, err
	}
	opts.ConnectTimeout = max(time.Until(deadline), time.Second)
	t, err := ConnectTCP(l.Rank, addrs, ln, opts)
	if err == nil && l.DerivedDir && l.Rank == 0 {
		// Every other rank has connected to rank 0, so all have read
		// the addresses: the directory is no longer needed.
		os.RemoveAll(l.CoordDir)
	}
	return t, err
}

// exchangeDir writes this rank's address to DIR/rank-R.addr (atomically,
// by rename) and waits for every other rank's file.
func exchangeDir(l Launch, addr string, deadline time.Time) ([]string, error) {
	name := filepath.Join(l.CoordDir, fmt.Sprintf("rank-%d.addr", l.Rank))
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(addr), 0o644); err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: publishing address", l.Rank)
	}
	if err := os.Rename(tmp, name); err != nil {
		return nil, errs.Wrap(errs.Communication, err, "rank %d: publishing address", l.Rank)
	}
	addrs := make([]string, l.NRanks)
	for {
		var absent []string
		for r := range l.NRanks {
			if addrs[r] != "" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(l.CoordDir, fmt.Sprintf("rank-%d.addr", r)))
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
			return nil, errs.New(errs.Communication, "rank %d: timed out waiting for rank(s) %s to start (coordinator directory %s)", l.Rank, strings.Join(absent, ","), l.CoordDir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exchangeSocket: rank 0 serves at CoordAddr, collects "RANK ADDR" lines
// from the others and answers each with every address; the others dial it
// (retrying while rank 0 starts).
func exchangeSocket(l Launch, addr string, deadline time.Time) ([]string, error) {
	addrs := make([]string, l.NRanks)
	if l.Rank == 0 {
		ln, err := net.Listen("tcp", l.CoordAddr)
		if err != nil {
			return nil, errs.Wrap(errs.Communication, err, "rank 0: coordinator listen on %s", l.CoordAddr)
		}
		defer ln.Close()
		ln.(*net.TCPListener).SetDeadline(deadline)
		addrs[0] = addr
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for len(conns) < l.NRanks-1 {
			c, err := ln.Accept()
			if err != nil {
				return nil, errs.New(errs.Communication, "rank 0: timed out waiting for %d rank(s) to register at %s", l.NRanks-1-len(conns), l.CoordAddr)
			}
			c.SetDeadline(deadline)
			var r int
			var a string
			if _, err := fmt.Fscan(bufio.NewReader(c), &r, &a); err != nil || r <= 0 || r >= l.NRanks {
				c.Close()
				continue
			}
			addrs[r] = a
			conns = append(conns, c)
		}
		msg := strings.Join(addrs, " ") + "\n"
		for _, c := range conns {
			if _, err := c.Write([]byte(msg)); err != nil {
				return nil, errs.Wrap(errs.Communication, err, "rank 0: answering a rank")
			}
		}
		return addrs, nil
	}
	for {
		c, err := net.DialTimeout("tcp", l.CoordAddr, time.Second)
		if err == nil {
			c.SetDeadline(deadline)
			fmt.Fprintf(c, "%d %s\n", l.Rank, addr)
			rd := bufio.NewReader(c)
			for i := range addrs {
				if _, err = fmt.Fscan(rd, &addrs[i]); err != nil {
					break
				}
			}
			c.Close()
			if err == nil {
				return addrs, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, errs.New(errs.Communication, "rank %d: cannot register with rank 0 at %s: %v", l.Rank, l.CoordAddr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
