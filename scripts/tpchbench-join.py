#!/usr/bin/env python3
"""tpchbench-join.py A.md B.md ...: one report from tpchbench reports of a
query each (scripts/gpu-cold.sh's big step runs one tpchbench per query so
that a device call can stop between queries).

The first report gives the text; each of its tables gets the query rows of
every report's table at the same place, sorted by query. The per-report
summary rows (bold: a total of one query, a largest of one) and its list
of slow queries are dropped, and
the main table's total row is made again from the query rows: the sums of
its two time columns and their ratio.
"""
import re
import sys


def tables(lines):
    """The [start, end) line ranges of the markdown tables in lines."""
    out, start = [], None
    for i, line in enumerate(lines + [""]):
        if line.startswith("|") and start is None:
            start = i
        elif not line.startswith("|") and start is not None:
            out.append((start, i))
            start = None
    return out


def main(paths):
    if not paths:
        sys.exit("usage: tpchbench-join.py REPORT.md ...")
    docs = [open(p).read().splitlines() for p in paths]
    first = docs[0]
    spans = tables(first)
    rows = [[] for _ in spans]
    for doc in docs:
        for k, (a, b) in enumerate(tables(doc)[: len(spans)]):
            rows[k] += [l for l in doc[a + 2 : b] if re.match(r"\| q\d\d ", l)]
    out, at = [], 0
    for k, (a, b) in enumerate(spans):
        out += first[at : a + 2]
        body = sorted(set(rows[k]))
        out += body
        if k == 0:
            cells = [l.split("|")[2:4] for l in body]
            try:
                gq = sum(float(c[0]) for c in cells if c[0].strip())
                duck = sum(float(c[1]) for c in cells if c[1].strip())
                out.append(f"| **total** | **{gq:.1f}** | **{duck:.1f}** | **{gq / duck:.2f}** |")
            except (ValueError, ZeroDivisionError):
                pass
        at = b
    out += first[at:]
    # The first report's list of slow queries is of its query alone.
    print("\n".join(l for l in out if not l.startswith("Queries more than")))


if __name__ == "__main__":
    main(sys.argv[1:])
