#!/usr/bin/env bash
# gpu-ab.sh BEFORE AFTER runs, on the GPU machine (no Go needed), TPC-H
# hot on the GPU against DuckDB with two builds of tpchbench, one after
# the other in one command, so that a change's before and after come from
# the same machine and the same files: SF10 then SF1 (GQ_AB_SFS, "10 1"),
# all cores, median of GQ_AB_REPS (3) runs, queries_alt (other substitution
# parameters, Q11's fraction scaled to the scale factor). BEFORE and AFTER are bundle
# folders (make gpu-bundle's build/gpux, or one holding only
# tpchbench.xz); the tables are made with AFTER's gq (gq gen --jobs).
# Each run's table goes to $OUT as sfN-before.md / sfN-after.md.
#
# A bundle and the tree pass the 64 MiB one device call carries: carry
# BEFORE in a first, short call and AFTER in the next (a warm machine
# keeps what the first brought).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/gpu-ab.sh BEFORE AFTER" >&2; exit 2; }
DATA=${GQ_BENCH_DATA:-/tmp/gq-tpch}
O=${OUT:-gpu-ab-out}
mkdir -p "$O" "$DATA"
. "$(dirname "$0")/gpu-bundle.sh"
unpack_bundle "$1"
unpack_bundle "$2"
require_bundle gpu-ab "$1" tpchbench
require_bundle gpu-ab "$2" gq tpchbench
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd)
T=$(mktemp -d)
exec > >(tee "$O/log.txt") 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
t0=$SECONDS
for sf in ${GQ_AB_SFS:-10 1}; do
	[ -d "$DATA/sf$sf/lineitem" ] || [ -e "$DATA/sf$sf/lineitem.parquet" ] ||
		"$after/gq" gen tpch --sf $sf --out "$DATA/sf$sf" --jobs "$(nproc)" >/dev/null || echo "gen sf$sf failed"
	mkdir -p "$T/q$sf"
	cp testdata/tpch/queries_alt/q*.sql "$T/q$sf/"
	[ $sf = 10 ] && sed -i 's/\* 0\.001$/* 0.0001/' "$T/q$sf/q11.sql"
	for which in before after; do
		b=$before
		[ $which = after ] && b=$after
		"$b/tpchbench" --threads "$(nproc)" --device gpu --data "$DATA/sf$sf" --hot --reps "${GQ_AB_REPS:-3}" --queries "$T/q$sf" --out "$T/$which$sf" 2>&1 | tail -2
		cp "$T/$which$sf"/*.md "$O/sf$sf-$which.md" 2>/dev/null
		echo "sf$sf $which done at $((SECONDS - t0)) s"
	done
done
