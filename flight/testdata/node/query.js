// Runs SQL on a gq Flight SQL server with @lakehouse-rs/flight-sql-client
// (arrow-rs under napi-rs) and prints each result as one JSON line:
// its fields' types and its values in a canonical text form that
// flight/node_test.go compares with the engine's own answer (a nested
// value as the JSON text of its canonical form; see valueText).
//
// Usage: node query.js PORT < requests.json, where requests.json is
// {"queries": [SQL, ...], "tables": bool}. With "tables", it also prints
// the GetTables(include_schema) answer, each table's schema decoded.
//
// The Rust client panics in a worker thread on a type it cannot read
// (decimal64 among them) and its promise never settles, so every call
// runs under a timer: a call that does not answer is reported as an
// error, and the process exits rather than hanging.
'use strict';
const { createFlightSqlClient } = require('@lakehouse-rs/flight-sql-client');
const { tableFromIPC, makeVector, IntervalUnit, Type } = require('apache-arrow');

const CALL_TIMEOUT_MS = 20000;

function timed(p, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function fieldInfo(f) {
  const t = f.type;
  return {
    name: f.name,
    type: String(t),
    typeId: t.typeId,
    bitWidth: t.bitWidth === undefined ? null : t.bitWidth,
    precision: t.precision === undefined ? null : t.precision,
    scale: t.scale === undefined ? null : t.scale,
    unit: t.unit === undefined ? null : t.unit,
    timezone: t.timezone === undefined ? null : t.timezone,
  };
}

// chunkAt is the record batch (Data) of vector col holding row i, and the
// row's index within it.
function chunkAt(col, i) {
  for (const d of col.data) {
    if (i < d.length) {
      return [d, i];
    }
    i -= d.length;
  }
  throw new Error(`row ${i} past the vector's end`);
}

// int64Text is a 64-bit two's-complement integer from its low and high
// 32-bit words.
function int64Text(lo, hi) {
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)).toString();
}

// decimalText renders a decimal's 32-bit little-endian words (a
// two's-complement integer) with its scale, as "-12.30".
function decimalText(words, scale) {
  let v = 0n;
  for (let i = words.length - 1; i >= 0; i--) {
    v = (v << 32n) | BigInt(words[i] >>> 0);
  }
  const bits = BigInt(words.length * 32);
  if (v >> (bits - 1n)) {
    v -= 1n << bits;
  }
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}

// valueText is value i of vector col, of field type t, in canonical form;
// null for NULL. A scalar is text: a timestamp or a time its integer in
// the field's unit (the library's own getter rounds timestamps to
// milliseconds), an interval "months/days/nanoseconds". A list is an
// array of its values, a struct an object of its fields in order, a map
// an array of [key, value] pairs in order.
function valueText(col, t, i) {
  if (!col.isValid(i)) {
    return null;
  }
  const v = col.get(i);
  switch (t.typeId) {
    case Type.Decimal:
      return decimalText(v, t.scale);
    case Type.Date: {
      const ms = v instanceof Date ? v.getTime() : Number(v);
      return String(Math.round(ms / 86400000)); // days since the epoch
    }
    case Type.Float:
      return Object.is(v, -0) ? '-0' : String(v); // shortest round-trip digits
    case Type.Int:
    case Type.Bool:
    case Type.Utf8:
      return String(v);
    case Type.Timestamp: {
      const [d, j] = chunkAt(col, i);
      return String(d.values[j]);
    }
    case Type.Time:
      return String(v);
    case Type.Interval:
      if (t.unit !== IntervalUnit.MONTH_DAY_NANO) {
        throw new Error(`unexpected interval unit ${t.unit}`);
      }
      return `${v[0]}/${v[1]}/${int64Text(v[2], v[3])}`;
    case Type.List: {
      const out = [];
      for (let j = 0; j < v.length; j++) {
        out.push(valueText(v, t.children[0].type, j));
      }
      return out;
    }
    case Type.Struct: {
      const out = {};
      t.children.forEach((f, k) => {
        out[f.name] = valueText(col.getChildAt(k), f.type, i);
      });
      return out;
    }
    case Type.Map: {
      const [d, j] = chunkAt(col, i);
      const entries = d.children[0];
      const [kf, vf] = t.children[0].type.children;
      const keys = makeVector(entries.children[0]);
      const vals = makeVector(entries.children[1]);
      const out = [];
      for (let e = d.valueOffsets[j]; e < d.valueOffsets[j + 1]; e++) {
        out.push([valueText(keys, kf.type, e), valueText(vals, vf.type, e)]);
      }
      return out;
    }
    default:
      throw new Error(`unexpected type ${t}`);
  }
}

function describe(table) {
  const fields = table.schema.fields.map(fieldInfo);
  const rows = [];
  for (let r = 0; r < table.numRows; r++) {
    rows.push(
      table.schema.fields.map((f, c) => {
        const v = valueText(table.getChildAt(c), f.type, r);
        return v === null || typeof v === 'string' ? v : JSON.stringify(v);
      }),
    );
  }
  return { fields, rows };
}

async function main() {
  const port = Number(process.argv[2]);
  let input = '';
  for await (const chunk of process.stdin) {
    input += chunk;
  }
  const req = JSON.parse(input);
  const client = await timed(createFlightSqlClient({ tls: false, host: '127.0.0.1', port, headers: [] }), 'connect');
  for (const sql of req.queries) {
    try {
      const table = tableFromIPC(await timed(client.query(sql), 'query'));
      console.log(JSON.stringify({ sql, ...describe(table) }));
    } catch (e) {
      console.log(JSON.stringify({ sql, error: String(e && e.message ? e.message : e) }));
    }
  }
  if (req.tables) {
    try {
      const t = tableFromIPC(await timed(client.getTables({ includeSchema: true }), 'getTables'));
      const tables = {};
      for (let r = 0; r < t.numRows; r++) {
        const schema = tableFromIPC(t.getChild('table_schema').get(r)).schema;
        tables[t.getChild('table_name').get(r)] = schema.fields.map(fieldInfo);
      }
      console.log(JSON.stringify({ tables }));
    } catch (e) {
      console.log(JSON.stringify({ tables: null, error: String(e && e.message ? e.message : e) }));
    }
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  },
);
