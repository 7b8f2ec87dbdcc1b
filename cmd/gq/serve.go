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
	token := fs.String("auth-token", "", "require this bearer token on every call (env GQ_AUTH_TOKEN)")
	usersFile := fs.String("users", "", "`FILE` of user:password lines: basic auth through the Flight handshake, which returns a bearer token")
	cert := fs.String("tls-cert", "", "TLS certificate `FILE` (PEM); with --tls-key, serve over TLS only")
	key := fs.String("tls-key", "", "TLS private key `FILE` (PEM)")
	maxQueries := fs.Int("max-concurrent-queries", 0, "queries run at once; more wait in line (0: no limit). Under ranks (rrun -n N gq serve) statements run one at a time across the ranks whatever this says")
	queryMem := fs.String("query-memory-limit", os.Getenv("GQ_QUERY_MEMORY_LIMIT"), `host memory one query may hold: bytes, "512MiB" or "10%" of RAM; sorts spill at it, and a query over it fails alone with ResourceExhausted (env GQ_QUERY_MEMORY_LIMIT)`)
	timeout := fs.Duration("query-timeout", 0, "cancel a query running longer than this, e.g. 5m (0: none)")
	insecure := fs.Bool("insecure", false, "allow a non-loopback --listen without --auth-token or --users")
	logFormat := fs.String("log-format", "text", "server log format on stderr: text or json")
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
	launch, err := shuffle.DetectLaunch(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	cfg := flight.Config{AuthToken: *token, MaxConcurrentQueries: *maxQueries, QueryTimeout: *timeout, Version: version}
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
	defer gqmem.TieRuntimeLimit(eopts.MemoryLimit)()
	if eopts.QueryMemoryLimit, err = parseQueryLimit(*queryMem); err != nil {
		fmt.Fprintf(stderr, "Error: --query-memory-limit: %v\n", err)
		return exitUsage
	}
	var rf *rankOptions
	if launch.NRanks > 1 {
		rf = &rankOptions{comm: os.Getenv("GQ_COMM")}
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
	}
	cat := catalog.New()
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
