import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const out = process.argv[2];
await c.run(`copy (select i::bigint as id, ('n'||i)::varchar as name,
  timestamp '2024-01-01 00:00:00' + to_seconds(i) as ts,
  timestamptz '2024-01-01 00:00:00+00' + to_seconds(i) as tstz,
  (i*1.25)::decimal(38,2) as big, (i*1.25)::decimal(10,2) as small,
  [i, i+1] as l, {'a': i, 'b': 'x'} as st, map(['k'], [i]) as m,
  md5(i::varchar)::uuid as u, to_days(i) as iv, date '2024-01-01' + i::int as d, time '12:00:00' as t,
  i % 2 = 0 as flag, i / 3.0 as dbl
  from range(1000) r(i)) to '${out}/duck_types.parquet' (format parquet)`);
const r = await c.runAndReadAll(`select count(*), sum(id), sum(small), count(name), sum(dbl), min(d), sum(flag::int) from '${out}/duck_types.parquet'`);
console.log(JSON.stringify(r.getRows().map(x=>x.map(String))));
