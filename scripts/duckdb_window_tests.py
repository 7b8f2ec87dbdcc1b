#!/usr/bin/env python3
"""Runs DuckDB's window sqllogictests (test/sql/window/*.test of a DuckDB
checkout, not kept in this repository) through a gq binary, counts the query
records whose rows match and sorts every failure into a cause.

    scripts/duckdb_window_tests.py GQ_BINARY DIR_OF_TEST_FILES [-v] [-j N]

With a DuckDB mirror at hand:
    mkdir -p /tmp/win && for f in $(git --git-dir=DUCKDB.git ls-tree -r \\
        --name-only HEAD test/sql/window | grep '\\.test$'); do
        git --git-dir=DUCKDB.git show HEAD:$f > /tmp/win/$(basename $f); done

Each query runs in a fresh gq process after the file's earlier `statement
ok` records that change the database (CREATE, INSERT, UPDATE, DELETE,
DROP, ALTER); DuckDB's SET and PRAGMA statements and `statement ok`
SELECTs are left out. `foreach` and `loop` blocks are expanded; a query
record passes when every expansion passes (a loop whose variable the body
does not use repeats one query, and runs once). The denominator is query
records, as DuckDB's file lists them.

Translation from DuckDB's dialect to MySQL's, where the two differ in
syntax or defaults (everything else is left as written; a DuckDB-only
construct gq lacks counts as not passing, under its cause):
  - `x::TYPE` casts of simple operands become CAST(x AS TYPE);
  - `a // b` (DuckDB's integer division) becomes `a DIV b`;
  - `a / 3.0`: DuckDB divides by a DECIMAL literal in DOUBLE, MySQL
    keeps a DECIMAL of scale s+4 (other digits), so the literal becomes
    CAST(3.0 AS DOUBLE);
  - "name" (a DuckDB identifier) becomes `name` (in MySQL "..." is a string);
  - a bare `range` column (the column DuckDB's range() names) becomes
    `range` in backticks, RANGE being reserved in MySQL;
  - `count()` becomes count(*); digit separators `5_000` become 5000;
    `==` becomes `=`; a trailing comma before `)` or FROM goes; a query
    starting with FROM (or following a WITH clause) gets SELECT *;
    ORDER BY ALL becomes ORDER BY 1, …, n
    (n the record's column count); GROUP BY ALL becomes GROUP BY the
    ordinals of the select items that call no aggregate;
  - cast targets MySQL spells otherwise: VARCHAR/TEXT/STRING become CHAR,
    the integer types SIGNED, a bare NUMERIC/DECIMAL DuckDB's DECIMAL(18,3);
    in CREATE TABLE, int4/int2 become INT, int8 BIGINT, hugeint
    DECIMAL(38,0), string VARCHAR and a bare NUMERIC/DECIMAL DECIMAL(18,3);
  - words MySQL 8 reserves (window function names, `index`) and NEXT
    (which the grammar takes as a keyword) used as names
    are quoted in backticks;
  - DuckDB's one-argument log(x) is log10(x) (MySQL's is the natural log);
  - `f(x IGNORE NULLS)` becomes `f(x) IGNORE NULLS` (RESPECT too), and
    DuckDB's first()/last() over a window first_value()/last_value()
    (as plain aggregates they stay first()/last(), which MySQL lacks);
  - DuckDB sorts NULLs last in both directions, MySQL first when
    ascending: every ORDER BY item (queries, windows, aggregates) without
    NULLS FIRST/LAST gets NULLS LAST written out.
  - DuckDB names the columns of VALUES col0, col1, …, MySQL column_0,
    column_1, …: in a statement with VALUES, colN becomes column_N;
  - a derived table without an alias (DuckDB allows it, MySQL requires
    one) gets one; `FROM t SELECT x` (DuckDB's FROM-first form with a
    select list) becomes SELECT x FROM t, and `EXPLAIN FROM t` EXPLAIN
    SELECT * FROM t.
A query whose frame ends before it starts by kind (1 FOLLOWING AND
CURRENT ROW) expects an error: DuckDB 1.5.6 rejects such frames (later
DuckDB test files expect rows).
EXPLAIN records: DuckDB's compare a regular expression with its plan
text (`physical_plan <REGEX>:…` or `<!REGEX>:…`, which must not match).
  - Those about STREAMING_WINDOW test DuckDB's choice between its two
    window operators (a streaming one for frames that end at the current
    row without ORDER BY, and the blocking WINDOW); gq has one window
    operator, so they are counted as not applicable, apart from the
    passes, and the summary gives the figure with and without them.
  - The others are matched against gq's plan written as DuckDB's text
    would state it: one line per operator, gq's Window as WINDOW
    followed by the window functions it computes (DuckDB prints those in
    its WINDOW operator; projections print column references, so
    expressions above the window do not count as computations). Names
    DuckDB prints by a select alias are written as gq prints the
    expression (EXPLAIN_NAMES, per file).
Comparison: cell by cell, numbers within 1e-6 relative, `rowsort` sorted,
NULL as NULL, true/false as 1/0; "N values hashing to H" as DuckDB's
runner computes it (md5 of the values, each followed by a newline).
"""
import concurrent.futures, csv, glob, hashlib, io, math, os, re, subprocess, sys

# ---------------------------------------------------------------- parsing

def records(text):
    """Yields (kind, head, sql, expected, line, loopvars, loopkey) per
    record; loopvars is a list of {name: value} substitutions (one per
    expansion), loopkey the enclosing loops (their lines)."""
    lines = text.split('\n')
    i = 0
    loops = []  # stack of (name, [values])
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if line.startswith('foreach '):
            parts = line.split()
            values = []
            for v in parts[2:]:
                values.extend(TYPE_GROUPS.get(v, [v]))
            loops.append((parts[1], values, i))
            i += 1
            continue
        if line.startswith('loop ') or line.startswith('concurrentloop '):
            parts = line.split()
            loops.append((parts[1], [str(k) for k in range(int(parts[2]), int(parts[3]))], i))
            i += 1
            continue
        if line == 'endloop':
            if loops:
                loops.pop()
            i += 1
            continue
        if line.startswith('statement ') or line.startswith('query'):
            head = line
            start = i + 1
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
            kind = 'query' if head.startswith('query') else head.split()[1]
            yield kind, head, '\n'.join(sql), exp, start, expand(loops), tuple(l[2] for l in loops)
            continue
        if line.startswith('require'):
            yield 'require', line, '', [], i + 1, [{}], ()
        i += 1

# DuckDB's sqllogictest type groups.
TYPE_GROUPS = {
    '<integral>': ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint', 'utinyint', 'usmallint', 'uinteger', 'ubigint', 'uhugeint'],
    '<signed>': ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint'],
    '<unsigned>': ['utinyint', 'usmallint', 'uinteger', 'ubigint', 'uhugeint'],
}
TYPE_GROUPS['<numeric>'] = TYPE_GROUPS['<integral>'] + ['float', 'double']

def expand(loops):
    subs = [{}]
    for name, values, _ in loops:
        subs = [dict(s, **{name: v}) for s in subs for v in values]
    return subs

def substitute(text, sub):
    for k, v in sub.items():
        text = text.replace('{' + k + '}', v).replace('${' + k + '}', v)
    return text

# ---------------------------------------------------------------- translation

FRAME_WORDS = r'(between|unbounded|current|interval|\d|-|\+|\()'

RESERVED = r'(ntile|rank|dense_rank|row_number|lag|lead|first_value|last_value|nth_value|cume_dist|percent_rank|groups|window|over|rows|of|lateral|recursive|next)'
INT_TYPES = r'(integer|int|bigint|smallint|tinyint|int4|int8|int2|hugeint|uhugeint|ubigint|uinteger|usmallint|utinyint)'

def translate(sql, nulls='LAST', ncol=0):
    sql = re.sub(r'(?<=\d)_(?=\d)', '', sql)
    sql = re.sub(r',(\s*)(\)|;|$)', r'\1\2', sql)
    sql = sql.replace('==', '=')
    sql = re.sub(r'(?<![`\w])index(?![`\w])', '`index`', sql, flags=re.I)
    if ncol:
        sql = re.sub(r'\border\s+by\s+all\b', 'ORDER BY ' + ', '.join(str(k + 1) for k in range(ncol)), sql, flags=re.I)
    sql = re.sub(r'"([A-Za-z_][A-Za-z_0-9 ]*)"', r'`\1`', sql)
    sql = re.sub(r"(\b\w+\b|'[^']*'|`[^`]*`|\([^()]*\))::(\w+(\(\d+(,\s*\d+)?\))?(\[\])?)", r"CAST(\1 AS \2)", sql)
    # DuckDB divides by a DECIMAL literal in DOUBLE; MySQL keeps a
    # DECIMAL of scale s+4, which prints other digits.
    sql = re.sub(r'/\s*(\d+\.\d+)(?![\d.])', r'/ CAST(\1 AS DOUBLE)', sql)
    sql = re.sub(r'\s//\s', ' DIV ', sql)
    sql = re.sub(r'(?<=\w)//(?=\w)', ' DIV ', sql)
    sql = re.sub(r'\bcount\(\s*\)', 'count(*)', sql, flags=re.I)
    sql = log10_calls(sql)
    # IGNORE/RESPECT NULLS inside the call's parentheses (DuckDB) goes after
    # them (the standard's and MySQL's place); first/last are first_value
    # and last_value.
    sql = re.sub(r'\s+(ignore|respect)\s+nulls\s*\)', r') \1 NULLS', sql, flags=re.I)
    sql = first_last_calls(sql)
    # range, the column, not range(...) the function nor a RANGE frame.
    sql = re.sub(r'(?<![`.\w])range\b(?!\s*\()(?!\s+' + FRAME_WORDS + ')', '`range`', sql, flags=re.I)
    # Cast targets MySQL spells otherwise.
    sql = re.sub(r'\bAS\s+(varchar|text|string)(\s*\(\s*\d+\s*\))?(?=\s*\))', 'AS CHAR', sql, flags=re.I)
    sql = re.sub(r'\bAS\s+' + INT_TYPES + r'(?=\s*\))', 'AS SIGNED', sql, flags=re.I)
    sql = re.sub(r'\bAS\s+(numeric|decimal)(?=\s*\))', 'AS DECIMAL(18,3)', sql, flags=re.I)
    # Column types MySQL lacks, in CREATE TABLE; a bare DECIMAL is
    # DuckDB's DECIMAL(18,3) (MySQL's would be DECIMAL(10,0)).
    if re.match(r'\s*create\s+table', sql, re.I):
        sql = re.sub(r'\b(int4|int2)\b', 'INT', sql, flags=re.I)
        sql = re.sub(r'\bint8\b', 'BIGINT', sql, flags=re.I)
        sql = re.sub(r'\bhugeint\b', 'DECIMAL(38,0)', sql, flags=re.I)
        sql = re.sub(r'\bstring\b', 'VARCHAR', sql, flags=re.I)
        sql = re.sub(r'\b(numeric|decimal)\b(?!\s*\()', 'DECIMAL(18,3)', sql, flags=re.I)
    # Words MySQL 8 reserves, used as aliases.
    sql = re.sub(r'\b(AS\s+)' + RESERVED + r'\b(?!\s*\()', r'\1`\2`', sql, flags=re.I)
    # DuckDB names VALUES' columns col0, col1, …; MySQL column_0, ….
    if re.search(r'\bvalues\b', sql, re.I):
        sql = re.sub(r'(?<![`.\w])col(\d+)\b', r'column_\1', sql)
    sql = derived_aliases(sql)
    # DuckDB's trailing comma before FROM, and its FROM-first queries.
    sql = re.sub(r',(\s*)\bfrom\b', r'\1from', sql, flags=re.I)
    sql = from_select(sql)
    sql = with_from(sql)
    sql = re.sub(r'(^|\()(\s*)from\b', r'\1\2select * from', sql, flags=re.I)
    sql = re.sub(r'^(\s*explain\s+)from\b', r'\1select * from', sql, flags=re.I)
    sql = group_by_all(sql)
    sql = nulls_order(sql, nulls)
    return sql

def first_last_calls(sql):
    """DuckDB's first(x)/last(x) over a window (OVER, or IGNORE/RESPECT
    NULLS before it) become first_value(x)/last_value(x), MySQL's window
    functions; as plain aggregates, which MySQL lacks, they stay DuckDB's
    first()/last() (gq has them)."""
    out, i = [], 0
    for m in re.finditer(r'(?<![\w.`])(first|last)\s*\(', sql, flags=re.I):
        depth, j = 1, m.end()
        while j < len(sql) and depth:
            c = sql[j]
            if c == "'":
                j = sql.find("'", j + 1)
                if j < 0:
                    return sql
            elif c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
            j += 1
        if re.match(r'\s*((ignore|respect)\s+nulls\s+)?over\b', sql[j:], re.I):
            out.append(sql[i:m.start()] + m.group(1) + '_value(')
            i = m.end()
    out.append(sql[i:])
    return ''.join(out)

def log10_calls(sql):
    """DuckDB's one-argument log(x) is the base-10 logarithm, MySQL's the
    natural one: log(x) becomes log10(x); log(b, x) means the same in both."""
    out, i = [], 0
    for m in re.finditer(r'(?<![\w.`])log\s*\(', sql, flags=re.I):
        depth, j, comma = 1, m.end(), False
        while j < len(sql) and depth:
            c = sql[j]
            if c == "'":
                j = sql.find("'", j + 1)
                if j < 0:
                    return sql
            elif c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
            elif c == ',' and depth == 1:
                comma = True
            j += 1
        if not comma:
            out.append(sql[i:m.start()] + 'log10(')
            i = m.end()
    out.append(sql[i:])
    return ''.join(out)

# Words that may follow a derived table's closing parenthesis where it has
# no alias.
AFTER_TABLE = {'where', 'group', 'order', 'limit', 'qualify', 'window', 'having', 'join',
               'cross', 'inner', 'left', 'right', 'full', 'natural', 'union', 'except',
               'intersect', 'select', 'on', 'using', ')', ',', ';'}

def derived_aliases(sql):
    """Gives each derived table in FROM or JOIN that has no alias one
    (DuckDB allows none; MySQL requires one)."""
    toks = list(tokens(sql))
    inserts = []
    for k in range(len(toks) - 2):
        if toks[k].group().lower() not in ('from', 'join') or toks[k + 1].group() != '(':
            continue
        if toks[k + 2].group().lower() not in ('select', 'values', 'with', 'from', '('):
            continue
        depth, j = 0, k + 1
        while j < len(toks):
            if toks[j].group() == '(':
                depth += 1
            elif toks[j].group() == ')':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= len(toks):
            continue
        nxt = toks[j + 1].group().lower() if j + 1 < len(toks) else None
        if nxt is None or nxt in AFTER_TABLE:
            inserts.append(toks[j].end())
    for n, off in enumerate(sorted(inserts, reverse=True)):
        sql = sql[:off] + f' AS unnamed_subquery{n}' + sql[off:]
    return sql

def from_select(sql):
    """DuckDB's `FROM t SELECT x` as SELECT x FROM t (a statement that
    starts with FROM and has a SELECT at its top level)."""
    toks = list(tokens(sql))
    if not toks or toks[0].group().lower() != 'from':
        return sql
    depth = 0
    for t in toks[1:]:
        g = t.group().lower()
        if g == '(':
            depth += 1
        elif g == ')':
            depth -= 1
        elif g == 'select' and depth == 0:
            return sql[t.start():].rstrip().rstrip(';') + ' ' + sql[toks[0].start():t.start()].rstrip()
    return sql

def with_from(sql):
    """DuckDB's FROM-first query after a WITH clause (`WITH t AS (…) FROM t
    WHERE …`) gets SELECT *: a FROM at the top level right after a CTE's
    closing parenthesis."""
    toks = list(tokens(sql))
    if not toks or toks[0].group().lower() != 'with':
        return sql
    depth = 0
    for k, t in enumerate(toks):
        g = t.group().lower()
        if g == '(':
            depth += 1
        elif g == ')':
            depth -= 1
            if depth == 0 and k + 1 < len(toks) and toks[k + 1].group().lower() == 'from':
                off = toks[k + 1].start()
                return sql[:off] + 'SELECT * ' + sql[off:]
        elif depth == 0 and g == 'select':
            return sql
    return sql

ORDER_END = {'limit', 'offset', 'rows', 'range', 'groups', 'union', 'except', 'intersect',
             'window', 'qualify', 'fetch', 'having', 'from', 'where', 'group'}

def tokens(sql):
    return re.finditer(r"'(?:[^']|'')*'|`[^`]*`|\w+|\S", sql)

AGGS = {'count', 'sum', 'min', 'max', 'avg', 'any_value', 'string_agg', 'list', 'first', 'last', 'median', 'mode'}

def group_by_all(sql):
    """DuckDB's GROUP BY ALL groups by every select item that calls no
    aggregate: written out as their ordinals."""
    while True:
        toks = list(tokens(sql))
        k = next((i for i in range(len(toks) - 2) if toks[i].group().lower() == 'group'
                  and toks[i + 1].group().lower() == 'by' and toks[i + 2].group().lower() == 'all'), None)
        if k is None:
            return sql
        depth, j = 0, k - 1
        while j >= 0:
            t = toks[j].group().lower()
            if t == ')':
                depth += 1
            elif t == '(':
                depth -= 1
            elif t == 'select' and depth == 0:
                break
            j -= 1
        items, cur, depth = [], [], 0
        for t in toks[j + 1:k]:
            g = t.group().lower()
            if g == '(':
                depth += 1
            elif g == ')':
                depth -= 1
            if depth == 0 and g == 'from':
                break
            if depth == 0 and g == ',':
                items.append(cur)
                cur = []
                continue
            cur.append(g)
        items.append(cur)
        ords = [str(n + 1) for n, it in enumerate(items)
                if not any(a in AGGS and b == '(' for a, b in zip(it, it[1:]))]
        sql = sql[:toks[k + 2].start()] + ', '.join(ords or ['NULL']) + sql[toks[k + 2].end():]

def nulls_order(sql, nulls):
    """Writes NULLS LAST (or FIRST, DuckDB's default_null_order) after each
    ORDER BY item that does not say."""
    toks = list(tokens(sql))
    inserts = []  # offsets where ' NULLS LAST' goes
    k = 0
    while k < len(toks):
        if toks[k].group().lower() == 'order' and k + 1 < len(toks) and toks[k + 1].group().lower() == 'by':
            k += 2
            depth = 0
            item_has_nulls = False
            last_end = None
            while k < len(toks):
                t = toks[k].group()
                tl = t.lower()
                if t == '(':
                    depth += 1
                elif t == ')':
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and (t == ';' or tl in ORDER_END):
                    break
                elif depth == 0 and t == ',':
                    if not item_has_nulls and last_end is not None:
                        inserts.append(last_end)
                    item_has_nulls = False
                    last_end = None
                    k += 1
                    continue
                if depth == 0 and tl == 'nulls':
                    item_has_nulls = True
                last_end = toks[k].end()
                k += 1
            if not item_has_nulls and last_end is not None:
                inserts.append(last_end)
            continue
        k += 1
    for off in sorted(inserts, reverse=True):
        sql = sql[:off] + ' NULLS ' + nulls + sql[off:]
    return sql

SETUP = re.compile(r'\s*(create|insert|update|delete|drop|alter)\b', re.I)

# ---------------------------------------------------------------- causes

CAUSES = [
    (r"syntax error near 'range'", 'range() table function'),
    (r'generate_series', 'generate_series() table function'),
    (r"near 'EXCLUDE'", 'EXCLUDE frames'),
    (r"near 'IGNORE'|near 'RESPECT'|IGNORE NULLS", 'IGNORE/RESPECT NULLS'),
    (r"near 'GROUPS'|GROUPS frame", 'GROUPS frames'),
    (r"near 'QUALIFY'", 'QUALIFY'),
    (r"near 'MACRO'", 'CREATE MACRO'),
    (r"near 'TRANSACTION'", 'transactions'),
    (r"near 'VALUES'|near 'values'", 'VALUES in FROM'),
    (r"near '\{'", 'struct/list literal'),
    (r"function (\w+) is not supported as a window function", 'window function {}'),
    (r"function (\w+) is not supported|unknown function (\w+)|function (\w+) does not exist", 'function {}'),
    (r"collate", 'COLLATE'),
    (r"DISTINCT.*over|over.*DISTINCT|near 'DISTINCT'", 'DISTINCT in a window aggregate'),
    (r"ORDER BY .*aggregate|near 'ORDER'", 'ORDER BY inside an aggregate / ORDER BY position'),
    (r'keys, indexes and constraints', 'constraints in CREATE TABLE'),
    (r"syntax error near ('[^']*')", 'syntax error near {}'),
    (r'syntax error', 'syntax error (other)'),
]

def cause_of(err, in_setup):
    msg = err.strip().split('\n')[0]
    for pat, name in CAUSES:
        m = re.search(pat, msg, re.I)
        if m:
            if '{}' in name:
                name = name.format(next(g for g in m.groups() if g))
            break
    else:
        name = re.sub(r'^Error: \w+( error)? at line \d+, column \d+: ', '', msg)
        name = re.sub(r'^Error: ', '', name)
        name = re.sub(r'\d+', 'N', name)[:80]
    return ('setup: ' if in_setup else '') + name

# ---------------------------------------------------------------- comparison

def same(a, b):
    if a == b or a.lower() == b.lower() in ('true', 'false'):
        return True
    for x, y in ((a, b), (b, a)):
        if (x, y.lower()) in (('1', 'true'), ('0', 'false')):
            return True
    try:
        fa, fb = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(fa) and math.isnan(fb):
        return True
    return abs(fa - fb) <= 1e-6 * max(1.0, abs(fa), abs(fb))

def ncol(head):
    return len(head.split()[1]) if len(head.split()) > 1 else 1

def matches(head, got, exp):
    want = [l.split('\t') for l in exp]
    ncol = len(head.split()[1]) if len(head.split()) > 1 else 1
    sort = len(head.split()) > 2 and head.split()[2] in ('rowsort', 'valuesort')
    m = re.match(r'(\d+) values hashing to ([0-9a-f]+)', exp[0].strip()) if len(exp) == 1 else None
    if m:
        rows = sorted(got) if sort else got
        vals = [v for r in rows for v in r]
        h = hashlib.md5(''.join(v + '\n' for v in vals).encode()).hexdigest()
        return len(vals) == int(m.group(1)) and h == m.group(2)
    if want and len(want[0]) == 1 and ncol > 1:  # values one per line
        flat = list(exp)
        want = [flat[k:k + ncol] for k in range(0, len(flat), ncol)]
    if sort:
        got, want = sorted(got), sorted(want)
    return len(got) == len(want) and all(len(x) == len(y) and all(same(a.strip(), b.strip()) for a, b in zip(x, y)) for x, y in zip(got, want))

# ---------------------------------------------------------------- running

# Frames that end before they start by kind (1 FOLLOWING AND CURRENT ROW,
# 1 FOLLOWING AND 1 PRECEDING, CURRENT ROW AND 1 PRECEDING): DuckDB 1.5.6,
# the release gq is compared with, rejects them ("frame starting from
# following row cannot have preceding rows"), as the SQL standard and
# gq do; later DuckDB test files expect empty frames instead. Such a
# record passes when gq rejects the frame.
REVERSED_FRAME = re.compile(
    r'\bbetween\s+(\d+\s+following\s+and\s+(current\s+row|\d+\s+preceding)'
    r'|current\s+row\s+and\s+\d+\s+preceding)\b', re.I)

# EXPLAIN records: DuckDB's plan regular expressions.
PLAN_REGEX = re.compile(r'physical_plan\t<(!?)REGEX>:(.*)$')
NOT_APPLICABLE = 'not applicable: '
STREAMING = NOT_APPLICABLE + "DuckDB's STREAMING_WINDOW operator choice (gq has one window operator)"

# Names DuckDB's plan prints by a select alias, as gq prints the expression:
# file -> [(DuckDB's name in the pattern, gq's, both regular expressions)].
EXPLAIN_NAMES = {
    # cnt_trace is the view's alias of sum(cnt) (a grouped aggregate).
    'test_window_cse.test': [(r'cnt_trace', r'sum\(cnt\)')],
}

def plan_regex(exp):
    """(negated, pattern) of an EXPLAIN record's expected plan, or None."""
    if len(exp) != 1:
        return None
    m = PLAN_REGEX.match(exp[0])
    return (m.group(1) == '!', m.group(2)) if m else None

def duckdb_plan_text(plan):
    """gq's EXPLAIN text as DuckDB's states it: one line per operator,
    the Window operator as WINDOW with the window functions it computes."""
    out = []
    for line in plan.split('\n'):
        body = re.sub(r'^[\s│├└─]*', '', line)
        m = re.match(r'(\w+)(.*)$', body)
        if not m:
            continue
        if m.group(1) == 'Window':
            f = re.search(r'funcs=\[(.*)\]\s*$', m.group(2))
            out.append('WINDOW ' + (f.group(1) if f else ''))
        else:
            out.append(m.group(1))
    return '\n'.join(out)

def plan_matches(rid, rows, negated, pattern):
    plan = duckdb_plan_text('\n'.join(c for r in rows for c in r))
    for duck, ours in EXPLAIN_NAMES.get(rid.split(':')[0], []):
        pattern = pattern.replace(duck, ours)
    found = re.fullmatch(pattern, plan, re.S) is not None
    return found != negated

def run_one(gq, setup, sql, head, exp, rid=''):
    """Returns None when the rows match, else the failure's cause."""
    pr = plan_regex(exp) if re.match(r'\s*explain\b', sql, re.I) else None
    if pr and 'STREAMING_WINDOW' in pr[1]:
        return STREAMING
    script_lines = []
    for s in setup:
        script_lines.append(s)
    nsetup = sum(s.count('\n') + 1 for s in script_lines)
    script = '\n'.join(script_lines + [sql])
    try:
        r = subprocess.run([gq, '--threads', '1', '--format', 'csv', '-f', '/dev/stdin'], input=script,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 'timeout (120 s)'
    if REVERSED_FRAME.search(sql):
        if r.returncode != 0 and 'window frame that starts at' in r.stderr:
            return None
        return 'reversed frame (DuckDB 1.5.6 rejects it) not rejected: ' + (r.stderr.strip().split('\n')[0][:80] or 'rows')
    if r.returncode != 0:
        m = re.search(r'at line (\d+)', r.stderr)
        in_setup = bool(m) and int(m.group(1)) <= nsetup
        if 'panic' in r.stderr or 'goroutine' in r.stderr:
            return 'PANIC ' + r.stderr.strip().split('\n')[0][:100]
        return cause_of(r.stderr, in_setup)
    rows = list(csv.reader(io.StringIO(r.stdout)))[1:]
    # A one-column row holding NULL is an empty line, which csv reads as [].
    got = [[c if c != '' else 'NULL' for c in row] or ['NULL'] for row in rows]
    if pr:
        if plan_matches(rid, rows, *pr):
            return None
        return "EXPLAIN: gq's plan " + ('matches' if pr[0] else 'does not match') + ' ' + pr[1]
    if matches(head, got, exp):
        return None
    if re.match(r'\s*explain\b', sql, re.I):
        return "EXPLAIN (DuckDB's plan text)"
    if len(exp) == 1 and 'values hashing to' in exp[0]:
        return "hash of DuckDB's text differs (compare with DuckDB by hand)"
    return 'wrong rows'

def file_jobs(path):
    """The queries of one file: (record_id, head, setup statements, sql,
    expected, skip reason). A set-up statement inside a loop runs, for a
    query in the same iteration, with that iteration's values; once its
    loop has ended, once per iteration in order."""
    jobs = []
    setup = []  # (sql, null order, loop key, substitutions)
    skip = None
    nulls = 'LAST'
    begin = 0

    def setup_for(key, sub):
        out = []
        for sql, nl, k, subs in setup:
            if k == key[:len(k)]:
                todo = [sub]
            else:
                todo = subs
            for sb in todo:
                out.append(translate(substitute(sql, sb), nl).rstrip().rstrip(';') + ';')
        return out

    for kind, head, sql, exp, line, subs, key in records(open(path).read()):
        if kind == 'require':
            skip = skip or head
            continue
        if kind == 'ok':
            m = re.match(r"\s*(set|pragma)\s+default_null_order\s*=\s*'([^']*)'", sql, re.I)
            if m:
                nulls = 'FIRST' if 'first' in m.group(2).lower().split('_on_')[0].replace(' ', '_') else 'LAST'
                continue
            # No transactions in gq: ROLLBACK forgets the set-up statements
            # made since BEGIN, which is what undoing them leaves.
            if re.match(r'\s*begin(\s+transaction)?\s*;?\s*$', sql, re.I):
                begin = len(setup)
                continue
            if re.match(r'\s*rollback\s*;?\s*$', sql, re.I):
                del setup[begin:]
                continue
            if SETUP.match(sql):
                setup.append((sql, nulls, key, subs))
            continue
        if kind != 'query':
            continue
        rid = f'{os.path.basename(path)}:{line}'
        if skip:
            jobs.append((rid, head, None, sql, exp, skip))
            continue
        texts = [sql + '\n'.join(exp)] + [st for st, _, k, _ in setup if k and k == key[:len(k)]]
        varies = any('{' + v + '}' in t for v in subs[0] for t in texts)
        for sub in (subs if varies else subs[:1]):
            q = translate(substitute(sql, sub), nulls, ncol(head)).rstrip().rstrip(';') + ';'
            jobs.append((rid, head, setup_for(key, sub), q, [substitute(e, sub) for e in exp], None))
    return jobs

def main():
    args = [a for a in sys.argv[1:]]
    verbose = '-v' in args
    j = 2
    if '-j' in args:
        j = int(args[args.index('-j') + 1])
        del args[args.index('-j'):args.index('-j') + 2]
    args = [a for a in args if a != '-v']
    gq, d = args[0], args[1]
    jobs = []
    for f in sorted(glob.glob(os.path.join(d, '*.test'))):
        jobs.extend(file_jobs(f))
    results = {}  # rid -> first failure cause or None
    order = []
    sqls = {}
    with concurrent.futures.ThreadPoolExecutor(j) as ex:
        futs = []
        for rid, head, setup, sql, exp, skip in jobs:
            if rid not in results:
                order.append(rid)
                results[rid] = None
                sqls[rid] = sql
            if skip:
                results[rid] = 'skipped: ' + skip
                continue
            futs.append((rid, sql, ex.submit(run_one, gq, setup, sql, head, exp, rid)))
        for rid, sql, fut in futs:
            c = fut.result()
            if c and results[rid] is None:
                results[rid] = c
                sqls[rid] = sql
    total = len(order)
    passed = sum(1 for r in order if results[r] is None)
    causes = {}
    for r in order:
        if results[r] is not None:
            causes.setdefault(results[r], []).append(r)
    if verbose:
        for r in order:
            if results[r] is not None:
                print('FAIL', r, '|', results[r], '|', sqls[r].replace('\n', ' ')[:300])
    print('| cause | queries |')
    print('|---|---|')
    for c, rs in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f'| {c} | {len(rs)} |')
    print(f'{passed} of {total} queries pass ({100.0 * passed / total:.1f}%)')
    na = sum(1 for r in order if (results[r] or '').startswith(NOT_APPLICABLE))
    if na:
        print(f'{na} not applicable; {passed} of the {total - na} applicable pass'
              f' ({100.0 * passed / (total - na):.1f}%)')

main()
