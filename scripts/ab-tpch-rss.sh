#!/bin/bash
# Usage: scripts/ab-tpch-rss.sh BEFORE_GQ AFTER_GQ [DATA] [ROUNDS]
# Peak resident memory of one `gq --threads N -f qNN.sql` process per
# TPC-H query, the two binaries alternating, ROUNDS runs each (default 3).
# QUERIES="05 13" restricts it to those queries (default all 22), THREADS=N
# sets the threads (default 2). Prints one line per run: query, binary,
# peak KB, user s, system s, wall s. Peak memory, unlike wall time, holds
# steady on a loaded machine. Measure copies of binaries (cp), not files
# fresh from go build: those show about 19 MiB more peak.
set -u
before=$1 after=$2 data=${3:-data/tpch-sf1} rounds=${4:-3}
t=$(mktemp)
trap 'rm -f "$t"' EXIT
for q in ${QUERIES:-$(seq -w 1 22)}; do
  f=testdata/tpch/queries/q$q.sql
  for _ in $(seq "$rounds"); do
    for bin in "$before" "$after"; do
      /usr/bin/time -f "%M %U %S %e" -o "$t" "$bin" --threads "${THREADS:-2}" --data "$data" -f "$f" >/dev/null 2>&1
      echo "q$q $(basename "$bin") $(cat "$t")"
    done
  done
done
