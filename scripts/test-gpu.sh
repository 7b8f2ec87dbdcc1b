#!/usr/bin/env bash
# test-gpu.sh (make test-gpu) runs gq's GPU tests on a machine with an
# NVIDIA GPU, which needs no Go toolchain: `make gpu-bundle` on a machine
# with Go builds the binaries (CGO_ENABLED=0) into build/gpu/, optionally
# xz-compressed for the copy; this script unpacks them and runs, from the
# repository root:
#   1. the arrowgpu tests (device layer, kernels, against the CPU evaluator);
#   2. the whole sqllogictest suite and the 22 TPC-H queries (and their
#      variants) with GQ_DEVICE=gpu, in one process and under 3 ranks
#      (each rank's operators on the GPU): every result is compared with
#      the expected one that the CPU engine produces (the same files make
#      test checks), and the bad-input catalogue (TestBadInputs: errors,
#      not hangs, on the device too); on a GPU also the engine's GPU tests
#      (TestGPU*);
#   3. four join-heavy TPC-H queries under a 16 MiB device memory limit
#      (the GPU operators fall back to the CPU), and four under 3 ranks
#      with 4 MiB (a join pipeline may fall back after it read a build side
#      that holds an exchange: the CPU twin replays it; a scan that
#      partitions for an exchange on the device falls back on some ranks
#      only: q12), compared with the CPU;
#   4. EXPLAIN of TPC-H q06 and EXPLAIN ANALYZE of q01 and q09 (a join
#      pipeline) on the GPU, to show where operators ran and time went.
set -uo pipefail
# The tables here are small: a one-shot gq would keep its queries on the
# CPU (the cold rule, engine/gpucold.go). These checks are of the GPU path.
export GQ_GPU_COLD_ROWS_PER_THREAD=0
B=${GQ_GPU_BUNDLE:-build/gpu}
. "$(dirname "$0")/gpu-bundle.sh"
unpack_bundle "$B"
require_bundle test-gpu "$B" gq arrowgpu.test engine.test
B=$(cd "$B" && pwd)
rc=0
# step NAME CMD...: runs CMD, says whether it passed.
step() {
	local name=$1
	shift
	if "$@"; then
		echo "-- $name: ok"
	else
		echo "-- $name: FAILED (exit $?)"
		rc=1
	fi
}
arrowgpu_tests() {
	(cd arrowgpu && "$B/arrowgpu.test" -test.v -test.timeout 10m) >/tmp/gq-arrowgpu.log 2>&1
	local st=$?
	grep -v '^=== RUN' /tmp/gq-arrowgpu.log
	return $st
}
# On a GPU the engine's GPU tests run too (top-N, sorts, join pipelines,
# placement, ranks on the device); `make test` runs them on gqemu already.
gpu_only_tests='|TestGPU.*|TestPlaceOnGPU'
case "${GQ_LIBCUDA:-}" in *gqemu*) gpu_only_tests= ;; esac
engine_tests() {
	(cd engine && GQ_DEVICE=gpu GQ_FALLBACK_MODE=silent "$B/engine.test" -test.run "^(TestSQLLogic|TestTPCH|TestSQLLogicRanks|TestTPCHRanks|TestBadInputs$gpu_only_tests)\$" -test.timeout 30m -test.v) >/tmp/gq-engine.log 2>&1
	local st=$?
	echo "$(grep -c '^    --- PASS' /tmp/gq-engine.log) subtests passed, $(grep -c '^    --- FAIL' /tmp/gq-engine.log) failed"
	grep -E '^(--- FAIL|FAIL|ok|PASS)|^\s+[a-z_]+\.go:[0-9]+' /tmp/gq-engine.log | head -200
	return $st
}
echo "== arrowgpu tests"
step "arrowgpu tests" arrowgpu_tests
echo "== sqllogictest suite and TPC-H on the GPU (GQ_DEVICE=gpu)"
step "sqllogictest and TPC-H on the GPU" engine_tests
# Under a device memory limit too small for the tables, the GPU operators
# fall back to the CPU (each says so) and the results stay the CPU's.
small_memory() {
	local q out
	for q in 03 05 09 18; do
		out=$("$B/gq" --device gpu --device-memory-limit 16MiB --fallback-mode silent --data data/tpch-sf0.1 -f testdata/tpch/queries/q$q.sql) || return 1
		if [ "$out" != "$("$B/gq" --device cpu --data data/tpch-sf0.1 -f testdata/tpch/queries/q$q.sql)" ]; then
			echo "q$q under a 16 MiB device limit differs from the CPU's result"
			return 1
		fi
	done
}
small_memory_ranks() {
	local q out fell=0
	for q in 03 05 12 18; do
		out=$(timeout 120 "$B/gq" --ranks 3 --device gpu --device-memory-limit 4MiB --fallback-mode warn --data data/tpch-sf0.1 -f testdata/tpch/queries/q$q.sql 2>/tmp/gq-small-ranks.log) || { cat /tmp/gq-small-ranks.log; return 1; }
		if [ "$out" != "$("$B/gq" --ranks 3 --device cpu --data data/tpch-sf0.1 -f testdata/tpch/queries/q$q.sql)" ]; then
			echo "q$q under 3 ranks and a 4 MiB device limit differs from the CPU's result"
			return 1
		fi
		grep -q "runs on the CPU:" /tmp/gq-small-ranks.log && fell=$((fell + 1))
	done
	# lineitem itself streams through the device (gpuexec/stream.go); a
	# join pipeline or aggregation above it or above an exchange may find
	# no room and fall back, replaying its shared build sides, or stay on
	# the device (grace join and aggregation, a chunk waiting for room):
	# which, per query, depends on how the ranks' operators interleave in
	# 4 MiB. The answers are checked above; that the fallback path ran at
	# all is checked here.
	if [ "$fell" = 0 ]; then
		echo "under 3 ranks and a 4 MiB device limit nothing fell back to the CPU in q03, q05, q12, q18"
		return 1
	fi
	echo "$fell of 4 queries fell back to the CPU somewhere"
}
echo "== TPC-H under a small device memory limit"
step "TPC-H q03 q05 q09 q18 with 16 MiB of device memory" small_memory
step "TPC-H q03 q05 q12 q18 under 3 ranks with 4 MiB of device memory" small_memory_ranks
echo "== EXPLAIN on the GPU"
step "EXPLAIN q06" "$B/gq" --device gpu --data data/tpch-sf0.1 -c "explain $(cat testdata/tpch/queries/q06.sql)"
step "EXPLAIN ANALYZE q01" "$B/gq" --device gpu --data data/tpch-sf0.1 -c "explain analyze $(cat testdata/tpch/queries/q01.sql)"
step "EXPLAIN ANALYZE q09 (a join pipeline)" "$B/gq" --device gpu --data data/tpch-sf0.1 -c "explain analyze $(cat testdata/tpch/queries/q09.sql)"
if [ $rc -eq 0 ]; then echo "test-gpu: PASS"; else echo "test-gpu: FAIL"; fi
exit $rc
