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
#   scripts/gpu-bench.sh ab N MODES  the SF N benchmark again per GQ_CUDA_SYNC mode
#                                    (e.g. "spin yield blocking"), gq only
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
case "${1:-}" in sf1 | sf10 | ab) need="gq tpchbench" ;; esac
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
		"$B/gq" --device gpu --fallback-mode warn --data "$d" -f "/tmp/gq-explain-$q.sql" \
			>"$O/explain-sf$sf/$q.txt" 2>&1
		grep -E '^Total time|^Device threads' "$O/explain-sf$sf/$q.txt" | tr '\n' ' ' | sed "s/^/$q: /"
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
ab)
	sf=${2:?scale factor}
	for mode in ${3:?modes}; do
		echo "== GQ_CUDA_SYNC=$mode"
		GQ_CUDA_SYNC=$mode bench "$sf" --gq-only
	done
	;;
*)
	sed -n '2,17p' "$0"
	exit 2
	;;
esac
