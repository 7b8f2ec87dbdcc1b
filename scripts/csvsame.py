#!/usr/bin/env python3
"""csvsame.py GOT WANT: exit 0 when two CSV query results hold the same rows.

For a GPU machine without tpchbench in the bundle (scripts/gpu-cold.sh's
quarter step): rows are compared as multisets (ties under ORDER BY may
come out in either order), numbers with a relative tolerance of 1e-9
(sums over chunks add in another order), everything else exactly.
"""
import csv
import math
import sys


def key(row):
    return [(0, float(f), "") if num(f) else (1, 0.0, f) for f in row]


def num(f):
    try:
        float(f)
        return True
    except ValueError:
        return False


def same(a, b):
    if num(a) and num(b):
        x, y = float(a), float(b)
        return x == y or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def main():
    if len(sys.argv) != 3:
        print("usage: csvsame.py GOT WANT", file=sys.stderr)
        return 2
    got, want = ([r for r in csv.reader(open(p, newline=""))] for p in sys.argv[1:])
    if not want:
        print("WANT is empty (a header is required)")
        return 1
    if not got or got[0] != want[0]:
        print(f"header differs: got {got[:1]}, want {want[:1]}")
        return 1
    g, w = sorted(got[1:], key=key), sorted(want[1:], key=key)
    if len(g) != len(w):
        print(f"got {len(g)} rows, want {len(w)}")
        return 1
    for i, (x, y) in enumerate(zip(g, w)):
        if len(x) != len(y) or not all(same(a, b) for a, b in zip(x, y)):
            print(f"row {i} (sorted) differs: got {x}, want {y}")
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
