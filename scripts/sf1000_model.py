#!/usr/bin/env python3
"""Predict TPC-H times on one GPU at scale factors the device machine cannot hold.

The model scales what was measured at SF10 on the H100 machine. Its inputs,
each a file in benchmarks/results:

  --quarter   the `quarter` step's log(s): per query the device memory it
              needed unlimited, its time unlimited and at a quarter of that
              (EXPLAIN ANALYZE of a fresh process, load included);
  --hot       tpchbench's hot report on the same machine (gq's column);
  --cold      tpchbench's cold report (a fresh process per query);
  --colbytes  compressed Parquet bytes per column at SF10
              (DuckDB's parquet_metadata over the files, as CSV).

The rules, per query and scale S (times grow linearly with the rows):
  need(S)  = need(10) * S/10, the device memory the query would use;
  resident when need(S) fits the device table cache's budget (half the
           device), which is what keeps a table on the device between
           queries: hot(S) = hot(10) * S/10;
  streamed otherwise: every run reads, uploads and frees its chunks, so a
           hot run is a cold one. At memory ratio r = device/need(S) of 1
           or more the per-row cost is the unlimited run's; in [1/4, 1] it
           moves linearly to the quarter run's; below 1/4 it stays at the
           quarter's (an extrapolation, flagged);
  cold(S)  = fixed + max(compute, read): fixed is the per-process cost
           (device open and driver teardown), read is the query's Parquet
           bytes at S over the storage bandwidth once the data set no
           longer fits the host's page cache.
  What has to stay whole is flagged: an aggregation whose group table
  (most of q18's need) passes the device needs the grace aggregation.

It prints a markdown table; the SF100 column is the one a device run checks
(scripts/gpu-cold.sh, steps gen and quarter at SF100).

With --shuffle it prints a second table: SF1000 on --gpus GPUs (8 H100s),
each rank a GPU holding 1/gpus of the rows. Per query:
  compute  = the one-GPU rules above at scale 1000/gpus (each GPU's share:
             its regime, hot and cold times);
  shuffle  = the bytes the query's exchanges move, measured on the CPU
             engine at --shuffle-sf with --shuffle-ranks ranks (gq
             --shuffle-stats: shuffle-payload-send over all ranks), times
             1000/shuffle-sf; each GPU sends (gpus-1)/gpus of its 1/gpus
             share off its rank. gq's exchange runs on the host: a GPU
             operator's batches come down to host memory, through the
             shuffler, and up to the next GPU operator, so the rate is the
             slowest of the device-to-host copy, the shuffler and the link,
             and the host-to-device copy (the stages overlap; the slowest
             bounds them);
  time     = compute + shuffle (an exchange waits for its input's last
             batch before the next stage's result: no overlap assumed);
  the bottleneck, cold and hot, is the larger of the two, and within the
  shuffle its slowest stage. A last column gives the shuffle time a GPU-direct
  shuffle (device buffers over the link, as rapidsmpf's UCX path) would
  take over each link, for comparison.
"""

import argparse
import csv
import re
import sys
from pathlib import Path

TABLE_OF_PREFIX = {"l": "lineitem", "o": "orders", "c": "customer", "p": "part",
                   "ps": "partsupp", "s": "supplier", "n": "nation", "r": "region"}
GIB = 1 << 30


def parse_quarter(paths):
    """qNN -> (need bytes, unlimited s, quarter s or None); later files win."""
    out = {}
    pat = re.compile(r"^(q\d\d): need ([\d.]+) (GiB|MiB), limit \d+ B: ([\d.]+) s unlimited, ([\d.?]+) s at a quarter")
    for p in paths:
        for line in Path(p).read_text().splitlines():
            m = pat.match(line)
            if not m:
                continue
            need = float(m.group(2)) * (GIB if m.group(3) == "GiB" else 1 << 20)
            quarter = None if m.group(5) == "?" else float(m.group(5))
            if m.group(1) in out and quarter is None:
                continue
            out[m.group(1)] = (need, float(m.group(4)), quarter)
    return out


def parse_report(path, column):
    """qNN -> seconds from a tpchbench markdown report's named column."""
    out, header = {}, None
    for line in Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "query":
            header = cells
            continue
        if header and cells and re.fullmatch(r"q\d\d", cells[0]):
            out[cells[0]] = float(cells[header.index(column)]) / 1000
    return out


def query_bytes(qdir, colbytes):
    """qNN -> compressed Parquet bytes of the columns its text names, and
    the bytes of every column (the whole data set)."""
    size = {}
    with open(colbytes) as f:
        for row in csv.DictReader(f):
            size[row["col"]] = int(row["compressed"])
    out = {}
    for q in sorted(Path(qdir).glob("q*.sql")):
        cols = set(re.findall(r"\b(?:l|o|c|p|ps|s|n|r)_[a-z]+\b", q.read_text()))
        out[q.stem] = sum(size.get(c, 0) for c in cols)
    return out, sum(size.values())


def predict(scale, need10, unl10, q10, hot10, cold10, bytes10, dataset10, a):
    f = scale / 10
    need = need10 * f
    notes = []
    if need <= a.device * a.resident_share:
        hot = hot10 * f
        compute = (cold10 - a.fixed) * f
        regime = "resident"
    else:
        r = a.device / need
        if q10 is None:
            return None, None, "streamed", ["no quarter-memory figure"]
        per_unl, per_q = unl10 - a.fixed, q10 - a.fixed
        if r >= 0.25:
            w = max(0.0, (1 - r) / 0.75)
        else:
            w = 1.0
            notes.append(f"memory ratio {r:.3f} below the measured 1/4")
        compute = (per_unl + w * (per_q - per_unl)) * f
        hot = None
        regime = "streamed"
    data_set = dataset10 * f
    read = 0.0
    if data_set > a.page_cache:
        read = bytes10 * f / a.storage_bw
        if read > compute:
            notes.append("storage-bound")
    cold = a.fixed + max(compute, read)
    if hot is None:
        hot = cold
    return hot, cold, regime, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quarter", nargs="+", required=True)
    ap.add_argument("--hot", required=True)
    ap.add_argument("--cold", required=True)
    ap.add_argument("--colbytes", required=True)
    ap.add_argument("--queries", default="testdata/tpch/queries_alt")
    ap.add_argument("--device", type=float, default=80e9, help="device bytes (H100: 80 GB)")
    ap.add_argument("--resident-share", type=float, default=0.5, help="share of the device the table cache may keep")
    ap.add_argument("--page-cache", type=float, default=100 * GIB, help="host bytes the page cache can hold")
    ap.add_argument("--storage-bw", type=float, default=2e9, help="storage read bytes/s (not measured: an input)")
    ap.add_argument("--fixed", type=float, default=0.45, help="per-process seconds: device open and teardown")
    ap.add_argument("--group-table", default="q18", help="queries whose need is mostly an aggregation's group table")
    ap.add_argument("--shuffle", help="bytes each query's exchanges send (the cluster table; see the doc comment)")
    ap.add_argument("--shuffle-sf", type=float, default=1, help="the scale factor --shuffle was measured at")
    ap.add_argument("--gpus", type=int, default=8, help="GPUs (ranks) of the cluster table")
    ap.add_argument("--d2h", type=float, default=1.2e9, help="device-to-host bytes/s through gq's pinned staging (TestGPUThroughput on the H100)")
    ap.add_argument("--h2d", type=float, default=6.0e9, help="host-to-device bytes/s through gq's pinned staging (TestGPUThroughput on the H100)")
    ap.add_argument("--shuffle-rate", type=float, default=3.1e9, help="gq's shuffler, bytes/s per rank (BenchmarkShuffleUCX)")
    ap.add_argument("--links", default="NVLink 4:380e9,InfiniBand NDR:50e9", help="name:bytes/s per GPU per direction, ...")
    a = ap.parse_args()

    quarter = parse_quarter(a.quarter)
    hot = parse_report(a.hot, "gq ms")
    cold = parse_report(a.cold, "gq ms")
    qbytes, dataset10 = query_bytes(a.queries, a.colbytes)
    grace = set(a.group_table.split(","))

    print("| query | need SF10 GiB | Parquet SF10 MiB | SF10 hot s | SF10 cold s | SF100 regime | SF100 hot s | SF100 cold s | SF1000 regime | SF1000 cold s | flags |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---|---:|---|")
    tot = {"h100": 0.0, "c100": 0.0, "c1000": 0.0}
    for q in sorted(quarter):
        if q not in hot or q not in cold:
            continue
        need10, unl10, q10 = quarter[q]
        args = (need10, unl10, q10, hot[q], cold[q], qbytes.get(q, 0), dataset10, a)
        h100, c100, reg100, n100 = predict(100, *args)
        _, c1000, reg1000, n1000 = predict(1000, *args)
        flags = sorted(set(n100 + n1000))
        for s in (100, 1000):
            if q in grace and need10 * s / 10 > a.device:
                flags.append(f"group table passes the device at SF{s}: needs the grace aggregation")
        cell = lambda v: "?" if v is None else f"{v:.2f}"
        print(f"| {q} | {need10 / GIB:.1f} | {qbytes.get(q, 0) / 2**20:.0f} | {hot[q]:.3f} | {cold[q]:.2f} | {reg100} | {cell(h100)} | {cell(c100)} | {reg1000} | {cell(c1000)} | {'; '.join(flags)} |")
        for k, v in (("h100", h100), ("c100", c100), ("c1000", c1000)):
            tot[k] += v or 0
    print(f"| **total** | | | | | | {tot['h100']:.1f} | {tot['c100']:.1f} | | {tot['c1000']:.1f} | |")
    if a.shuffle:
        cluster_table(a, quarter, hot, cold, qbytes, dataset10)


def parse_shuffle(path):
    """qNN -> bytes the query's exchanges sent (gq --shuffle-stats summed
    over ranks, lines "qNN sent B bytes ..."); a later line of a query
    wins, so a file may hold other measurements before the input."""
    out = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"^(q\d\d) sent (\d+) bytes", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def parse_links(spec):
    """"name:bytes/s,..." -> [(name, rate)]."""
    out = []
    for part in spec.split(","):
        name, rate = part.rsplit(":", 1)
        out.append((name.strip(), float(rate)))
    return out


def cluster_table(a, quarter, hot, cold, qbytes, dataset10):
    """The second table: SF1000 on a.gpus GPUs (see the doc comment)."""
    shuffled = parse_shuffle(a.shuffle)
    links = parse_links(a.links)
    per_gpu = 1000 / a.gpus
    stages = [("device-to-host copy", a.d2h), ("gq's shuffler", a.shuffle_rate), ("host-to-device copy", a.h2d)]
    link_names = " / ".join(n for n, _ in links)
    print()
    print(f"| query | regime per GPU (SF{per_gpu:g} each) | compute hot s | compute cold s | shuffled GB (all GPUs) | shuffle s | predicted hot s | predicted cold s | bottleneck | GPU-direct shuffle s over {link_names} |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---:|")
    tot = [0.0, 0.0]
    for q in sorted(quarter):
        if q not in hot or q not in cold or q not in shuffled:
            continue
        need10, unl10, q10 = quarter[q]
        h, c, reg, notes = predict(per_gpu, need10, unl10, q10, hot[q], cold[q], qbytes.get(q, 0), dataset10, a)
        if h is None:
            continue
        total = shuffled[q] * 1000 / a.shuffle_sf
        off = total / a.gpus * (a.gpus - 1) / a.gpus  # what one GPU sends off its rank
        # gq's path over the slowest link: the host copies and the shuffler
        # bound it long before NVLink or InfiniBand would.
        slowest_link = min(links, key=lambda x: x[1])
        name, rate = min(stages + [slowest_link], key=lambda x: x[1])
        t_sh = off / rate
        hot_t, cold_t = h + t_sh, c + t_sh
        shuffle = f"shuffle ({name}, {rate / 1e9:g} GB/s)"
        work = "load and kernels" + (" (streamed: every run loads)" if reg == "streamed" else "")
        neck = f"cold: {shuffle if t_sh > c else work}; hot: {shuffle if t_sh > h else ('kernels' if reg == 'resident' else work)}"
        if notes:
            neck += "; " + "; ".join(notes)
        direct = " / ".join(f"{off / r:.2f}" for _, r in links)
        print(f"| {q} | {reg} | {h:.2f} | {c:.2f} | {total / 1e9:.1f} | {t_sh:.2f} | {hot_t:.2f} | {cold_t:.2f} | {neck} | {direct} |")
        tot[0] += hot_t
        tot[1] += cold_t
    print(f"| **total** | | | | | | {tot[0]:.1f} | {tot[1]:.1f} | | |")


if __name__ == "__main__":
    sys.exit(main())
