export GOFLAGS := -mod=mod
export GONOSUMDB := *
export GOSUMDB := off

DATA := data/tpch-sf0.1

.PHONY: bench-flight bench-shuffle build data run test test-ucx bench clean gpu-tests gpu-bin gpu-bundle test-gpu test-emu fuzz difftest soak slt

build:
	CGO_ENABLED=0 go build -o bin/gq ./cmd/gq
	CGO_ENABLED=0 go build -o bin/rrun ./cmd/rrun

data: build
	@test -d $(DATA) || bin/gq gen tpch --sf 0.1 --out $(DATA)

run: build data
	bin/gq --data $(DATA)

# The TPC-H tests generate $(DATA) themselves when it is absent.
test:
	go vet ./...
	go test -timeout 12m ./...
	@if [ -f benchmarks/duckdb/go.mod ]; then cd benchmarks/duckdb && go test -timeout 10m ./...; fi
	@if [ -f /usr/include/ucp/api/ucp.h ]; then $(MAKE) --no-print-directory test-ucx; else echo "skipping the ucx backend's tests: no libucx-dev (/usr/include/ucp/api/ucp.h)"; fi
	@if command -v g++ >/dev/null; then $(MAKE) --no-print-directory test-emu; else echo "skipping the GPU tests on gqemu: no g++"; fi

# The ucx communicator (cgo over libucx-dev, build tag ucx): its tests.
test-ucx:
	go vet -tags ucx ./shuffle ./cmd/rrun
	go test -tags ucx -timeout 5m ./shuffle
	go test -tags ucx -timeout 5m ./cmd/rrun -run 'UCX'

# make bench [SF=1] [THREADS=<all cores>] [REPS=5] [ONLY=1,6] [WRITER=gq|duckdb] [COLD=1]:
# TPC-H in gq and DuckDB side by side (benchmarks/duckdb/cmd/tpchbench);
# generates the data when missing; writes
# benchmarks/results/tpch-sf$(SF)[-duckdb]-t$(THREADS)[-cold].{md,png}.
# WRITER=duckdb: both engines read DuckDB-written copies of the tables
# ($(BENCH_DATA)-duckdb, made on first use); COLD=1: a fresh process per
# query run for both engines, start-up (select 1) reported apart.
SF ?= 1
THREADS ?= $(shell nproc)
REPS ?= 5
ONLY ?=
WRITER ?= gq
COLD ?=
BENCH_DATA := data/tpch-sf$(SF)

bench: build
	@test -d $(BENCH_DATA) || bin/gq gen tpch --sf $(SF) --out $(BENCH_DATA)
	cd benchmarks/duckdb && go build -o ../../bin/tpchbench ./cmd/tpchbench
	bin/tpchbench --data $(BENCH_DATA) --threads $(THREADS) --reps $(REPS) --only "$(ONLY)" \
		--queries testdata/tpch/queries --out benchmarks/results --writer $(WRITER) $(if $(COLD),--cold --gq-bin bin/gq)
	$(MAKE) bench-flight
	$(MAKE) bench-shuffle

# bench-shuffle: shuffle throughput in GB/s per rank (3 ranks, 1 MiB chunks
# all-to-all) over local, tcp and (with libucx-dev) ucx, next to each
# communicator alone and the raw transports (plain socket mesh, one stream,
# ucx_perftest over shared memory where installed).
bench-shuffle:
	go test ./shuffle -run X -bench 'ShuffleLocal|ShuffleTCP|CommTCP|RawTCPMesh|RawTCP$$' -benchtime 150x
	@if [ -f /usr/include/ucp/api/ucp.h ]; then go test -tags ucx ./shuffle -run X -bench UCX -benchtime 150x; fi
	@if command -v ucx_perftest >/dev/null; then \
		UCX_TLS=sm,self ucx_perftest -t tag_bw -s 1048576 -n 2000 -p 13337 >/dev/null 2>&1 & sleep 1; \
		UCX_TLS=sm,self ucx_perftest 127.0.0.1 -t tag_bw -s 1048576 -n 2000 -p 13337 2>&1 | tail -1; wait; fi

# bench-flight: 60 s of mixed Flight SQL clients against an in-process server.
bench-flight:
	GQ_FLIGHT_LOAD=60s go test ./flight -run TestLoad -count=1 -v

# gpu-bundle builds, with CGO_ENABLED=0, what a GPU machine without a Go
# toolchain needs into build/gpu/: gq, the arrowgpu and engine test
# binaries and tpchbench (cgo: DuckDB in process), stripped; build/gpux/
# holds them xz-compressed, to fit the 64 MiB a device run can carry.
# There: make test-gpu (or GQ_GPU_BUNDLE=build/gpux scripts/test-gpu.sh),
# and scripts/gpu-bench.sh sf1|sf10|explain N|ab N MODES for the benchmark
# and where its time goes, a step per 10-minute device command.
# gpu-bin builds what scripts/test-gpu.sh runs: gq and the GPU test
# binaries, with CGO_ENABLED=0 as for any machine.
gpu-bin:
	mkdir -p build/gpu
	CGO_ENABLED=0 go build -ldflags="-s -w" -o build/gpu/gq ./cmd/gq
	CGO_ENABLED=0 go build -ldflags="-s -w" -o build/gpu/rrun ./cmd/rrun
	CGO_ENABLED=0 go test -c -ldflags="-s -w" -o build/gpu/arrowgpu.test ./arrowgpu
	CGO_ENABLED=0 go test -c -ldflags="-s -w" -o build/gpu/engine.test ./engine

gpu-bundle: gpu-bin
	mkdir -p build/gpux
	cd benchmarks/duckdb && go build -ldflags="-s -w" -o ../../build/gpu/tpchbench ./cmd/tpchbench
	for f in gq rrun arrowgpu.test engine.test tpchbench; do rm -f build/gpux/$$f; xz -T0 -6 -c build/gpu/$$f >build/gpux/$$f.xz; done

gpu-tests: gpu-bundle

# test-gpu runs on the GPU machine (no Go needed): see scripts/test-gpu.sh.
test-gpu:
	scripts/test-gpu.sh

# test-emu runs the same GPU tests here, on gqemu (arrowgpu/emulator: the
# CUDA driver and NVRTC emulated on the CPU, kernels compiled by g++), with
# the same CGO_ENABLED=0 binaries: every kernel, the device cache, the GPU
# operators and placement, and every sqllogictest and TPC-H result on the
# "GPU". A correctness run; its timings mean nothing.
test-emu: gpu-bin
	@eval "$$(go run ./arrowgpu/emulator/cmd/gqemu)" && GQ_GPU_BUNDLE=build/gpu scripts/test-gpu.sh

# make fuzz [FUZZTIME=1m] [FUZZPAR=2]: runs each fuzz target for FUZZTIME
# (go test -fuzz runs one target at a time); crashers land in the package's
# testdata/fuzz/<Target>/ and then replay in every plain `go test`.
FUZZTIME ?= 1m
FUZZPAR ?= 2
FUZZ_TARGETS := parser:FuzzParse parser:FuzzSplit planner:FuzzBind catalog:FuzzCSV catalog:FuzzParquet

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t#*:}; \
		echo "== $$pkg $$fn ($(FUZZTIME))"; \
		go test ./$$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPAR); \
	done
	go test ./catalog -run '^TestParquetMutations$$' -count=1 -v -timeout 0 -parquet.mutate $(FUZZTIME)

# make difftest [DIFFTIME=10m] [SEED=2] [RANKS=1]: random queries compared
# with DuckDB (plus TLP and NoREC) for DIFFTIME on the generated tables and
# DIFFTIME/2 on TPC-H, gq as RANKS in-process ranks; `make test` runs a
# short fixed-seed version. GQ_DEVICE=gpu (on gqemu: eval the output of
# `go run ./arrowgpu/emulator/cmd/gqemu` first) checks the GPU operators.
DIFFTIME ?= 10m
SEED ?= 2
RANKS ?= 1

difftest:
	cd benchmarks/duckdb && go test -run TestDifferential -count=1 -v -timeout 0 \
		-diff.n 100000000 -diff.time $(DIFFTIME) -diff.seed $(SEED) -diff.ranks $(RANKS)

# make slt [SLT_DIR=benchmarks/slt/corpus] [SLT_JOBS=<all cores>]: SQLite's
# sqllogictest files (select1-5, random/{aggregates,expr,groupby} 0-4,
# index/between/10) run in the mysql dialect through gq (benchmarks/slt);
# writes benchmarks/results/slt.md and fails on any wrong answer. The corpus
# (about 40 MB) is not committed: scripts/fetch-slt.sh fetches it from
# github; without it this target says so and succeeds.
SLT_DIR ?= benchmarks/slt/corpus
SLT_JOBS ?= $(shell nproc)

slt:
	@if [ ! -d $(SLT_DIR)/test ]; then \
		echo "skipping slt: no sqllogictest corpus in $(SLT_DIR) (run scripts/fetch-slt.sh $(SLT_DIR), which needs github)"; \
	else \
		go run ./benchmarks/slt/cmd/slt --dir $(SLT_DIR) --jobs $(SLT_JOBS) --out benchmarks/results/slt.md; \
	fi

# make soak [SOAKTIME=30m] [SOAKLOOP=5m] [SOAKREPS=20] [SOAKSEED=<now>]: the
# long versions of the checks `make test` runs briefly. Random queries
# compared with DuckDB (plus TLP and NoREC) for SOAKTIME on the generated
# tables and SOAKTIME/2 on TPC-H SF0.1; TPC-H queries cancelled, timed out
# and abandoned mid-stream at random points for SOAKLOOP, each checked for
# leaked memory, spill files and goroutines and for hangs; the Flight SQL
# server's malformed requests and connection churn, and 32 clients with
# hostile ones mixed in (parameter floods, unread streams, DDL on shared
# tables, bad tokens), for SOAKLOOP; and the
# rank fault tests (a rank killed, asymmetric ranks, a TCP peer dying, a
# rank leaving) SOAKREPS times. A fresh seed each run unless SOAKSEED.
SOAKTIME ?= 30m
SOAKLOOP ?= 5m
SOAKREPS ?= 20
SOAKSEED ?= $(shell date +%s)

soak: data
	@echo "== soak: seed $(SOAKSEED)"
	cd benchmarks/duckdb && go test -run '^TestDifferential$$' -count=1 -v -timeout 0 \
		-diff.n 100000000 -diff.time $(SOAKTIME) -diff.seed $(SOAKSEED)
	go test ./engine -run '^TestRandomCancellations$$' -count=1 -v -timeout 0 -soak $(SOAKLOOP) -soak.seed $(SOAKSEED)
	go test ./engine -run '^(TestRankDeathFailsOthers|TestRankAsymmetryDetected)$$' -count=$(SOAKREPS) -timeout 0
	go test ./shuffle -run '^(TestTCPPeerDeath|TestLeftRankEndsWaits|TestShufflerShutdownDropsSpills)$$' -count=$(SOAKREPS) -timeout 0
	go test ./cmd/rrun -run '^(TestKilledRank|TestKilledRankLeavesNothing|TestRRunEndsJobWhenARankFails)$$' -count=$(SOAKREPS) -timeout 0
	go test ./flight -run '^(TestServerRobustness|TestHostileLoad)$$' -count=1 -v -timeout 0 -flight.soak $(SOAKLOOP)

clean:
	rm -rf bin
