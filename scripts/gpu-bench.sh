#!/usr/bin/env bash
# gpu-bench.sh runs, on the GPU machine (no Go needed), what issue 7's
# figures need, in steps that each fit one 10-minute device command:
#
#   scripts/gpu-bench.sh test        make test-gpu's checks (scripts/test-gpu.sh)
#   scripts/gpu-bench.sh sf1         TPC-H SF1: gq on the GPU vs DuckDB, hot, median of 5
#   scripts/gpu-bench.sh sf10        the same at SF10 (data made first: 2-3 minutes)
#   scripts/gpu-bench.sh explain N [QUERY...]
#                                    EXPLAIN ANALYZE of every query (or those
#                                    named: q04 q21) at SF N on the GPU, second
#                                    run in the process (cache hot)
#   scripts/gpu-bench.sh ab N SETTINGS
#                                    the SF N benchmark again per setting of the
#                                    environment, gq only (e.g. "GQ_GPU_STREAMS=4
#                                    GQ_GPU_STREAMS=8" or "GQ_CUDA_SYNC=spin
#                                    GQ_CUDA_SYNC=blocking")
#   scripts/gpu-bench.sh profile N [REPS]
#                                    gq alone at SF N on the GPU, hot: after a
#                                    pass over the queries, REPS (10) runs
#                                    of each query in one process under a CPU
#                                    profile (profile-sfN.pprof), then 3 under an
#                                    execution trace (trace-sfN.out: where the
#                                    host waits, go tool trace -pprof=syscall)
#   scripts/gpu-bench.sh all [QUERY...]
#                                    all of issue 7's figures in one command of
#                                    about 200 s on the H200 machine: SF10 and SF1
#                                    made while the test step runs, then sf10,
#                                    sf1, and EXPLAIN ANALYZE at SF10 of the
#                                    queries named (default: the ten slowest of
#                                    the last run) in what is left of 285 s;
#                                    every step's output in its own file of $OUT
#                                    (8 files: what a device run brings back)
#
# The binaries come from `make gpu-bundle` (build/gpux, carried to the
# machine; GQ_GPU_BUNDLE names another folder). Tables are made under
# $GQ_BENCH_DATA (default /tmp/gq-tpch) with gq gen. Results go to $OUT
# (the device run's folder) or ./gpu-bench-out: the markdown tables and
# charts of tpchbench, and the EXPLAIN ANALYZE texts (explain-sfN.tgz).
set -uo pipefail
B=${GQ_GPU_BUNDLE:-build/gpux}
DATA=${GQ_BENCH_DATA:-/tmp/gq-tpch}
O=${OUT:-gpu-bench-out}
mkdir -p "$O" "$DATA"

. "$(dirname "$0")/gpu-bundle.sh"
unpack_bundle "$B"
need=gq
case "${1:-}" in sf1 | sf10 | ab | all | profile) need="gq tpchbench" ;; esac
require_bundle gpu-bench "$B" $need
B=$(cd "$B" && pwd)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
echo "cpus: $(nproc)"

# data SF: the TPC-H tables at scale factor SF, made when missing.
data() {
	local d="$DATA/sf$1"
	if [ ! -e "$d/lineitem.parquet" ] && [ ! -d "$d/lineitem" ]; then
		local t0=$SECONDS
		"$B/gq" gen tpch --sf "$1" --out "$d" >&2 || return 1
		echo "generated SF$1 in $((SECONDS - t0)) s" >&2
	fi
	echo "$d"
}

# bench SF [extra tpchbench flags...]: gq on the GPU vs DuckDB, hot.
bench() {
	local sf=$1
	shift
	local d
	d=$(data "$sf") || return 1
	mkdir -p "$O/sf$sf"
	"$B/tpchbench" --data "$d" --device gpu --hot --threads "$(nproc)" --reps 5 \
		--queries testdata/tpch/queries --out "$O/sf$sf" "$@"
}

# explain SF: EXPLAIN ANALYZE of each query, the second run of a process
# that ran it once (the device cache then holds the tables).
explain() {
	local d q f sf=$1
	shift
	d=$(data "$sf") || return 1
	set -- "${@/#/testdata/tpch/queries/}"
	[ $# -gt 0 ] || set -- testdata/tpch/queries/q*
	mkdir -p "$O/explain-sf$sf"
	for f in "${@%.sql}"; do
		f=$f.sql
		q=$(basename "$f" .sql)
		{ cat "$f"; echo; echo "explain analyze $(cat "$f")"; } >"/tmp/gq-explain-$q.sql"
		GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/gq" --device gpu --fallback-mode warn --data "$d" -f "/tmp/gq-explain-$q.sql" \
			>"$O/explain-sf$sf/$q.txt" 2>&1
		grep -E '^Total time|^Device calls' "$O/explain-sf$sf/$q.txt" | tr '\n' ' ' | sed "s/^/$q: /"
		echo
	done
	# A device run brings back at most 8 files: the texts travel as one.
	tar czf "$O/explain-sf$sf.tgz" -C "$O" "explain-sf$sf" && rm -r "${O:?}/explain-sf$sf"
}

case "${1:-}" in
test)
	GQ_GPU_BUNDLE=$B scripts/test-gpu.sh
	;;
sf1 | sf10)
	bench "${1#sf}"
	;;
explain)
	shift
	explain "${1:?scale factor}" "${@:2}"
	;;
all)
	shift
	[ $# -gt 0 ] || set -- q21 q18 q16 q15 q01 q07 q09 q11 q20 q05
	t0=$SECONDS
	end=$((t0 + ${GQ_BENCH_SECONDS:-285}))
	{
		data 10 >/dev/null
		echo "SF10 ready at $((SECONDS - t0)) s"
		data 1 >/dev/null
		echo "SF1 ready at $((SECONDS - t0)) s"
	} >"$O/gen.txt" 2>&1 &
	gen=$!
	GQ_GPU_BUNDLE=$B timeout 140 scripts/test-gpu.sh >"$O/test.txt" 2>&1
	echo "test rc=$? at $((SECONDS - t0)) s" >>"$O/test.txt"
	wait $gen
	for sf in 10 1; do
		timeout $((end - SECONDS)) "$0" "sf$sf" >"$O/sf$sf.txt" 2>&1
		echo "sf$sf rc=$? at $((SECONDS - t0)) s" >>"$O/sf$sf.txt"
	done
	rm -f "$O"/sf*/*.png
	if [ $((end - SECONDS)) -gt 15 ]; then
		timeout $((end - SECONDS)) "$0" explain 10 "$@" >"$O/explain.txt" 2>&1
		echo "explain rc=$? at $((SECONDS - t0)) s" >>"$O/explain.txt"
	fi
	grep -hE '^test-gpu:|^\| \*\*total|rc=' "$O"/*.txt
	;;
profile)
	sf=${2:?scale factor}
	d=$(data "$sf") || exit 1
	prof() { "$B/tpchbench" --gq-only --hot --data "$d" --device gpu --threads "$(nproc)" --queries testdata/tpch/queries "$@"; }
	prof --reps "${3:-10}" --cpuprofile "$O/profile-sf$sf.pprof" | tail -1
	GQ_TRACE=$O/trace-sf$sf.out prof --reps 3 | tail -1
	;;
ab)
	sf=${2:?scale factor}
	for setting in ${3:?settings}; do
		echo "== $setting"
		(
			export "${setting:?}"
			O=$O/ab-${setting//[^A-Za-z0-9]/_}
			bench "$sf" --gq-only
		)
	done
	;;
*)
	sed -n '2,37p' "$0"
	exit 2
	;;
esac
