#!/usr/bin/env bash
# fetch-slt.sh [DIR]: fetches the sqllogictest files `make slt` runs (the
# set issue 30 names, benchmarks/slt.Files) from github.com/gregrahn/sqllogictest
# into DIR (default benchmarks/slt/corpus, git-ignored), keeping the
# repository's layout (DIR/test/...). They are about 40 MB, so they are
# fetched, not committed. SLT_GIT=/path/to/a/clone (bare or not) copies
# them from a local clone instead of the network; SLT_REF picks the commit
# (default master).
set -euo pipefail

dir=${1:-benchmarks/slt/corpus}
ref=${SLT_REF:-master}
base=https://raw.githubusercontent.com/gregrahn/sqllogictest/$ref

files=()
for i in 1 2 3 4 5; do files+=("test/select$i.test"); done
for d in aggregates expr groupby; do
	for i in 0 1 2 3 4; do files+=("test/random/$d/slt_good_$i.test"); done
done
for i in 0 1 2 3 4 5; do files+=("test/index/between/10/slt_good_$i.test"); done

failed=0
for f in "${files[@]}"; do
	out=$dir/$f
	if [ -s "$out" ]; then continue; fi
	mkdir -p "$(dirname "$out")"
	if [ -n "${SLT_GIT:-}" ]; then
		ok=0; git -C "$SLT_GIT" show "$ref:$f" >"$out.tmp" 2>/dev/null && ok=1
	else
		ok=0; curl -fsSL --retry 3 -o "$out.tmp" "$base/$f" && ok=1
	fi
	if [ $ok = 1 ] && [ -s "$out.tmp" ]; then
		mv "$out.tmp" "$out"
		echo "fetched $f"
	else
		rm -f "$out.tmp"
		echo "could not fetch $f" >&2
		failed=$((failed + 1))
	fi
done
echo "$dir: $((${#files[@]} - failed)) of ${#files[@]} files present"
# Files that could not be fetched are reported by `make slt` as absent;
# only a fetch that got nothing at all is a failure.
[ $failed -lt ${#files[@]} ]
