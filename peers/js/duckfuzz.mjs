// node duckfuzz.mjs SEED COUNT DIR
//
// Has DuckDB write COUNT files of random schemas and random rows into DIR,
// for peers/genconf's TestDuckFuzz (pqgen's generated code reads each
// file and writes the rows back; DuckDB judges the copy). The same seed
// writes the same files. Prints one JSON line per file, as writers.mjs
// does: {"file", "writer": "duckdb", "features": the table's type and the
// COPY options, "ms"}, or {"file", "writer", "error"} when DuckDB fails.
//
// A schema has 1 to 8 top-level columns of DuckDB types nested up to
// three deep: every primitive type DuckDB writes (integers of every width,
// signed and unsigned, HUGEINT and UHUGEINT, floats with NaN, infinities
// and -0, decimals of every precision and scale, strings short, long,
// empty and non-ASCII, blobs, dates, times, TIMETZ, timestamps of every
// unit and TZ, INTERVAL, UUID, JSON, ENUM, VARIANT, GEOMETRY, BIT,
// BIGNUM), STRUCT, LIST,
// fixed-size ARRAY, MAP and UNION; each value null at a random rate
// (never, sometimes, mostly, always) at every level, each column drawn
// from a few values (dictionary pages) or from many (fallback to plain).
// Rows number 0 to 12,000; the COPY options are drawn too: codec and
// level, PARQUET_VERSION, row group size, dictionary limits, bloom
// filters, GEOPARQUET_VERSION, field ids, key-value metadata, rows sorted
// by a column or not, and now and then two threads writing row groups
// without insertion order (then a seed's rows are the same, their order
// and row groups may not be).
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { sqlString } from './duckdb_canon.mjs';
import { fieldNames, fuzzArgs, rand } from './fuzzlib.mjs';

const { seed, count, dir } = fuzzArgs('duckfuzz.mjs');

const ident = (s) => '"' + s.replaceAll('"', '""') + '"';

// A type is {sql, expr(h)}: expr gives the SQL of a value of the type from
// h, a UBIGINT SQL expression that differs by row and position.
let lambdas = 0;

// cardinal draws v, the integer the values of a column are made from: few
// distinct ones, or many.
function cardinal(r, h) {
  const card = r.pick([2, 7, 100, 5000, 0, 0]);
  return card ? `(${h} % ${card})` : h;
}

function primitive(r, depth) {
  let k = r.pick(['BOOLEAN', 'TINYINT', 'SMALLINT', 'INTEGER', 'INTEGER', 'BIGINT', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT',
    'UINTEGER', 'UBIGINT', 'UHUGEINT', 'FLOAT', 'DOUBLE', 'DOUBLE', 'DECIMAL', 'DECIMAL', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'BLOB',
    'DATE', 'TIME', 'TIME_NS', 'TIMETZ', 'TIMESTAMP', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMPTZ', 'INTERVAL',
    'UUID', 'JSON', 'ENUM', 'VARIANT', 'GEOMETRY', 'BIT', 'BIGNUM']);
  // DuckDB writes VARIANT only as a top-level column.
  if (k === 'VARIANT' && depth > 0) k = 'VARCHAR';
  const specials = r.chance(0.3);
  const ts = (h) => `make_timestamp((${h} % 9000000000000000)::BIGINT - 4500000000000000)`;
  switch (k) {
    case 'BOOLEAN':
      return { sql: k, expr: (h) => `(${cardinal(r, h)} % 2 = 0)` };
    case 'TINYINT':
      return { sql: k, expr: (h) => `((${cardinal(r, h)} % 256)::SMALLINT - 128)::TINYINT` };
    case 'SMALLINT':
      return { sql: k, expr: (h) => `((${cardinal(r, h)} % 65536)::INTEGER - 32768)::SMALLINT` };
    case 'INTEGER':
      return { sql: k, expr: (h) => `((${cardinal(r, h)} % 4294967296)::BIGINT - 2147483648)::INTEGER` };
    case 'BIGINT':
      return { sql: k, expr: (h) => `(${cardinal(r, h)}::HUGEINT - 9223372036854775808)::BIGINT` };
    case 'HUGEINT':
      return { sql: k, expr: (h) => `((${cardinal(r, h)}::HUGEINT - 9223372036854775808) * 4611686018427387847)::HUGEINT` };
    case 'UTINYINT':
      return { sql: k, expr: (h) => `(${cardinal(r, h)} % 256)::UTINYINT` };
    case 'USMALLINT':
      return { sql: k, expr: (h) => `(${cardinal(r, h)} % 65536)::USMALLINT` };
    case 'UINTEGER':
      return { sql: k, expr: (h) => `(${cardinal(r, h)} % 4294967296)::UINTEGER` };
    case 'UBIGINT':
      return { sql: k, expr: (h) => `${cardinal(r, h)}::UBIGINT` };
    case 'UHUGEINT':
      return { sql: k, expr: (h) => `(${cardinal(r, h)}::UHUGEINT * 18446744073709551557)::UHUGEINT` };
    case 'FLOAT':
    case 'DOUBLE': {
      const scale = r.pick(['/ 8 - 100', '/ 1e15 - 9000', '* 1e13', '/ 3']);
      return {
        sql: k,
        expr: (h) => {
          const v = cardinal(r, h);
          const plain = `(${v}::DOUBLE ${scale})::${k}`;
          return specials ? `CASE ${h} % 23 WHEN 0 THEN 'nan'::${k} WHEN 1 THEN 'inf'::${k} WHEN 2 THEN '-inf'::${k} ` +
            `WHEN 3 THEN '-0.0'::${k} WHEN 4 THEN 0::${k} ELSE ${plain} END` : plain;
        },
      };
    }
    case 'DECIMAL': {
      const p = 1 + r.int(38);
      const s = r.int(p + 1);
      const sql = `DECIMAL(${p}, ${s})`;
      return {
        sql,
        expr: (h) => {
          const x = `((${cardinal(r, h)}::HUGEINT * 4611686018427387847 + hash(${h}, 'd')::HUGEINT) % 1${'0'.repeat(p)})`;
          const signed = `(${x} * CASE WHEN hash(${h}, 's') % 2 = 0 THEN 1 ELSE -1 END)`;
          return `(${signed}::DECIMAL(38, 0) * ${s === 0 ? '1' : '0.' + '0'.repeat(s - 1) + '1'})::${sql}`;
        },
      };
    }
    case 'VARCHAR': {
      const style = r.int(5);
      return {
        sql: k,
        expr: (h) => {
          const v = cardinal(r, h);
          switch (style) {
            case 0: return `'k' || ${v}::VARCHAR`;
            case 1: return `md5(${v}::VARCHAR)`;
            case 2: return `repeat(md5(${v}::VARCHAR), (${h} % 40)::INTEGER)`;
            case 3: return `CASE WHEN ${h} % 5 = 0 THEN '' ELSE 'é☃ ' || ${v}::VARCHAR END`;
            default: return `left(md5(${v}::VARCHAR), (${h} % 33)::INTEGER)`;
          }
        },
      };
    }
    case 'BLOB':
      return { sql: k, expr: (h) => `CASE WHEN ${h} % 11 = 0 THEN ''::BLOB ELSE unhex(left(md5(${cardinal(r, h)}::VARCHAR), 2 * (${h} % 17)::INTEGER)) END` };
    case 'DATE':
      return { sql: k, expr: (h) => `(DATE '1970-01-01' + ((${cardinal(r, h)} % 2000000)::INTEGER - 1000000))` };
    case 'TIME':
    case 'TIME_NS':
    case 'TIMETZ':
      return { sql: k, expr: (h) => `(TIME '00:00:00' + to_microseconds((${cardinal(r, h)} % 86400000000)::BIGINT))::${k}` };
    case 'TIMESTAMP':
    case 'TIMESTAMP_S':
    case 'TIMESTAMP_MS':
    case 'TIMESTAMP_NS':
    case 'TIMESTAMPTZ':
      return { sql: k, expr: (h) => `${ts(cardinal(r, h))}::${k}` };
    case 'INTERVAL':
      return {
        sql: k,
        expr: (h) => {
          const v = cardinal(r, h);
          return `(to_months((${v} % 1000)::INTEGER) + to_days(((${v} // 1000) % 100000)::INTEGER) + ` +
            `to_milliseconds(((${v} // 100000000) % 86400000)::BIGINT))`;
        },
      };
    case 'UUID':
      return { sql: k, expr: (h) => `md5(${cardinal(r, h)}::VARCHAR)::UUID` };
    case 'JSON':
      return { sql: k, expr: (h) => `json_object('a', ${cardinal(r, h)}, 'b', [md5(${h}::VARCHAR), NULL])` };
    case 'GEOMETRY':
      // Points, line strings, polygons and multipoints, some with Z, some
      // empty: GeoParquet metadata, or the GEOMETRY logical type, at the
      // top level (GEOPARQUET_VERSION), WKB blobs below it.
      return {
        sql: k,
        expr: (h) => {
          const x = `((${cardinal(r, h)} % 3600)::DOUBLE / 10 - 180)`;
          const y = `((hash(${h}, 'y') % 1800)::DOUBLE / 10 - 90)`;
          return `(CASE ${h} % 6 WHEN 0 THEN 'POINT (' || ${x} || ' ' || ${y} || ')' ` +
            `WHEN 1 THEN 'LINESTRING (' || ${x} || ' ' || ${y} || ', ' || (${x} + 1) || ' ' || (${y} / 2) || ')' ` +
            `WHEN 2 THEN 'POLYGON ((' || ${x} || ' ' || ${y} || ', ' || (${x} + 1) || ' ' || ${y} || ', ' || ${x} || ' ' || (${y} + 1) || ', ' || ${x} || ' ' || ${y} || '))' ` +
            `WHEN 3 THEN 'POINT Z (' || ${x} || ' ' || ${y} || ' ' || (${h} % 100) || ')' ` +
            `WHEN 4 THEN 'MULTIPOINT ((' || ${x} || ' ' || ${y} || '), (' || ${y} || ' ' || ${x} || '))' ELSE 'POINT EMPTY' END)::GEOMETRY`;
        },
      };
    case 'BIT':
      return { sql: k, expr: (h) => `bitstring(bin(${cardinal(r, h)}), 64 + (${h} % 7)::INTEGER)` };
    case 'BIGNUM':
      return { sql: k, expr: (h) => `(${cardinal(r, h)}::BIGNUM * ${cardinal(r, h)}::BIGNUM * ${cardinal(r, h)}::BIGNUM - 12345678901234567890123456789::BIGNUM)` };
    case 'ENUM': {
      const e = r.pick(['e3', 'e300']);
      return { sql: e, expr: (h) => `enum_range(NULL::${e})[(${cardinal(r, h)} % ${e === 'e3' ? 3 : 300} + 1)::INTEGER]` };
    }
    default: {
      // VARIANT: values of a few types, objects and arrays.
      return {
        sql: 'VARIANT',
        expr: (h) => `CASE ${h} % 6 WHEN 0 THEN (${h} % 1000)::INTEGER::VARIANT WHEN 1 THEN md5(${h}::VARCHAR)::VARIANT ` +
          `WHEN 2 THEN {'z': (${h} % 7)::INTEGER, 'a': left(md5(${h}::VARCHAR), 3)}::VARIANT WHEN 3 THEN [${h} % 5, NULL]::VARIANT ` +
          `WHEN 4 THEN ((${h} % 100000)::DOUBLE / 7)::VARIANT ELSE (DATE '2000-01-01' + (${h} % 1000)::INTEGER)::VARIANT END`,
      };
    }
  }
}

// nullable makes some values of t null: never, sometimes, mostly or always.
function nullable(r, t) {
  const k = r.pick([0, 0, 0, 2, 5, 20, 1]);
  if (k === 0) return t;
  if (k === 1 && r.chance(0.5)) return { sql: t.sql, expr: () => `NULL::${t.sql}` };
  const isNull = (h) => `hash(${h}, 'n') % ${k === 1 ? 1000 : k} ${k === 1 ? '!=' : '='} 0`;
  // DuckDB's CASE takes no value holding a fixed-size ARRAY: a list of
  // the value and a null, indexed, makes it null instead.
  if (/\[\d+\]/.test(t.sql)) return { sql: t.sql, expr: (h) => `[${t.expr(h)}, NULL::${t.sql}][(${isNull(h)})::INTEGER + 1]` };
  return { sql: t.sql, expr: (h) => `CASE WHEN ${isNull(h)} THEN NULL ELSE ${t.expr(h)} END` };
}

function type(r, depth) {
  const k = depth >= 3 ? 9 : r.int(10);
  let t;
  switch (k) {
    case 0:
    case 1: {
      const fs = fieldNames(r, 1 + r.int(4));
      const ts = fs.map(() => type(r, depth + 1));
      t = {
        sql: `STRUCT(${fs.map((f, i) => `${ident(f)} ${ts[i].sql}`).join(', ')})`,
        expr: (h) => `{${fs.map((f, i) => `${sqlString(f)}: ${ts[i].expr(`hash(${h}, ${i})`)}`).join(', ')}}`,
      };
      break;
    }
    case 2:
    case 3: {
      const e = type(r, depth + 1);
      const max = depth === 0 ? r.pick([2, 5, 30]) : r.pick([2, 4]);
      const x = `x${lambdas++}`;
      t = {
        sql: `${e.sql}[]`,
        expr: (h) => `list_transform(range((hash(${h}, 'l') % ${max + 1})::BIGINT), ${x} -> ${e.expr(`hash(${h}, ${x})`)})`,
      };
      break;
    }
    case 4: {
      const e = type(r, depth + 1);
      const n = 1 + r.int(4);
      const x = `x${lambdas++}`;
      t = { sql: `${e.sql}[${n}]`, expr: (h) => `list_transform(range(${n}), ${x} -> ${e.expr(`hash(${h}, ${x})`)})::${e.sql}[${n}]` };
      break;
    }
    case 5: {
      const key = r.pick(['INTEGER', 'VARCHAR', 'BIGINT', 'DATE']);
      const v = type(r, depth + 1);
      const x = `x${lambdas++}`;
      const keyExpr = (h) => {
        const n = `(${x} + ${h} % 1000)`;
        return key === 'VARCHAR' ? `'k' || ${n}::VARCHAR` : key === 'DATE' ? `DATE '2000-01-01' + ${n}::INTEGER` : `${n}::${key}`;
      };
      t = {
        sql: `MAP(${key}, ${v.sql})`,
        expr: (h) => `map_from_entries(list_transform(range((hash(${h}, 'm') % 4)::BIGINT), ${x} -> ` +
          `{'k': ${keyExpr(h)}, 'v': ${v.expr(`hash(${h}, ${x})`)}}))::MAP(${key}, ${v.sql})`,
      };
      break;
    }
    case 6: {
      if (r.chance(0.7)) return type(r, depth);
      const a = primitive(r, 1);
      const b = primitive(r, 1);
      const sql = `UNION(num ${a.sql}, str ${b.sql})`;
      t = {
        sql,
        expr: (h) => `CASE WHEN hash(${h}, 'u') % 2 = 0 THEN union_value(num := ${a.expr(h)})::${sql} ELSE union_value(str := ${b.expr(h)})::${sql} END`,
      };
      break;
    }
    default:
      t = primitive(r, depth);
  }
  return nullable(r, t);
}

function options(r) {
  const o = [];
  const codec = r.pick(['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4', 'lz4_raw', 'brotli']);
  o.push(`COMPRESSION ${codec}`);
  if (codec === 'zstd' && r.chance(0.5)) o.push(`COMPRESSION_LEVEL ${r.pick([1, 3, 9, 22])}`);
  if (r.chance(0.5)) o.push(`PARQUET_VERSION ${r.pick(['V1', 'V2'])}`);
  if (r.chance(0.5)) o.push(`ROW_GROUP_SIZE ${r.pick([1, 100, 1000, 5000])}`);
  if (r.chance(0.3)) o.push(`DICTIONARY_SIZE_LIMIT ${r.pick([0, 10, 1000])}`);
  if (r.chance(0.3)) o.push(`STRING_DICTIONARY_PAGE_SIZE_LIMIT ${r.pick([100, 10000])}`);
  if (r.chance(0.3)) o.push(`DICTIONARY_COMPRESSION_RATIO_THRESHOLD ${r.pick([0, 1, 5])}`);
  if (r.chance(0.3)) o.push(r.chance(0.3) ? 'WRITE_BLOOM_FILTER false' : `BLOOM_FILTER_FALSE_POSITIVE_RATIO ${r.pick([0.001, 0.1, 0.5])}`);
  if (r.chance(0.3)) o.push(`GEOPARQUET_VERSION '${r.pick(['V1', 'V2', 'BOTH', 'NONE'])}'`);
  if (r.chance(0.2)) o.push(`FIELD_IDS 'auto'`);
  if (r.chance(0.2)) o.push(`KV_METADATA {origin: 'duckfuzz', "k é": 'v\nw'}`);
  return o;
}

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
await conn.run(`CREATE TYPE e3 AS ENUM ('x', 'yy', 'zzz')`);
await conn.run(`CREATE TYPE e300 AS ENUM (${Array.from({ length: 300 }, (_, i) => `'v${i}'`).join(', ')})`);
for (let n = 0; n < count; n++) {
  const s = seed + n;
  const r = rand(s);
  const file = `duckfuzz_${s}.parquet`;
  const cols = fieldNames(r, 1 + r.int(8));
  const types = cols.map(() => type(r, 0));
  const rows = r.pick([0, 1, 10, 300, 2000, 2000, 12000]);
  const opts = options(r);
  const order = r.chance(0.3) ? ` ORDER BY ${ident(cols[0])}` : '';
  // Two threads writing row groups as they come, without insertion
  // order (the rows of the file are the table's in another order, and
  // the row groups' boundaries may differ from run to run).
  const parallel = r.chance(0.15);
  if (parallel) opts.push(`ROW_GROUP_SIZE_BYTES ${r.pick([10000, 100000, 1000000])}`);
  const sel = cols.map((c, i) => `${types[i].expr(`hash(i, ${s}, ${i})`)} AS ${ident(c)}`).join(',\n  ');
  const features = `${parallel ? 'two threads, ' : ''}${rows} rows of (${cols.map((c, i) => `${c} ${types[i].sql}`).join(', ')})${order}, ${opts.join(', ')}`;
  const t0 = Date.now();
  try {
    await conn.run(`CREATE OR REPLACE TABLE t AS SELECT\n  ${sel}\nFROM range(${rows}) r(i)`);
    let sortable = true;
    if (order) {
      try {
        await conn.run(`SELECT 1 FROM t${order} LIMIT 1`);
      } catch {
        sortable = false;
      }
    }
    if (parallel) await conn.run(`SET threads = 2; SET preserve_insertion_order = false`);
    try {
      await conn.run(`COPY (SELECT * FROM t${sortable ? order : ''}) TO ${sqlString(join(dir, file))} (FORMAT parquet, ${opts.join(', ')})`);
    } finally {
      if (parallel) await conn.run(`SET threads = 1; SET preserve_insertion_order = true`);
    }
    process.stdout.write(JSON.stringify({ file, writer: 'duckdb', features, ms: Date.now() - t0 }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ file, writer: 'duckdb', features, error: String(e).split('\n').slice(0, 3).join(' | ') }) + '\n');
  }
}
