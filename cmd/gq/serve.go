package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"gq/catalog"
	"gq/engine"
	"gq/flight"
	gqmem "gq/memory"
	"gq/shuffle"
)

// serve implements "gq serve": an Arrow Flight SQL server over the tables
// of --data until SIGINT or SIGTERM.
func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gq serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:32010", "address to listen on, HOST:PORT")
	data := fs.String("data", "", "directory whose NAME.parquet, NAME/*.parquet and NAME.csv files become tables")
	threads := fs.Int("threads", envInt("GQ_THREADS"), "worker threads per query (default: all cores; env GQ_THREADS)")
	batch := fs.Int("batch-size", envInt("GQ_BATCH_SIZE"), "rows per batch (default 65536)")
	token := fs.String("auth-token", getenv("GQ_AUTH_TOKEN"), "require this bearer token on every call; prefer env GQ_AUTH_TOKEN or --auth-token-file, as a command line is visible to every local user (ps)")
	tokenFile := fs.String("auth-token-file", "", "read the bearer token of --auth-token from `FILE` (its first line)")
	usersFile := fs.String("users", "", "`FILE` of user:password lines: basic auth through the Flight handshake, which returns a bearer token")
	cert := fs.String("tls-cert", "", "TLS certificate `FILE` (PEM); with --tls-key, serve over TLS only")
	key := fs.String("tls-key", "", "TLS private key `FILE` (PEM)")
	maxQueries := fs.Int("max-concurrent-queries", 0, "queries run at once; more wait in line (0: no limit). Under ranks (rrun -n N gq serve) statements run one at a time across the ranks whatever this says")
	queryMem := fs.String("query-memory-limit", getenv("GQ_QUERY_MEMORY_LIMIT"), `host memory one query may hold: bytes, "512MiB" or "10%" of RAM; sorts spill at it, and a query over it fails alone with ResourceExhausted (env GQ_QUERY_MEMORY_LIMIT)`)
	timeout := fs.Duration("query-timeout", 0, "cancel a query running longer than this, e.g. 5m (0: none)")
	insecure := fs.Bool("insecure", false, "allow a non-loopback --listen without --auth-token or --users, or with them but without TLS")
	allowDDL := fs.Bool("allow-ddl", false, "let clients' CREATE VIEW, CREATE TABLE AS and DROP change the tables every client sees (default: each session's DDL is its own)")
	sessionIdle := fs.Duration("session-idle-timeout", 30*time.Minute, "end a client session idle this long, dropping its tables, views and prepared statements")
	tokenLife := fs.Duration("token-lifetime", 12*time.Hour, "a --users session token expires this long after its handshake")
	streamIdle := fs.Duration("stream-idle-timeout", 60*time.Second, "cancel a query whose client has taken no batch for this long, freeing its slot (0: never)")
	sessionTables := fs.String("session-table-limit", "1GiB", `bytes of CREATE TABLE AS tables one session may hold: bytes, "512MiB" or "10%" of RAM`)
	logFormat := fs.String("log-format", "text", "server log format on stderr: text or json")
	wireDec64 := fs.Bool("wire-decimal64", false, "send DECIMAL columns as Arrow decimal64, as gq holds them, rather than decimal128, which most Arrow readers need (JDBC, arrow-rs < 54, pyarrow < 19); a session may choose with the session option gq.wire_decimal64")
	allow := allowPathFlag(fs)
	device, fallback := deviceFlag(fs)
	mf := memFlags(fs)
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "Error: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if code := checkDevice(*device, stderr); code != 0 {
		return code
	}
	launch, err := shuffle.DetectLaunch(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	cfg := flight.Config{AuthToken: *token, MaxConcurrentQueries: *maxQueries, QueryTimeout: *timeout, Version: version,
		AllowDDL: *allowDDL, SessionIdleTimeout: *sessionIdle, TokenLifetime: *tokenLife, StreamIdleTimeout: *streamIdle,
		WireDecimal64: *wireDec64}
	if *streamIdle == 0 {
		cfg.StreamIdleTimeout = -1
	}
	if cfg.AuthToken, err = serverToken(fs, *token, *tokenFile, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	if cfg.MaxSessionTableBytes, err = gqmem.ParseLimit(*sessionTables, gqmem.HostMemory()); err != nil || cfg.MaxSessionTableBytes == gqmem.Unlimited || cfg.MaxSessionTableBytes <= 0 {
		fmt.Fprintf(stderr, "Error: --session-table-limit %q: want a positive size (%v)\n", *sessionTables, err)
		return exitUsage
	}
	if *sessionIdle <= 0 || *tokenLife <= 0 || *streamIdle < 0 {
		fmt.Fprintln(stderr, "Error: --session-idle-timeout and --token-lifetime must be positive, --stream-idle-timeout not negative")
		return exitUsage
	}
	if *usersFile != "" {
		if cfg.Users, err = flight.ReadUsers(*usersFile); err != nil {
			fmt.Fprintf(stderr, "Error: --users: %v\n", err)
			return exitUsage
		}
	}
	if (*cert == "") != (*key == "") {
		fmt.Fprintln(stderr, "Error: give --tls-cert and --tls-key together")
		return exitUsage
	}
	if *cert != "" {
		pair, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			fmt.Fprintf(stderr, "Error: TLS: %v\n", err)
			return exitUsage
		}
		cfg.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	switch *logFormat {
	case "text":
		cfg.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	case "json":
		cfg.Logger = slog.New(slog.NewJSONHandler(stderr, nil))
	default:
		fmt.Fprintf(stderr, "Error: unknown --log-format %q (want text or json)\n", *logFormat)
		return exitUsage
	}
	eopts := engine.Options{Threads: *threads, BatchSize: *batch, Device: *device, FallbackMode: *fallback}
	if err := mf.apply(&eopts, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	eopts = eopts.WithEnv(lookupEnv)
	defer gqmem.TieRuntimeLimit(eopts.MemoryLimit)()
	if eopts.QueryMemoryLimit, err = parseQueryLimit(*queryMem); err != nil {
		fmt.Fprintf(stderr, "Error: --query-memory-limit: %v\n", err)
		return exitUsage
	}
	var rf *rankOptions
	if launch.NRanks > 1 {
		rf = &rankOptions{comm: getenv("GQ_COMM")}
		comm, code := rf.open(nil, stderr)
		if comm == nil {
			return code
		}
		defer comm.Close()
		eopts.Comm = comm
	}
	var lis net.Listener
	if eopts.Comm == nil || eopts.Comm.Rank() == 0 {
		if lis, err = net.Listen("tcp", *listen); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return exitUsage
		}
		defer lis.Close()
		if !loopback(lis.Addr()) && cfg.AuthToken == "" && cfg.Users == nil && !*insecure {
			fmt.Fprintf(stderr, "Error: --listen %s is reachable from other hosts: give --auth-token or --users (or --insecure)\n", *listen)
			return exitUsage
		}
		// A token or password sent in plaintext off this host is anyone's
		// on the path to read.
		if !loopback(lis.Addr()) && (cfg.AuthToken != "" || cfg.Users != nil) && cfg.TLS == nil && !*insecure {
			fmt.Fprintf(stderr, "Error: --listen %s is reachable from other hosts and credentials would cross the network in plaintext: give --tls-cert and --tls-key (or --insecure)\n", *listen)
			return exitUsage
		}
	}
	cat := catalog.New()
	if err := cat.Confine(*allow, func(msg string) { cfg.Logger.Warn(msg) }); err != nil {
		fmt.Fprintf(stderr, "Error: --allow-path: %v\n", err)
		return exitUsage
	}
	if *data != "" {
		if err := cat.RegisterDir(*data); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return exitQuery
		}
	}
	defer gqmem.PaceGC(gqmem.HeapBudgetFor(cat.DataBytes()))()
	cfg.Engine = engine.New(cat, eopts)
	defer mf.finish(cfg.Engine, stderr)
	if rf != nil {
		rf.atExit(func() { cfg.Engine.Close() }) // SIGTERM from the launcher ends the rank at once
	}
	if lis == nil {
		return follow(cfg.Engine, cfg.Logger, stderr)
	}
	srv, err := flight.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		cfg.Logger.Info("shutting down")
		srv.Shutdown()
	}()
	start := time.Now()
	err = srv.Serve(lis)
	cfg.Engine.StopFollowers()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitQuery
	}
	cfg.Logger.Info("stopped", "uptime", time.Since(start))
	return 0
}

// serverToken is the bearer token from --auth-token (or GQ_AUTH_TOKEN)
// or --auth-token-file; a token on the command line is warned about, as
// every local user can read it (ps, /proc/PID/cmdline).
func serverToken(fs *flag.FlagSet, token, file string, stderr io.Writer) (string, error) {
	onCommandLine := false
	fs.Visit(func(f *flag.Flag) { onCommandLine = onCommandLine || f.Name == "auth-token" })
	if file != "" {
		if onCommandLine {
			return "", fmt.Errorf("give --auth-token or --auth-token-file, not both")
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--auth-token-file: %w", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if token = strings.TrimSpace(line); token == "" {
			return "", fmt.Errorf("--auth-token-file %s: no token on its first line", file)
		}
		return token, nil
	}
	if onCommandLine {
		fmt.Fprintln(stderr, "Warning: --auth-token on the command line is visible to every local user (ps); use GQ_AUTH_TOKEN or --auth-token-file")
		if token == "" {
			return "", fmt.Errorf("--auth-token is empty")
		}
	}
	return token, nil
}

// loopback reports whether addr accepts only local connections.
func loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// follow is a server's life on a rank other than 0: run the statements
// rank 0 broadcasts until it stops the job.
func follow(eng *engine.Engine, log *slog.Logger, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("following rank 0", "rank", eng.Rank(), "ranks", eng.NRanks())
	if err := eng.FollowStatements(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "Error: rank %d: %v\n", eng.Rank(), err)
		return exitQuery
	}
	return 0
}

// parseQueryLimit reads --query-memory-limit: bytes, "512MiB" or a
// percentage of the machine's memory; empty or 0 is none.
func parseQueryLimit(s string) (int64, error) {
	n, err := gqmem.ParseLimit(s, gqmem.HostMemory())
	if err != nil || n == gqmem.Unlimited {
		return 0, err
	}
	return n, nil
}
