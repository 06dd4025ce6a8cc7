// node geninterop.mjs read|write duckdb|wasm JOBS.json
//
// The JavaScript side of peers/geninterop (the interop of pqgen's generated
// readers and writers): one node process per peer and direction runs every
// job of JOBS.json.
//
// read: JOBS is [{"path": FILE}]; prints
// each file's rows as the peer reads them, in canonical JSON (canon.mjs;
// intervals as the {"$hex"} of their 12 Parquet bytes, DuckDB's GEOMETRY
// as the {"$hex"} of its WKB, TIMETZ of offset 0 as a time), between
// "#FILE path" and "#END", or "#ERROR message".
//   duckdb  SELECT * FROM read_parquet(FILE)
//   wasm    parquet-wasm readParquet (arrow-rs) -> Arrow IPC -> apache-arrow
// A value of a type the script does not know prints as {"$unsupported": type}
// so that the test reports that field alone.
//
// write: JOBS is [{"src": FILE, "dst": FILE, ...}]; the peer reads src and
// writes the same rows to dst with its own writer ("#FILE dst", "#END", or
// "#ERROR message"):
//   duckdb  COPY (SELECT <select> FROM read_parquet(src)) TO dst
//           (FORMAT parquet, <options>); select defaults to *
//   wasm    writeParquet(readParquet(src), properties of "compression"
//           (a parquet-wasm Compression name), "version" (1 or 2),
//           "dictionary" (boolean), "rowGroupSize" (rows))
import { readFileSync, writeFileSync } from 'node:fs';
import { arrowDecimal, emitFileAsync, flush, hex, intervalHex, num } from './canon.mjs';

const [mode, peer, jobsPath] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsPath, 'utf8'));
const out = [];

if (peer === 'duckdb') {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { duckRows, sqlString } = await import('./duckdb_canon.mjs');
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await inst.connect();
  const unsupported = (v) => ({ $unsupported: v.constructor ? v.constructor.name : typeof v });
  for (const job of jobs) {
    if (mode === 'read') {
      await emitFileAsync(out, job.path, () => duckRows(conn, `SELECT * FROM read_parquet(${sqlString(job.path)})`, unsupported));
    } else {
      await emitFileAsync(out, job.dst, async () => {
        await conn.run(`COPY (SELECT ${job.select || '*'} FROM read_parquet(${sqlString(job.src)})) TO ${sqlString(job.dst)} (FORMAT parquet${job.options ? ', ' + job.options : ''})`);
        return [];
      });
    }
    await flush(out);
  }
} else if (peer === 'wasm') {
  const pw = await import('parquet-wasm');
  const arrow = await import('apache-arrow');
  for (const job of jobs) {
    if (mode === 'read') {
      await emitFileAsync(out, job.path, async () => {
        const table = arrow.tableFromIPC(pw.readParquet(readFileSync(job.path)).intoIPCStream());
        const fields = table.schema.fields;
        const cols = fields.map((fl) => table.getChild(fl.name));
        const rows = [];
        for (let i = 0; i < table.numRows; i++) rows.push(fields.map((fl, j) => canonArrow(cols[j], i, fl.type, arrow)));
        return rows;
      });
    } else {
      await emitFileAsync(out, job.dst, async () => {
        let b = new pw.WriterPropertiesBuilder();
        if (job.compression) b = b.setCompression(pw.Compression[job.compression]);
        if (job.version) b = b.setWriterVersion(job.version === 2 ? pw.WriterVersion.V2 : pw.WriterVersion.V1);
        if (job.dictionary !== undefined) b = b.setDictionaryEnabled(job.dictionary);
        if (job.rowGroupSize) b = b.setMaxRowGroupSize(job.rowGroupSize);
        const table = pw.readParquet(readFileSync(job.src));
        writeFileSync(job.dst, pw.writeParquet(table, b.build()));
        return [];
      });
    }
    await flush(out);
  }
} else {
  console.error('usage: node geninterop.mjs read|write duckdb|wasm JOBS.json');
  process.exit(2);
}
await flush(out);

// chunkOf is the Data chunk of a vector holding slot i, and the slot's
// index in it.
function chunkOf(vec, i) {
  let k = i;
  for (const d of vec.data) {
    if (k < d.length) return [d, k];
    k -= d.length;
  }
  throw new Error('index out of range');
}

// raw is the stored value of slot i of a fixed-width vector (a bigint for
// 64-bit types), without apache-arrow's conversions.
function raw(vec, i) {
  const [d, k] = chunkOf(vec, i);
  return d.values[d.offset + k];
}

// canonArrow converts slot i of an apache-arrow vector of the given type.
function canonArrow(vec, i, type, arrow) {
  const v = vec.get(i);
  if (v === null || v === undefined) return null;
  const { DataType } = arrow;
  if (DataType.isDictionary(type)) return canonValue(v, type.dictionary, arrow);
  if (DataType.isTimestamp(type) || DataType.isTime(type) || DataType.isDate(type)) {
    const x = BigInt(raw(vec, i));
    if (DataType.isDate(type)) return type.unit === arrow.DateUnit.DAY ? String(x) : String(x / 86400000n);
    const mul = [1000000000n, 1000000n, 1000n, 1n][type.unit];
    return String(x * mul);
  }
  if (DataType.isList(type) || DataType.isMap(type)) {
    // Walk the offsets and child vectors: values apache-arrow builds for
    // nested map rows lose their types.
    const [d, k] = chunkOf(vec, i);
    const from = d.valueOffsets[d.offset + k];
    const to = d.valueOffsets[d.offset + k + 1];
    const child = arrow.makeVector(d.children[0]);
    const out = [];
    if (DataType.isList(type)) {
      for (let e = from; e < to; e++) out.push(canonArrow(child, e, type.children[0].type, arrow));
      return out;
    }
    const [kf, vf] = type.children[0].type.children;
    const keys = arrow.makeVector(d.children[0].children[0]);
    const vals = arrow.makeVector(d.children[0].children[1]);
    for (let e = from; e < to; e++) out.push([canonArrow(keys, e, kf.type, arrow), canonArrow(vals, e, vf.type, arrow)]);
    return out;
  }
  if (DataType.isStruct(type)) {
    const o = {};
    for (const c of type.children) o[c.name] = canonArrow(vec.getChild(c.name), i, c.type, arrow);
    return o;
  }
  return canonValue(v, type, arrow);
}

// canonValue converts a leaf value apache-arrow returned.
function canonValue(v, type, arrow) {
  if (v === null || v === undefined) return null;
  const { DataType } = arrow;
  if (DataType.isBool(type) || DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return v;
  if (DataType.isInt(type)) return num(v);
  if (DataType.isFloat(type)) return num(type.precision === arrow.Precision.HALF && typeof v !== 'number' ? Number(v) : v);
  if (DataType.isBinary(type) || DataType.isLargeBinary(type) || DataType.isFixedSizeBinary(type)) return hex(v);
  if (DataType.isDecimal(type)) return arrowDecimal(v, type.scale);
  if (DataType.isInterval(type)) {
    if (v instanceof Int32Array && v.length === 2) return intervalHex(0, v[0], v[1]); // DAY_TIME
    if (typeof v === 'object' && 'months' in v) return intervalHex(v.months, v.days, BigInt(v.nanoseconds) / 1000000n);
    return { $unsupported: String(type) + ' ' + String(v) };
  }
  return { $unsupported: String(type) };
}
