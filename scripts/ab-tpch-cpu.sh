#!/bin/bash
# Usage: scripts/ab-tpch-cpu.sh BEFORE_GQ AFTER_GQ [DATA] [ROUNDS]
# CPU seconds (user+sys) of one `gq --threads 1 -f qNN.sql` process per
# TPC-H query, the two binaries alternating, median of ROUNDS (default 3).
# CPU time is steadier than wall time on a shared machine; its resolution
# is 10 ms. Prints: query, before s, after s, change. QUERIES="05 13"
# restricts it to those queries (default all 22); THREADS=N runs them
# with N threads (default 1).
set -u
before=$1 after=$2 data=${3:-data/tpch-sf1} rounds=${4:-3}
t=$(mktemp)
trap 'rm -f "$t"' EXIT
cpu() { /usr/bin/time -f "%U %S" -o "$t" "$@" >/dev/null 2>&1; awk '{print $1+$2}' "$t"; }
for q in ${QUERIES:-$(seq -w 1 22)}; do
  f=testdata/tpch/queries/q$q.sql
  a=() b=()
  for _ in $(seq "$rounds"); do
    a+=("$(cpu "$before" --threads "${THREADS:-1}" --data "$data" -f "$f")")
    b+=("$(cpu "$after" --threads "${THREADS:-1}" --data "$data" -f "$f")")
  done
  mid=$(( (rounds + 1) / 2 ))
  ma=$(printf "%s\n" "${a[@]}" | sort -n | sed -n "${mid}p")
  mb=$(printf "%s\n" "${b[@]}" | sort -n | sed -n "${mid}p")
  echo "q$q $ma $mb $(awk -v a="$ma" -v b="$mb" 'BEGIN{printf "%+.1f%%", (b/a-1)*100}')"
done
