#!/usr/bin/env bash
# Installs the system packages tests use: Open MPI's mpirun (openmpi-bin),
# UCX (libucx-dev, for the cgo `ucx` communicator), sqlite3 (CSV files
# exported by another tool, read by gq and DuckDB) and, where no node and
# npm are on PATH, Debian's nodejs and npm (flight's Node Flight SQL client
# test, which installs its own locked npm packages).
# Run by .ci/run on a clean machine; safe to run again. Without root or
# without apt-get it says so and exits 0: the tests that need these packages
# then skip with a printed reason.
set -u
want=(openmpi-bin libucx-dev sqlite3)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# A node from elsewhere (nodesource's package bundles npm) is used as it is.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  for p in nodejs npm; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "install-test-deps: no apt-get; not installing ${missing[*]} (tests needing them will skip)" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "install-test-deps: not root; not installing ${missing[*]} (tests needing them will skip)" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/install-test-deps.log 2>&1; then
  $sudo apt-get update -q >>/tmp/install-test-deps.log 2>&1
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/install-test-deps.log 2>&1 ||
    { echo "install-test-deps: apt-get install ${missing[*]} failed (see /tmp/install-test-deps.log); tests needing them will skip" >&2; exit 0; }
fi
echo "install-test-deps: installed ${missing[*]}" >&2
