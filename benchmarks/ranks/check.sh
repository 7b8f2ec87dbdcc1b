#!/usr/bin/env bash
# Runs the 22 TPC-H queries under several launch configurations and diffs
# each output, byte for byte, against the single-process run of the same
# query (issue 6: "rrun -n 1, -n 2, -n 4 and mpirun -n 3 print exactly the
# output of the single-process run").
#
#   benchmarks/ranks/check.sh                      # SF 1, every configuration
#   SF=0.1 CONFIGS="rrun2 mpi3" QUERIES="01 05" benchmarks/ranks/check.sh
#
# Environment:
#   SF        scale factor (default 1); data in data/tpch-sf$SF, generated
#             with bin/gq gen tpch when absent
#   CONFIGS   space-separated among rrun1 rrun2 rrun4 mpi3 (default: all;
#             mpi3 is skipped with a note when mpirun is absent)
#   QUERIES   query numbers (default 01..22)
#   THREADS   GQ_THREADS for every process (default: unset, all cores)
#   OUT       directory for outputs and the report (default: a temporary one)
#
# Prints one line per query with wall times in seconds and the verdict,
# writes $OUT/report.txt, and exits 1 if any output differs or any run
# fails. Runs from the repository root.
set -u
cd "$(dirname "$0")/../.."
export GOFLAGS=-mod=mod GONOSUMDB='*' GOSUMDB=off

SF=${SF:-1}
CONFIGS=${CONFIGS:-"rrun1 rrun2 rrun4 mpi3"}
QUERIES=${QUERIES:-"01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22"}
DATA=data/tpch-sf$SF
OUT=${OUT:-$(mktemp -d /tmp/gq-ranks-check.XXXXXX)}
mkdir -p "$OUT"
[ -n "${THREADS:-}" ] && export GQ_THREADS=$THREADS

go build -o bin/ ./cmd/gq ./cmd/rrun || exit 2
if [ ! -d "$DATA" ]; then
  echo "generating $DATA" >&2
  bin/gq gen tpch --sf "$SF" --out "$DATA" || exit 2
fi

have_mpi=1
command -v mpirun >/dev/null || have_mpi=0
# We run as root in CI; Open MPI refuses that without both variables.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

launch() { # config, then the gq arguments
  local c=$1
  shift
  case $c in
    single) bin/gq "$@" ;;
    rrun*) bin/rrun -n "${c#rrun}" bin/gq "$@" ;;
    mpi*) mpirun -n "${c#mpi}" --oversubscribe bin/gq "$@" ;;
  esac
}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

header=$(printf '%-4s %8s' query single)
for c in $CONFIGS; do header+=$(printf ' %8s' "$c"); done
echo "$header  verdict (SF $SF, load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)" | tee "$OUT/report.txt"

failed=0
declare -A total
for q in $QUERIES; do
  sql=testdata/tpch/queries/q$q.sql
  args=(--data "$DATA" --format csv -f "$sql")
  s=$(now)
  if ! launch single "${args[@]}" >"$OUT/q$q.single.csv" 2>"$OUT/q$q.single.err"; then
    echo "q$q: single-process run failed: $(tail -1 "$OUT/q$q.single.err")" | tee -a "$OUT/report.txt"
    failed=1
    continue
  fi
  t=$(secs "$s" "$(now)")
  total[single]=$(awk -v a="${total[single]:-0}" -v b="$t" 'BEGIN { print a + b }')
  line=$(printf 'q%-3s %8s' "$q" "$t")
  verdict=same
  for c in $CONFIGS; do
    if [ "$c" = mpi3 ] && [ $have_mpi = 0 ]; then
      line+=$(printf ' %8s' n/a)
      continue
    fi
    s=$(now)
    if ! launch "$c" "${args[@]}" >"$OUT/q$q.$c.csv" 2>"$OUT/q$q.$c.err"; then
      line+=$(printf ' %8s' FAIL)
      verdict="$c failed: $(tail -1 "$OUT/q$q.$c.err")"
      failed=1
      continue
    fi
    t=$(secs "$s" "$(now)")
    total[$c]=$(awk -v a="${total[$c]:-0}" -v b="$t" 'BEGIN { print a + b }')
    line+=$(printf ' %8s' "$t")
    if ! cmp -s "$OUT/q$q.single.csv" "$OUT/q$q.$c.csv"; then
      verdict="$c DIFFERS (diff $OUT/q$q.single.csv $OUT/q$q.$c.csv)"
      failed=1
    fi
  done
  echo "$line  $verdict" | tee -a "$OUT/report.txt"
done
[ $have_mpi = 0 ] && echo "note: mpirun not found (scripts/install-test-deps.sh installs openmpi-bin); mpi3 not run" | tee -a "$OUT/report.txt"
for c in single $CONFIGS; do echo "total $c: ${total[$c]:-0}s" | tee -a "$OUT/report.txt"; done
echo "outputs in $OUT" >&2
exit $failed
