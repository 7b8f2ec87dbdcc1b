#!/usr/bin/env bash
# gpu-cold.sh runs, on the GPU machine (no Go needed), issue 31's cold
# figures in one device command of about 4 minutes on the H100 machine:
#
#   1. TPC-H SF10 and SF1 made with `gq gen --jobs $(nproc)` (timed);
#   2. the machine's limits: lineitem's Parquet read from the page cache
#      (GB/s) and host→device copies through pinned staging
#      (arrowgpu TestGPUThroughput);
#   3. the kernel disk cache filled (every query once on the GPU at SF1):
#      the first-ever run of a query compiles its kernels, later
#      processes load them (GQ_KERNEL_CACHE, keyed by source, options,
#      NVRTC version and architecture);
#   4. EXPLAIN ANALYZE of q01 and q09 at SF10 in a fresh process on the
#      GPU (the load's phases), with an execution trace of q01;
#   5. tpchbench --cold --cold-cpu at SF10 and SF1: every query a fresh
#      process of gq --device gpu, of gq --device cpu and of DuckDB, on
#      the same files, 16 threads, answers checked against DuckDB's.
#      Query texts: queries_alt (other substitution parameters), Q11's
#      fraction scaled to the scale factor (0.001/SF);
#   6. tpchbench --hot at SF10 on the GPU with the spec's validation
#      parameters and Q11's SF10 fraction 0.0000100000 (issue 27).
#
# Binaries from `make gpu-bundle` (build/gpux, carried to the machine).
# Results go to $OUT: at most 8 files (what a device run brings back).
set -uo pipefail
B=${GQ_GPU_BUNDLE:-build/gpux}
DATA=${GQ_BENCH_DATA:-/tmp/gq-tpch}
O=${OUT:-gpu-cold-out}
mkdir -p "$O" "$DATA"
. "$(dirname "$0")/gpu-bundle.sh"
unpack_bundle "$B"
require_bundle gpu-cold "$B" gq tpchbench arrowgpu.test
B=$(cd "$B" && pwd)
T=$(mktemp -d)
exec > >(tee "$O/log.txt") 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader
echo "cpus: $(nproc)"
t0=$SECONDS
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.2f}')" "$1" "$(now)"; }

for sf in 10 1; do
	s=$(now)
	"$B/gq" gen tpch --sf $sf --out "$DATA/sf$sf" --jobs "$(nproc)" >/dev/null 2>&1 || echo "gen sf$sf failed"
	echo "gen sf$sf --jobs $(nproc): $(since "$s") s"
done
cat "$DATA"/sf10/lineitem/* >/dev/null
s=$(now)
cat "$DATA"/sf10/lineitem/* >/dev/null
echo "page-cache read of lineitem sf10: $(du -sb "$DATA/sf10/lineitem" | cut -f1) bytes in $(since "$s") s (one reader)"
"$B/arrowgpu.test" -test.run 'TestGPUThroughput$' -test.v 2>&1 | grep -E 'GB/s|ok|FAIL' | head -5

# Query texts: Q11's fraction is 0.0001/SF in the spec.
mkdir -p "$T/spec10" "$T/alt10" "$T/alt1"
cp testdata/tpch/queries/q*.sql "$T/spec10/"
cp testdata/tpch/queries_alt/q*.sql "$T/alt10/"
cp testdata/tpch/queries_alt/q*.sql "$T/alt1/"
sed -i 's/\* 0\.0001$/* 0.0000100000/' "$T/spec10/q11.sql"
sed -i 's/\* 0\.001$/* 0.0001/' "$T/alt10/q11.sql"
grep -h '\* 0\.0' "$T"/spec10/q11.sql "$T"/alt10/q11.sql "$T"/alt1/q11.sql

s=$(now)
for f in "$T"/alt1/q*.sql "$T"/alt10/q11.sql "$T"/spec10/q11.sql; do
	GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/gq" --device gpu --data "$DATA/sf1" -f "$f" >/dev/null 2>&1 || echo "warm-up $f failed"
done
echo "kernel cache filled (22+2 queries at SF1, first-ever compiles included): $(since "$s") s"
for i in 1 2 3; do
	s=$(now); "$B/gq" --device gpu -c "select 1" >/dev/null 2>&1; echo "select 1 --device gpu: $(since "$s") s"
done

for q in q01 q09; do
	{ echo "explain analyze"; cat "$T/alt10/$q.sql"; } >"$T/x$q.sql"
	s=$(now)
	GQ_GPU_COLD_ROWS_PER_THREAD=0 GQ_TRACE="$T/trace-$q.out" "$B/gq" --device gpu --data "$DATA/sf10" -f "$T/x$q.sql" >"$T/explain-sf10-$q.txt" 2>&1
	echo "explain analyze $q sf10 cold (process): $(since "$s") s"
	s=$(now)
	"$B/gq" --device cpu --data "$DATA/sf10" -f "$T/alt10/$q.sql" >/dev/null 2>&1
	echo "$q sf10 --device cpu (process): $(since "$s") s"
done
tar czf "$O/explain-traces.tgz" -C "$T" explain-sf10-q01.txt explain-sf10-q09.txt trace-q01.out trace-q09.out

bench() { "$B/tpchbench" --threads "$(nproc)" --gq-bin "$B/gq" --device gpu "$@"; }
bench --data "$DATA/sf10" --cold --cold-cpu --reps ${GQ_COLD_REPS:-1} --queries "$T/alt10" --out "$T/cold10" 2>&1 | tail -3
bench --data "$DATA/sf1" --cold --cold-cpu --reps ${GQ_COLD_REPS:-1} --queries "$T/alt1" --out "$T/cold1" 2>&1 | tail -3
cp "$T"/cold10/*.md "$O/" 2>/dev/null
cp "$T"/cold1/*.md "$O/" 2>/dev/null
if [ "${GQ_SKIP_HOT:-}" != 1 ]; then
	bench --data "$DATA/sf10" --hot --reps 3 --queries "$T/spec10" --out "$T/hot10" 2>&1 | tail -3
	cp "$T"/hot10/*.md "$O/" 2>/dev/null
fi
echo "done at $((SECONDS - t0)) s"
ls "$O"
