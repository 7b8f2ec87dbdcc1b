# gpu-bundle.sh, sourced by test-gpu.sh and gpu-bench.sh: the binaries of
# `make gpu-bundle` on a machine without Go.

# unpack_bundle DIR: unpacks DIR's .xz files (build/gpux) with xz or else
# python3's lzma, unless already unpacked since, and makes them
# executable. (make gpu-bundle removes what an earlier bundle unpacked:
# the folder travels to the GPU machine, 64 MiB at most.)
unpack_bundle() {
	local z out
	for z in "$1"/*.xz; do
		[ -e "$z" ] || continue
		out=${z%.xz}
		[ "$out" -nt "$z" ] && continue
		if command -v xz >/dev/null; then
			xz -dkc "$z" >"$out"
		else
			python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.open(sys.argv[1]).read())' "$z" "$out"
		fi
		chmod +x "$out"
	done
}

# require_bundle WHO DIR FILE...: fails (exit 2) naming the first FILE
# missing from DIR.
require_bundle() {
	local who=$1 dir=$2 f
	shift 2
	for f in "$@"; do
		if [ ! -x "$dir/$f" ]; then
			echo "$who: $dir/$f missing: run make gpu-bundle on a machine with Go first" >&2
			exit 2
		fi
	done
}
