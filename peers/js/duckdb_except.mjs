// node duckdb_except.mjs JOBS.json
//
// For each job {name, a, b, footerKey?, skip?} of JOBS.json (a JSON
// array), DuckDB compares the rows of the Parquet files a (a corpus file;
// read with the footer key footerKey when it is encrypted) and b (the same
// rows written back by pqgen's generated code) and prints one JSON line:
//
//   {"name", "typesA", "typesB", "rowsA", "rowsB", "aMinusB", "bMinusA",
//    "normalized", "skipReadable", "pushdown", "ms"}
//
// typesA/typesB are DuckDB's [column name, type] pairs of each file;
// rowsA/rowsB their row counts, from a scan hashing every value (so that a
// file DuckDB cannot decode fails at its read stage); aMinusB and bMinusA
// count the rows of
//   FROM a EXCEPT ALL FROM b   and   FROM b EXCEPT ALL FROM a
// (bag difference: duplicates count), each row with its file_row_number,
// so that the order of the rows counts too. When DuckDB fails, the line holds
// {"name", "stage", "error", "ms"} instead, stage being "read-a", "read-b",
// "except" or "pushdown". pushdown lists the predicates on which DuckDB
// counts other rows of b with its filter pushdown than without (see
// pushdown). ms is the time the job took.
//
// skip names top-level columns of a that DuckDB cannot read: they are left
// out of the scan of a and of the comparison, and skipReadable lists those
// of them DuckDB reads after all.
//
// Columns are compared as DuckDB reads them, except columns holding maps
// or floats (at any depth): they are listed in "normalized" and compared
// with each map as the sorted list of its entries and each float as its
// text (see norm). In DuckDB NaN = NaN holds, so EXCEPT ALL would match
// NaN with NaN anyway, but -0 = +0 holds too.
import { readFileSync } from 'node:fs';
import {
  DuckDBArrayType, DuckDBDoubleType, DuckDBFloatType, DuckDBInstance, DuckDBListType, DuckDBMapType, DuckDBStructType,
} from '@duckdb/node-api';
import { sqlString } from './duckdb_canon.mjs';

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let conn;
// open starts a new database: first, and again after a fatal or internal
// error, which invalidates the database for every later query.
async function open() {
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  conn = await inst.connect();
}
await open();

function ident(s) {
  return '"' + s.replace(/"/g, '""') + '"';
}

// norm returns a SQL expression of the value of expression x (of DuckDB
// type t) in which, recursively, every map is replaced by the list of its
// entries ({'k': key, 'v': value}) in sorted order and every FLOAT or
// DOUBLE by its text, or null when t holds neither. A map is a set of
// entries: its order is not a value (the generated code reads a MAP into a
// Go map, whose iteration order is random), and DuckDB compares maps entry
// by entry in stored order. Floats compare equal when -0 meets +0; their
// text ("-0.0", shortest round trip, "nan") tells every value apart but
// NaN payloads.
function norm(x, t, depth) {
  const e = `e${depth}`;
  if (t instanceof DuckDBFloatType || t instanceof DuckDBDoubleType) {
    return `CAST(${x} AS VARCHAR)`;
  }
  if (t instanceof DuckDBMapType) {
    const k = norm(`${e}.key`, t.keyType, depth + 1) ?? `${e}.key`;
    const v = norm(`${e}.value`, t.valueType, depth + 1) ?? `${e}.value`;
    return `list_sort(list_transform(map_entries(${x}), lambda ${e}: {'k': ${k}, 'v': ${v}}))`;
  }
  if (t instanceof DuckDBListType || t instanceof DuckDBArrayType) {
    const v = norm(e, t.valueType, depth + 1);
    return v === null ? null : `list_transform(${x}, lambda ${e}: ${v})`;
  }
  if (t instanceof DuckDBStructType) {
    // By position: a struct with a field named "" (DuckDB's UNION as
    // written to Parquet) is unnamed to DuckDB, and takes no names.
    const fields = t.entryNames.map((n, i) => {
      const f = `struct_extract_at(${x}, ${i + 1})`;
      return [n === '' ? `_${i}` : n, norm(f, t.entryTypes[i], depth + 1), f];
    });
    if (fields.every(([, v]) => v === null)) return null;
    const lit = fields.map(([n, v, f]) => `${sqlString(n)}: ${v ?? f}`).join(', ');
    return `CASE WHEN ${x} IS NULL THEN NULL ELSE {${lit}} END`;
  }
  return null;
}

// scan reads every value of the columns cols of src (a count(*) alone may
// be answered from the footer) and returns the row count.
async function scan(src, cols) {
  const h = cols.length ? `, sum(hash(${cols.map(ident).join(', ')}))` : '';
  const r = await conn.runAndReadAll(`SELECT count(*)${h} FROM ${src}`);
  return Number(r.getRows()[0][0]);
}

async function scalar(sql) {
  const r = await conn.runAndReadAll(sql);
  const v = r.getRows()[0][0];
  return typeof v === 'bigint' ? Number(v) : v;
}

async function describe(src) {
  const r = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`);
  return r.getRows().map((row) => [String(row[0]), String(row[1])]);
}

// scalarTypes are the DuckDB types whose values pushdown compares with
// literals (cast from their text).
const scalarTypes = /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|VARCHAR|DATE|TIME|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|TIMESTAMP WITH TIME ZONE|UUID)$/;

// pushdown counts, in file src, the rows of predicates on its top-level
// columns of scalar types (=, < and > their minimum and maximum, the
// bounds statistics give; IS NULL) with DuckDB's filter pushdown, which prunes row groups
// by their statistics and bloom filters, and without it (the filter
// applied to every row read), and returns the predicates whose counts
// differ: statistics that make DuckDB drop a matching row.
async function pushdown(src, types) {
  const bad = [];
  for (const [name, type] of types) {
    if (!scalarTypes.test(type)) continue;
    const c = ident(name);
    let r;
    try {
      r = await conn.runAndReadAll(`SELECT min(${c})::VARCHAR, max(${c})::VARCHAR FROM ${src}`);
    } catch {
      continue; // bounds DuckDB cannot print (a TIMESTAMP_NS out of its range)
    }
    const preds = [`${c} IS NULL`];
    for (const v of r.getRows()[0]) {
      // NaN: DuckDB's pushed-down comparisons with NaN differ from its
      // others on every writer's files (arrow-rs' too).
      if (v === null || /nan/i.test(String(v))) continue;
      const lit = `CAST(${sqlString(String(v))} AS ${type})`;
      try {
        await conn.run(`SELECT ${lit}`);
      } catch {
        continue; // text DuckDB prints but does not parse back (294247-01-10 for infinity)
      }
      preds.push(`${c} = ${lit}`, `${c} < ${lit}`, `${c} > ${lit}`);
    }
    for (const p of preds) {
      const q = `SELECT count(*) FROM ${src} WHERE ${p}`;
      let pushed;
      try {
        pushed = await scalar(q);
      } catch {
        continue; // a comparison DuckDB cannot evaluate (a conversion out of its range)
      }
      await conn.run(`SET disabled_optimizers = 'filter_pushdown'`);
      let all;
      try {
        all = await scalar(q);
      } catch (e) {
        all = `an error (${String(e && e.message ? e.message : e).split('\n')[0]})`;
      } finally {
        await conn.run(`RESET disabled_optimizers`);
      }
      if (pushed !== all) bad.push(`${p}: ${pushed} rows with filter pushdown, ${all} without`);
    }
  }
  return bad;
}

let keys = 0;
const out = [];
for (const job of jobs) {
  const res = { name: job.name };
  const t0 = Date.now();
  const skip = job.skip ?? [];
  let stage = 'read-a';
  try {
    let optA = '';
    if (job.footerKey) {
      const k = `key${keys++}`;
      await conn.run(`PRAGMA add_parquet_key(${sqlString(k)}, ${sqlString(job.footerKey)})`);
      optA = `, encryption_config = {footer_key: ${sqlString(k)}}`;
    }
    const srcA = `read_parquet(${sqlString(job.a)}${optA})`;
    res.typesA = await describe(srcA);
    const types = (await conn.runAndReadAll(`SELECT * FROM ${srcA} LIMIT 0`)).columnTypes();
    const kept = res.typesA.map(([name], i) => [name, types[i]]).filter(([name]) => !skip.includes(name));
    res.rowsA = await scan(srcA, kept.map(([name]) => name));
    // A skipped column that DuckDB reads after all is reported.
    res.skipReadable = [];
    for (const name of skip) {
      try {
        await scan(srcA, [name]);
        res.skipReadable.push(name);
      } catch {
        // still unreadable, as the caller's table says
      }
    }
    stage = 'read-b';
    const srcB = `read_parquet(${sqlString(job.b)})`;
    res.typesB = await describe(srcB);
    res.rowsB = await scan(srcB, res.typesB.map(([name]) => name));
    stage = 'except';
    res.normalized = [];
    const cols = kept.map(([name, type]) => {
      const n = norm(ident(name), type, 0);
      if (n === null) return ident(name);
      res.normalized.push(name);
      return `${n} AS ${ident(name)}`;
    });
    // Columns by name: b must have the same columns and types (checked
    // by the caller from typesA and typesB).
    // file_row_number: the rows must also come in the same order.
    const list = ['file_row_number', ...cols].join(', ');
    const selA = `SELECT ${list} FROM read_parquet(${sqlString(job.a)}${optA}, file_row_number = true)`;
    const selB = `SELECT ${list} FROM read_parquet(${sqlString(job.b)}, file_row_number = true)`;
    res.aMinusB = await scalar(`SELECT count(*) FROM (${selA} EXCEPT ALL ${selB})`);
    res.bMinusA = await scalar(`SELECT count(*) FROM (${selB} EXCEPT ALL ${selA})`);
    stage = 'pushdown';
    res.pushdown = await pushdown(srcB, res.typesB);
  } catch (e) {
    const msg = String(e && e.message ? e.message : e).replace(/\n/g, ' ');
    out.push(JSON.stringify({ name: job.name, stage, error: msg, ms: Date.now() - t0 }));
    if (/FATAL|INTERNAL|invalidated/.test(msg)) await open();
    continue;
  }
  res.ms = Date.now() - t0;
  out.push(JSON.stringify(res));
}
process.stdout.write(out.join('\n') + '\n');
