// node read.mjs READER FILE...
//
// Prints every row of each parquet FILE as read by READER, one canonical
// JSON array per row (top-level columns in schema order; see canon.mjs),
// between "#FILE path" and "#END" lines. READER is
//   duckdb     @duckdb/node-api: SELECT * FROM read_parquet(path)
//   wasm       parquet-wasm (arrow-rs compiled to wasm) -> Arrow IPC -> apache-arrow
//   polars     nodejs-polars -> Arrow IPC -> apache-arrow (as wasm)
//   hyparquet  hyparquet with hyparquet-compressors
//   parquetjs  @dsnp/parquetjs (the judge of its own files' quirks)
// A file the reader fails on gets "#ERROR message" and the others go on.
// For duckdb and polars, an argument --exclude=a,b leaves top-level columns
// a and b out of the files after it (SELECT * EXCLUDE (a, b); a scan
// without them); --exclude= resets.
import { readFileSync } from 'node:fs';
import { arrowDecimal, emitFile, emitFileAsync, flush, hex, num } from './canon.mjs';

const [reader, ...files] = process.argv.slice(2);
const out = [];

if (reader === 'duckdb') {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { duckRows, sqlString } = await import('./duckdb_canon.mjs');
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await inst.connect();
  let exclude = '';
  for (const f of files) {
    if (f.startsWith('--exclude=')) {
      const cols = f.slice('--exclude='.length).split(',').filter((c) => c !== '');
      exclude = cols.length ? ` EXCLUDE (${cols.map((c) => '"' + c.replace(/"/g, '""') + '"').join(', ')})` : '';
      continue;
    }
    await emitFileAsync(out, f, () => duckRows(conn, `SELECT *${exclude} FROM read_parquet(${sqlString(f)})`));
    await flush(out);
  }
} else if (reader === 'wasm') {
  const { readParquet } = await import('parquet-wasm');
  const arrow = await import('apache-arrow');
  for (const f of files) {
    emitFile(out, f, () => {
      const table = arrow.tableFromIPC(readParquet(readFileSync(f)).intoIPCStream());
      return arrowRows(table, arrow);
    });
    await flush(out);
  }
} else if (reader === 'polars') {
  // nodejs-polars reads the file; its Arrow IPC stream goes through the
  // same canonical form as parquet-wasm's.
  // --exclude as for duckdb: the columns are left out of the scan, so
  // Polars decodes none of their pages.
  const { default: pl } = await import('nodejs-polars');
  const arrow = await import('apache-arrow');
  let exclude = [];
  for (const f of files) {
    if (f.startsWith('--exclude=')) {
      exclude = f.slice('--exclude='.length).split(',').filter((c) => c !== '');
      continue;
    }
    emitFile(out, f, () => {
      const df = exclude.length ? pl.scanParquet(f).drop(...exclude).collectSync() : pl.readParquet(f);
      const table = arrow.tableFromIPC(df.writeIPCStream());
      return arrowRows(table, arrow);
    });
    await flush(out);
  }
} else if (reader === 'hyparquet') {
  const { parquetRead } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  // Dates and timestamps tagged exactly (the default parsers make Dates,
  // which lose micro- and nanoseconds); canonPlain prints them.
  const parsers = {
    dateFromDays: (days) => ({ $days: days }),
    timestampFromMilliseconds: (ms) => ({ $nanos: BigInt(ms) * 1000000n }),
    timestampFromMicroseconds: (us) => ({ $nanos: BigInt(us) * 1000n }),
    timestampFromNanoseconds: (ns) => ({ $nanos: BigInt(ns) }),
  };
  for (const f of files) {
    await emitFileAsync(out, f, async () => {
      const b = readFileSync(f);
      const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
      let rows;
      await parquetRead({ file, compressors, parsers, onComplete: (r) => { rows = r; } });
      return rows.map((r) => r.map(canonPlain));
    });
    await flush(out);
  }
} else if (reader === 'parquetjs') {
  const { default: parquetjs } = await import('@dsnp/parquetjs');
  for (const f of files) {
    await emitFileAsync(out, f, async () => {
      const r = await parquetjs.ParquetReader.openFile(f);
      try {
        const names = Object.keys(r.getSchema().fields);
        const c = r.getCursor();
        const rows = [];
        for (let row = await c.next(); row; row = await c.next()) {
          rows.push(names.map((n) => canonParquetjs(row[n])));
        }
        return rows;
      } finally {
        await r.close();
      }
    });
    await flush(out);
  }
} else {
  console.error('usage: node read.mjs duckdb|wasm|hyparquet|parquetjs FILE...');
  process.exit(2);
}
await flush(out);

// arrowRows returns the canonical rows of an apache-arrow table.
function arrowRows(table, arrow) {
  const fields = table.schema.fields;
  const rows = [];
  for (let i = 0; i < table.numRows; i++) rows.push([]);
  fields.forEach((fl, j) => {
    let r = 0;
    for (const d of table.getChild(fl.name).data) {
      for (let i = 0; i < d.length; i++) rows[r++][j] = canonArrow(d, i, arrow);
    }
  });
  return rows;
}

// canonAt is canonArrow for value i of the Vector v, found in the Data
// chunk holding it.
function canonAt(v, i, arrow) {
  let k = i;
  for (const d of v.data) {
    if (k < d.length) return canonArrow(d, k, arrow);
    k -= d.length;
  }
  throw new Error(`arrow dictionary index ${i} past the dictionary's ${v.length} values`);
}

// vectorOf returns a Vector over the apache-arrow Data d, for the values
// canonArrow takes through Vector.get, made once per Data (the cache is
// a property of the function: the script's top level runs before a
// module constant below it would be initialized).
function vectorOf(d, arrow) {
  const cache = (vectorOf.cache ??= new WeakMap());
  let v = cache.get(d);
  if (!v) cache.set(d, v = arrow.makeVector(d));
  return v;
}

// canonArrow converts value i of the apache-arrow Data d, walking the
// Data of nested types and reading times from their buffers as BigInts:
// apache-arrow's own accessors return times as JS numbers, which cannot
// hold every nanosecond or 64-bit value.
function canonArrow(d, i, arrow) {
  if (!d.getValid(i)) return null;
  const { DataType } = arrow;
  const type = d.type;
  if (DataType.isDictionary(type)) return canonAt(d.dictionary, Number(d.values[i]), arrow);
  if (DataType.isTimestamp(type) || DataType.isTime(type) || DataType.isDate(type)) return canonTime(d, i, arrow);
  if (DataType.isList(type) || DataType.isLargeList(type) || DataType.isMap(type)) {
    const child = d.children[0];
    const out = [];
    for (let k = Number(d.valueOffsets[i]); k < Number(d.valueOffsets[i + 1]); k++) {
      if (DataType.isMap(type)) out.push([canonArrow(child.children[0], k, arrow), canonArrow(child.children[1], k, arrow)]);
      else out.push(canonArrow(child, k, arrow));
    }
    // A map's entries sorted by key: their stored order is no part of its
    // value (a copy may store them sorted).
    if (DataType.isMap(type)) return sortEntries(out);
    return out;
  }
  if (DataType.isFixedSizeList(type)) {
    const out = [];
    for (let k = i * type.listSize; k < (i + 1) * type.listSize; k++) out.push(canonArrow(d.children[0], k, arrow));
    return out;
  }
  if (DataType.isStruct(type)) {
    const o = {};
    type.children.forEach((c, ci) => { o[c.name] = canonArrow(d.children[ci], i, arrow); });
    return o;
  }
  const v = vectorOf(d, arrow).get(i);
  if (DataType.isBool(type) || DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return v;
  if (DataType.isInt(type) || DataType.isFloat(type)) return num(v);
  if (DataType.isBinary(type) || DataType.isLargeBinary(type) || DataType.isFixedSizeBinary(type)) return hex(v);
  if (DataType.isDecimal(type)) return arrowDecimal(v, type.scale);
  throw new Error('arrow type not handled: ' + String(type));
}

// canonTime is canonArrow for dates (days since the epoch), timestamps
// and times (nanoseconds), read from the Data's buffer in the type's
// unit: an Int32Array for DATE32 and TIME32, a BigInt64Array for the
// 64-bit types (apache-arrow 21).
function canonTime(d, i, arrow) {
  const { DataType, TimeUnit, DateUnit } = arrow;
  const type = d.type;
  const x = BigInt(d.values[i]);
  if (DataType.isDate(type)) {
    if (type.unit === DateUnit.DAY) return String(x);
    const day = 86400000n;
    return String(x >= 0n ? x / day : -((-x + day - 1n) / day));
  }
  const scale = { [TimeUnit.SECOND]: 1000000000n, [TimeUnit.MILLISECOND]: 1000000n, [TimeUnit.MICROSECOND]: 1000n, [TimeUnit.NANOSECOND]: 1n }[type.unit];
  return String(x * scale);
}

// sortEntries sorts [key, value] entries by their canonical keys.
function sortEntries(es) {
  const key = (e) => JSON.stringify(e[0]);
  return es.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// canonPlain converts hyparquet's plain JS values by their JS type.
function canonPlain(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': case 'string': return v;
    case 'number': case 'bigint': return num(v);
  }
  if (v instanceof Uint8Array) return hex(v);
  if (Array.isArray(v)) return v.map(canonPlain);
  if (typeof v === 'object' && '$days' in v) return String(v.$days);
  if (typeof v === 'object' && '$nanos' in v) return String(v.$nanos);
  if (typeof v === 'object') {
    // Keys sorted: hyparquet reads a MAP as an object in its stored
    // order, which is no part of its value (a copy may store it sorted).
    const o = {};
    for (const [k, x] of Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) o[k] = canonPlain(x);
    return o;
  }
  throw new Error('hyparquet value not handled: ' + typeof v);
}

// canonParquetjs converts parquetjs's values: those of hyparquet's kinds,
// and Dates (timestamps, as nanoseconds since the epoch).
function canonParquetjs(v) {
  if (v instanceof Date) return String(BigInt(v.getTime()) * 1000000n);
  if (Array.isArray(v)) return v.map(canonParquetjs);
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = canonParquetjs(x);
    return o;
  }
  return canonPlain(v);
}
