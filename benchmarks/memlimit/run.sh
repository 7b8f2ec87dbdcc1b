#!/usr/bin/env bash
# Runs each TPC-H query twice with bin/gq: without a memory limit, then
# with --memory-limit set to 1/FRACTION (default 1/4) of the peak host
# memory the engine accounted in the first run (peak-host-bytes of
# --stats-json). Checks the two CSV outputs are byte for byte identical,
# and that the limited run's peak RSS (/usr/bin/time's maximum resident
# set size) is at most the limit plus OVERHEAD, and writes a markdown table
# of wall and CPU time, spilled bytes (spill-bytes-host-to-disk) and peak
# RSS of both runs.
#
# Usage: benchmarks/memlimit/run.sh [OUT.md]   (default benchmarks/results/memlimit-sf1.md)
# Environment: GQ (binary, default bin/gq), DATA (default data/tpch-sf1),
# QUERIES ("1 6 22", default 1..22), FRACTION (default 4), FLAGS (more gq
# flags), OVERHEAD (MiB, default 192: see the results file).
# Exit status 1 when a query fails, the outputs differ or RSS is over.
set -euo pipefail
cd "$(dirname "$0")/../.."
GQ=${GQ:-bin/gq}
DATA=${DATA:-data/tpch-sf1}
FRACTION=${FRACTION:-4}
QUERIES=${QUERIES:-$(seq 1 22)}
FLAGS=${FLAGS:-}
OVERHEAD=${OVERHEAD:-192}
out=${1:-benchmarks/results/memlimit-sf1.md}
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[[ -f $DATA/lineitem.parquet ]] || { echo "no $DATA/lineitem.parquet" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
stat() { jq -r --arg k "$2" '.[$k].value // 0' "$1"; }

# run NAME QUERYFILE FLAGS...: one gq run; leaves NAME.{csv,json,err,time}.
run() {
	local name=$1 q=$2
	shift 2
	# shellcheck disable=SC2086
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/$name.time" \
		"$GQ" --data "$DATA" -f "$q" --format csv --stats-json "$tmp/$name.json" $FLAGS "$@" \
		>"$tmp/$name.csv" 2>"$tmp/$name.err"
}

status=0
{
	echo "| query | wall s | CPU s | spilled MiB | peak RSS MiB | engine peak MiB | limit MiB | wall s (limit) | CPU s (limit) | spilled MiB (limit) | peak RSS MiB (limit) | engine peak MiB (limit) | RSS − limit MiB | identical |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$tmp/table.md"
for n in $QUERIES; do
	qq=$(printf "q%02d" "$n")
	q=testdata/tpch/queries/$qq.sql
	if ! run base "$q"; then
		echo "$qq: failed without a limit: $(cat "$tmp/base.err")" >&2
		status=1
		continue
	fi
	read -r t0 u0 s0 rss0 <"$tmp/base.time"
	c0=$(awk -v u="$u0" -v s="$s0" 'BEGIN { printf "%.2f", u + s }')
	peak0=$(stat "$tmp/base.json" peak-host-bytes)
	spill0=$(stat "$tmp/base.json" spill-bytes-host-to-disk)
	# At least 1 byte: --memory-limit 0 would mean no limit.
	limit=$(awk -v p="$peak0" -v f="$FRACTION" 'BEGIN { l = int(p / f); printf "%d", l < 1 ? 1 : l }')
	if ! run lim "$q" --memory-limit "$limit"; then
		echo "$qq: failed with --memory-limit $limit: $(cat "$tmp/lim.err")" >&2
		status=1
		echo "| $qq | $t0 | $c0 | $(mib "$spill0") | $(mib $((rss0 * 1024))) | $(mib "$peak0") | $(mib "$limit") | failed | | | | | | no |" >>"$tmp/table.md"
		continue
	fi
	read -r t1 u1 s1 rss1 <"$tmp/lim.time"
	c1=$(awk -v u="$u1" -v s="$s1" 'BEGIN { printf "%.2f", u + s }')
	peak1=$(stat "$tmp/lim.json" peak-host-bytes)
	spill1=$(stat "$tmp/lim.json" spill-bytes-host-to-disk)
	same=yes
	if ! cmp -s "$tmp/base.csv" "$tmp/lim.csv"; then
		same=no
		status=1
		echo "$qq: outputs differ" >&2
	fi
	over=$(awk -v r="$rss1" -v l="$limit" 'BEGIN { printf "%.1f", (r * 1024 - l) / 1048576 }')
	if awk -v o="$over" -v m="$OVERHEAD" 'BEGIN { exit !(o > m) }'; then
		over="**$over**"
		status=1
		echo "$qq: peak RSS over the limit plus $OVERHEAD MiB" >&2
	fi
	echo "| $qq | $t0 | $c0 | $(mib "$spill0") | $(mib $((rss0 * 1024))) | $(mib "$peak0") | $(mib "$limit") | $t1 | $c1 | $(mib "$spill1") | $(mib $((rss1 * 1024))) | $(mib "$peak1") | $over | $same |" >>"$tmp/table.md"
	echo "$qq done: limit $(mib "$limit") MiB, RSS $(mib $((rss0 * 1024))) -> $(mib $((rss1 * 1024))) MiB, spilled $(mib "$spill1") MiB, identical $same" >&2
done
{
	echo "# TPC-H with --memory-limit = 1/$FRACTION of the unlimited run's engine peak"
	echo
	echo "Data \`$DATA\`, \`$GQ --format csv $FLAGS\`, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)."
	echo "Times are of the whole process (start, scan, query, output): wall, and CPU (user + system); engine peak is"
	echo "peak-host-bytes (the accounting allocator's peak); spilled is spill-bytes-host-to-disk; peak RSS is"
	echo "/usr/bin/time's maximum resident set size. RSS − limit in bold: over the stated overhead of $OVERHEAD MiB."
	echo
	cat "$tmp/table.md"
} >"$out"
cat "$out"
exit $status
