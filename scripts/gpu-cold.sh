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
#   7. with GQ_STEPS naming it, `cpu`: the CPU engine in one process
#      against DuckDB at SF10 (tpchbench --device cpu, 2 runs); `test`: make test-gpu's checks
#      (scripts/test-gpu.sh, needs engine.test in the bundle), and `pool`:
#      `select 1` on the GPU with the default pool and with a 4 GiB one
#      (what the pool's size costs a process to open and release), and
#      `ranks`: the 22 queries at SF10 under `rrun -n 3 -g 0` (three ranks
#      on the one GPU, each with a third of its memory less 4 GiB for the
#      three CUDA contexts) against one rank,
#      compared as the benchmark compares engines (issue 33),
#      `quarter`: the 22 queries at SF10 on the GPU unlimited and with
#      --device-memory-limit at a quarter of the pool's peak in the
#      unlimited run (EXPLAIN ANALYZE's "Device memory: peak"), each a
#      fresh process: answers compared, times side by side (issue 33's
#      ≤ 3×), and how many chunks streamed (issues 31 and 33);
#      GQ_QUARTER_QUERIES ("q02 q21") runs only those; and `ab`: the CPU
#      engine built before a change (GQ_AB_BEFORE) against this bundle's,
#      fresh processes at SF10 with the spec's parameters (issue 27);
#      `split`: a one-shot process's wall clock against its execution
#      trace (what start-up and exit cost outside the query, issue 31);
#      `big`: TPC-H at SF100 (GQ_BIG_SF) made on the machine and run cold
#      and hot beside DuckDB, with gq's device and host peaks (issue 33),
#      resumable across calls on a warm machine (see the step below).
#
# GQ_STEPS (default "gen limits warm explain cold hot") picks the steps;
# gen always runs when another step needs data. They run in the order
# test, limits, pool, split, warm, explain, hot, ranks, quarter, cold, cpu, ab, big. Binaries from
# `make gpu-bundle` (build/gpux, carried to the machine). The bundle and
# the tree together pass the 64 MiB one device call carries: carry the
# bundle less tpchbench.xz in a first, short call and tpchbench.xz in the
# next (a warm machine keeps what the first brought). Results go to
# $OUT: at most 8 files (what a device run brings back).
set -uo pipefail
B=${GQ_GPU_BUNDLE:-build/gpux}
DATA=${GQ_BENCH_DATA:-/tmp/gq-tpch}
O=${OUT:-gpu-cold-out}
mkdir -p "$O" "$DATA"
. "$(dirname "$0")/gpu-bundle.sh"
unpack_bundle "$B"
STEPS=" ${GQ_STEPS:-gen limits warm explain cold hot} "
has() { [[ $STEPS == *" $1 "* ]]; }
# tpchbench (27 MiB of the 64 a call carries) only for the steps that
# run DuckDB; the quarter step compares with scripts/csvsame.py without it.
need="gq"
{ has limits || has test; } && need="$need arrowgpu.test"
{ has hot || has cold || has cpu || has ranks || has big; } && need="$need tpchbench"
has test && need="$need engine.test"
has ranks && need="$need rrun"
require_bundle gpu-cold "$B" $need
B=$(cd "$B" && pwd)
T=$(mktemp -d)
exec > >(tee "$O/log.txt") 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader
echo "cpus: $(nproc)"
t0=$SECONDS
# A device command has at most 600 s: a step that would start after
# GQ_DEADLINE seconds (default 520) is skipped and says so.
deadline=${GQ_DEADLINE:-520}
late() { [ $((SECONDS - t0)) -gt "$deadline" ] && echo "skipped $1: past ${deadline} s" && return 0; return 1; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.2f}')" "$1" "$(now)"; }

gen() {
	for sf in "$@"; do
		[ $sf = 1 ] && ! has warm && ! has cold && continue
		# A warm machine keeps an earlier call's tables.
		[ -f "$DATA/sf$sf.done" ] && echo "gen sf$sf: kept from an earlier call" && continue
		s=$(now)
		"$B/gq" gen tpch --sf $sf --out "$DATA/sf$sf" --jobs "$(nproc)" >/dev/null 2>&1 && touch "$DATA/sf$sf.done" || echo "gen sf$sf failed"
		echo "gen sf$sf --jobs $(nproc): $(since "$s") s"
	done
}
# SF10 and SF1 for every step but big, which makes its own.
small="10 1"
[ "$STEPS" = " big " ] && small=""
# The test step needs no TPC-H data: the data is made meanwhile.
if has test; then
	gen $small >"$T/gen.txt" 2>&1 &
	genpid=$!
	GQ_GPU_BUNDLE=$B timeout "${GQ_TEST_TIMEOUT:-420}" scripts/test-gpu.sh >"$O/test-gpu.txt" 2>&1
	echo "test-gpu rc=$? at $((SECONDS - t0)) s" | tee -a "$O/test-gpu.txt"
	grep -E '^-- |FAIL' "$O/test-gpu.txt" | head -20
	wait $genpid
	cat "$T/gen.txt"
else
	gen $small
fi
if has limits; then
	cat "$DATA"/sf10/lineitem/* >/dev/null
	s=$(now)
	cat "$DATA"/sf10/lineitem/* >/dev/null
	echo "page-cache read of lineitem sf10: $(du -sb "$DATA/sf10/lineitem" | cut -f1) bytes in $(since "$s") s (one reader)"
	"$B/arrowgpu.test" -test.run 'TestGPUThroughput$' -test.v 2>&1 | grep -E 'GB/s|ok|FAIL' | head -5
fi
if has pool; then
	for lim in "" 4GiB; do
		for i in 1 2 3; do
			s=$(now); env ${lim:+GQ_DEVICE_MEMORY_LIMIT=$lim} "$B/gq" --device gpu -c "select 1" >/dev/null 2>&1
			echo "select 1 --device gpu, pool ${lim:-default}: $(since "$s") s"
		done
	done
fi
# split: where a one-shot GPU process's time goes outside its execution
# trace (exec and runtime start before it, the driver's teardown at exit
# after it): each run's wall clock around the process, and its trace,
# whose first Sync event carries the wall clock it started at.
if has split; then
	mkdir -p "$T/split"
	for q in "select 1" "select count(*) from lineitem where l_quantity < 3"; do
		for dev in gpu cpu; do
			for i in 1 2; do
				n=$dev-$i-${#q}
				echo "$n: $q" >"$T/split/$n.txt"
				date +%s.%N >>"$T/split/$n.txt"
				GQ_GPU_COLD_ROWS_PER_THREAD=0 GQ_TRACE="$T/split/$n.trace" "$B/gq" --device $dev --data "$DATA/sf10" -c "$q" >/dev/null 2>&1
				date +%s.%N >>"$T/split/$n.txt"
				echo "$n: $(since "$(sed -n 2p "$T/split/$n.txt")") s"
			done
		done
	done
	tar czf "$O/split.tgz" -C "$T" split
fi

# Query texts: Q11's fraction is 0.0001/SF in the spec.
mkdir -p "$T/spec10" "$T/alt10" "$T/alt1"
cp testdata/tpch/queries/q*.sql "$T/spec10/"
cp testdata/tpch/queries_alt/q*.sql "$T/alt10/"
cp testdata/tpch/queries_alt/q*.sql "$T/alt1/"
sed -i 's/\* 0\.0001$/* 0.0000100000/' "$T/spec10/q11.sql"
sed -i 's/\* 0\.001$/* 0.0001/' "$T/alt10/q11.sql"
grep -h '\* 0\.0' "$T"/spec10/q11.sql "$T"/alt10/q11.sql "$T"/alt1/q11.sql

has warm && s=$(now) && for f in "$T"/alt1/q*.sql "$T"/alt10/q11.sql "$T"/spec10/q11.sql; do
	GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/gq" --device gpu --data "$DATA/sf1" -f "$f" >/dev/null 2>&1 || echo "warm-up $f failed"
done
has warm && echo "kernel cache filled (22+2 queries at SF1, first-ever compiles included): $(since "$s") s"
has warm && for i in 1 2 3; do
	s=$(now); "$B/gq" --device gpu -c "select 1" >/dev/null 2>&1; echo "select 1 --device gpu: $(since "$s") s"
done

has explain && ! late explain && for q in q01 q09; do
	{ echo "explain analyze"; cat "$T/alt10/$q.sql"; } >"$T/x$q.sql"
	# The first process to run a query compiles its kernels into the
	# disk cache: without the warm step, that process is not the one timed.
	has warm || GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/gq" --device gpu --data "$DATA/sf10" -f "$T/alt10/$q.sql" >/dev/null 2>&1
	s=$(now)
	GQ_GPU_COLD_ROWS_PER_THREAD=0 GQ_TRACE="$T/trace-$q.out" "$B/gq" --device gpu --data "$DATA/sf10" -f "$T/x$q.sql" >"$T/explain-sf10-$q.txt" 2>&1
	echo "explain analyze $q sf10 cold (process): $(since "$s") s"
	s=$(now)
	"$B/gq" --device cpu --data "$DATA/sf10" -f "$T/alt10/$q.sql" >/dev/null 2>&1
	echo "$q sf10 --device cpu (process): $(since "$s") s"
done
has explain && tar czf "$O/explain-traces.tgz" -C "$T" explain-sf10-q01.txt explain-sf10-q09.txt trace-q01.out trace-q09.out

bench() { "$B/tpchbench" --threads "$(nproc)" --gq-bin "$B/gq" --device gpu "$@"; }
if has hot && ! late hot; then
	bench --data "$DATA/sf10" --hot --reps 3 --queries "$T/spec10" --out "$T/hot10" 2>&1 | tail -3
	cp "$T"/hot10/*.md "$O/" 2>/dev/null
fi
if has ranks && ! late ranks; then
	mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1) # MiB
	third=$((mem / 3))MiB
	mkdir -p "$T/ranks"
	s=$(now)
	fails=0
	for f in "$T"/alt10/q*.sql; do
		q=$(basename "$f" .sql)
		late "ranks $q" && break
		GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/gq" --device gpu --data "$DATA/sf10" -f "$f" >"$T/ranks/$q-1.csv" 2>"$T/ranks/$q-1.err"
		GQ_GPU_COLD_ROWS_PER_THREAD=0 "$B/rrun" -n 3 -g 0 "$B/gq" --device gpu --device-memory-limit "$third" --data "$DATA/sf10" -f "$f" >"$T/ranks/$q-3.csv" 2>"$T/ranks/$q-3.err"
		"$B/tpchbench" --compare "$T/ranks/$q-3.csv,$T/ranks/$q-1.csv" --query "$((10#${q#q}))" --queries "$T/alt10" || { fails=$((fails + 1)); tail -2 "$T/ranks/$q-3.err"; }
	done
	echo "3 ranks on one GPU (each --device-memory-limit $third) against 1 rank, SF10: $fails of 22 differ, $(since "$s") s"
	tar czf "$O/ranks.tgz" -C "$T" ranks
fi
if has quarter && ! late quarter; then
	mkdir -p "$T/quarter"
	s=$(now)
	fails=0
	tu=0
	tq=0
	bytes() { python3 -c "import sys; n, u = float(sys.argv[1]), sys.argv[2]; print(int(n * {'B': 1, 'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30}[u]))" "$1" "$2"; }
	total() { sed -n 's/^"\{0,1\}Total time \([0-9.]*\)\(m\{0,1\}s\).*/\1 \2/p' "$1" | awk '{print ($2 == "ms") ? $1 / 1000 : $1}'; }
	for f in $(for q in ${GQ_QUARTER_QUERIES:-$(cd "$T/alt10" && ls q*.sql | sed 's/\.sql$//')}; do echo "$T/alt10/$q.sql"; done); do
		q=$(basename "$f" .sql)
		late "quarter $q" && break
		d="$T/quarter/$q"
		{ echo "explain analyze"; cat "$f"; } >"$d-x.sql"
		export GQ_GPU_COLD_ROWS_PER_THREAD=0
		"$B/gq" --device gpu --data "$DATA/sf10" -f "$f" >"$d-1.csv" 2>"$d-1.err"
		"$B/gq" --device gpu --data "$DATA/sf10" -f "$d-x.sql" >"$d-1.txt" 2>&1
		peak=$(sed -n 's/^Device memory: peak \([0-9.]*\)\([KMG]\{0,1\}i\{0,1\}B\) in use.*/\1 \2/p' "$d-1.txt")
		[ -z "$peak" ] && { echo "$q: no device peak in the unlimited run"; fails=$((fails + 1)); continue; }
		lim=$(($(bytes $peak) / 4))
		"$B/gq" --device gpu --device-memory-limit "$lim" --data "$DATA/sf10" -f "$f" >"$d-4.csv" 2>"$d-4.err"
		"$B/gq" --device gpu --device-memory-limit "$lim" --data "$DATA/sf10" -f "$d-x.sql" >"$d-4.txt" 2>&1
		unset GQ_GPU_COLD_ROWS_PER_THREAD
		if [ -x "$B/tpchbench" ]; then
			"$B/tpchbench" --compare "$d-4.csv,$d-1.csv" --query "$((10#${q#q}))" --queries "$T/alt10"
		else
			python3 scripts/csvsame.py "$d-4.csv" "$d-1.csv"
		fi || { fails=$((fails + 1)); tail -2 "$d-4.err"; }
		a=$(total "$d-1.txt")
		b=$(total "$d-4.txt")
		tu=$(python3 -c "print($tu + ${a:-0})")
		tq=$(python3 -c "print($tq + ${b:-0})")
		echo "$q: need $peak, limit $lim B: ${a:-?} s unlimited, ${b:-?} s at a quarter; $(grep -o '[0-9]* chunks streamed through the device, [0-9]* on the CPU' "$d-4.txt")"
	done
	echo "a quarter of the device memory against unlimited, SF10: $fails of 22 differ; query times (EXPLAIN ANALYZE, fresh processes) $tu s unlimited, $tq s at a quarter; $(since "$s") s"
	tar czf "$O/quarter.tgz" -C "$T" quarter
fi
if has cold && ! late cold; then
	bench --data "$DATA/sf10" --cold --cold-cpu --reps ${GQ_COLD_REPS:-1} --queries "$T/alt10" --out "$T/cold10" 2>&1 | tail -3
	cp "$T"/cold10/*.md "$O/" 2>/dev/null
fi
if has cold && ! late "cold sf1"; then
	bench --data "$DATA/sf1" --cold --cold-cpu --reps ${GQ_COLD_REPS:-1} --queries "$T/alt1" --out "$T/cold1" 2>&1 | tail -3
	cp "$T"/cold1/*.md "$O/" 2>/dev/null
fi
# cpu: the CPU engine in one process against DuckDB on the same files
# (issue 32's 16-core figure), Parquet read each run.
# The spec's SF10 substitution parameters (Q11's fraction 0.0000100000):
# issue 27's 22 queries on the CPU, answers checked against DuckDB's.
if has cpu && ! late cpu; then
	"$B/tpchbench" --threads "$(nproc)" --device cpu --data "$DATA/sf10" --reps 2 --queries "$T/spec10" --out "$T/cpu10" 2>&1 | tail -3
	cp "$T"/cpu10/*.md "$O/" 2>/dev/null
fi
# ab: gq --device cpu built before a change ($GQ_AB_BEFORE, a gq binary
# or its .xz) against this bundle's, one fresh process per query, the
# two alternating, 3 rounds, SF10 with the spec's parameters, all cores:
# the median wall time of each and the change.
if has ab && ! late ab; then
	pre=${GQ_AB_BEFORE:?ab needs GQ_AB_BEFORE}
	case $pre in *.xz) unpack_bundle "$(dirname "$pre")"; pre=${pre%.xz} ;; esac
	{
		echo "| query | before s | after s | change |"
		echo "|---|---:|---:|---:|"
		for f in "$T"/spec10/q*.sql; do
			q=$(basename "$f" .sql)
			late "ab $q" && break
			a=() b=() bad=
			for r in 1 2 3; do
				s=$(now); "$pre" --device cpu --data "$DATA/sf10" -f "$f" >/dev/null 2>&1 || bad=" (before failed)"; a+=("$(since "$s")")
				s=$(now); "$B/gq" --device cpu --data "$DATA/sf10" -f "$f" >/dev/null 2>&1 || bad="$bad (after failed)"; b+=("$(since "$s")")
			done
			ma=$(printf "%s\n" "${a[@]}" | sort -n | sed -n 2p)
			mb=$(printf "%s\n" "${b[@]}" | sort -n | sed -n 2p)
			echo "| $q | $ma | $mb | $(awk -v a="$ma" -v b="$mb" 'BEGIN{printf "%+.1f%%", (b/a-1)*100}') |"
		done
	} | tee "$O/ab-sf10-cpu.md"
fi
# big: TPC-H at SF $GQ_BIG_SF (default 100; issue 33's must show 1):
# the tables made with gq gen, then for each of GQ_BIG_MODES (default
# "cold hot") the 22 queries of queries_alt (Q11's fraction 0.001/SF)
# side by side with DuckDB on the same files, answers checked, one
# tpchbench run per query so that the step stops between queries when
# late; cold with --device-peak (gq's device and host peak per query).
# What a call finished stays on a warm machine ($DATA/bigSF): the next
# call with the same steps goes on from the first query not yet run.
# GQ_BIG_ONLY ("1,6") runs only those queries.
if has big; then
	BIG=${GQ_BIG_SF:-100}
	gen "$BIG"
	mkdir -p "$T/altbig" "$DATA/big$BIG"
	cp testdata/tpch/queries_alt/q*.sql "$T/altbig/"
	sed -i "s/\* 0\.001\$/* $(python3 -c "print(f'{0.001 / $BIG:.10f}')")/" "$T/altbig/q11.sql"
	grep -h '\* 0\.0' "$T/altbig/q11.sql"
	for mode in ${GQ_BIG_MODES:-cold hot}; do
		for n in $(echo "${GQ_BIG_ONLY:-$(seq -s, 1 22)}" | tr , ' '); do
			r="$DATA/big$BIG/$mode-q$(printf %02d "$n")"
			[ -s "$r/done" ] && continue
			late "big $mode q$n" && break 2
			rm -rf "$r"
			if [ "$mode" = cold ]; then
				bench --data "$DATA/sf$BIG" --cold --device-peak --reps 1 --only "$n" --queries "$T/altbig" --out "$r" 2>&1 | grep "^q"
			else
				bench --data "$DATA/sf$BIG" --hot --reps 2 --only "$n" --queries "$T/altbig" --out "$r" 2>&1 | grep "^q"
			fi
			ls "$r"/*.md >"$r/done" 2>/dev/null
		done
		python3 scripts/tpchbench-join.py "$DATA/big$BIG/$mode"-q*/*.md >"$O/big-sf$BIG-$mode.md" && echo "big sf$BIG $mode: $(grep -c '^| q' "$O/big-sf$BIG-$mode.md") rows"
	done
fi
echo "done at $((SECONDS - t0)) s"
ls "$O"
