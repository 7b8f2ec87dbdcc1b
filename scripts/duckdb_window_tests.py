#!/usr/bin/env python3
"""Runs DuckDB's window sqllogictests (test/sql/window/*.test of a DuckDB
checkout, not kept in this repository) through a gq binary and counts the
query records whose rows match.

    scripts/duckdb_window_tests.py GQ_BINARY DIR_OF_TEST_FILES [-v]

Each query runs in a fresh gq process after the file's earlier
`statement ok` records (CREATE TABLE, INSERT, ...); DuckDB's SET and
PRAGMA statements are dropped. Translation to MySQL syntax is only this:
`::TYPE` casts of simple operands become CAST(... AS TYPE). Everything
else DuckDB-only (range(), VALUES in FROM, list functions, QUALIFY,
EXCLUDE, GROUPS, IGNORE NULLS, DuckDB's NULLS LAST default) stays as
written and counts as not passing. Comparison: cell by cell,
numbers within 1e-6 relative, `rowsort` sorted, NULL as NULL.
"""
import csv, io, math, re, subprocess, sys

def records(text):
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith('statement ok') or line.startswith('query'):
            head = line
            i += 1
            sql = []
            while i < len(lines) and lines[i].strip() != '' and lines[i].strip() != '----':
                sql.append(lines[i])
                i += 1
            exp = []
            if i < len(lines) and lines[i].strip() == '----':
                i += 1
                while i < len(lines) and lines[i].strip() != '':
                    exp.append(lines[i])
                    i += 1
            yield head, '\n'.join(sql), exp
        elif line.startswith('statement error') or line.startswith('require') or line.startswith('loop') or line.startswith('mode'):
            yield line, '', []
            i += 1
        else:
            i += 1

def translate(sql):
    sql = re.sub(r"(\b\w+\b|'[^']*'|\([^()]*\))::(\w+(\(\d+(,\s*\d+)?\))?)", r"CAST(\1 AS \2)", sql)
    return sql

def norm(v):
    return 'NULL' if v is None else v

def same(a, b):
    if a == b:
        return True
    try:
        fa, fb = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(fa) and math.isnan(fb):
        return True
    return abs(fa - fb) <= 1e-6 * max(1.0, abs(fa), abs(fb))

def main():
    gq, d = sys.argv[1], sys.argv[2]
    verbose = '-v' in sys.argv
    import glob, os
    total = passed = 0
    for f in sorted(glob.glob(os.path.join(d, '*.test'))):
        setup = []
        skip = False
        fp = ft = 0
        for head, sql, exp in records(open(f).read()):
            if head.startswith('require') or head.startswith('loop'):
                skip = skip or head.startswith('require')
                continue
            if head.startswith('statement ok'):
                if re.match(r'\s*(set|pragma)\b', sql, re.I):
                    continue
                setup.append(translate(sql).rstrip().rstrip(';') + ';')
                continue
            if not head.startswith('query'):
                continue
            total += 1
            ft += 1
            if skip:
                continue
            script = '\n'.join(setup + [translate(sql).rstrip().rstrip(';') + ';'])
            r = subprocess.run([gq, '--format', 'csv', '-f', '/dev/stdin'], input=script, capture_output=True, text=True, timeout=60)
            ok = False
            if r.returncode == 0:
                rows = list(csv.reader(io.StringIO(r.stdout)))[1:]
                got = [[c if c != '' else 'NULL' for c in row] for row in rows]
                want = [l.split('\t') for l in exp]
                ncol = len(head.split()[1]) if len(head.split()) > 1 else 1
                if want and len(want[0]) == 1 and ncol > 1:  # values one per line
                    flat = [l for l in exp]
                    want = [flat[k:k + ncol] for k in range(0, len(flat), ncol)]
                if 'rowsort' in head or 'valuesort' in head:
                    got.sort(); want.sort()
                ok = len(got) == len(want) and all(len(x) == len(y) and all(same(a, b) for a, b in zip(x, y)) for x, y in zip(got, want))
            if ok:
                passed += 1
                fp += 1
            elif verbose:
                print('FAIL', os.path.basename(f), sql.replace('\n', ' ')[:200], '|', (r.stderr.strip() or 'wrong rows')[:200])
        if verbose:
            print(f'{os.path.basename(f)}: {fp}/{ft}')
    print(f'{passed} of {total} queries pass')

main()
