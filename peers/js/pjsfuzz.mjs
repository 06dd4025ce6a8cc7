// node pjsfuzz.mjs SEED COUNT DIR
//
// Has parquetjs (@dsnp/parquetjs) write COUNT files of random schemas and
// random rows into DIR, one per seed from SEED, for peers/genconf's
// TestParquetjsFuzz (pqgen's generated code reads each file and writes the
// rows back; DuckDB judges the copy). The same seed writes the same file.
// Prints one JSON line per file, as writers.mjs does.
//
// A schema has 1 to 6 top-level fields nested up to three deep in groups;
// fields and groups required, optional or repeated (parquetjs writes the
// legacy repeated fields, without LIST); leaves of every type parquetjs
// has but those it writes outside the format (BSON, INT96, RLE integers)
// or converts from floats (DECIMAL), with values in the ranges it writes
// right (UINT_32 and UINT_64 below 2^31 and 2^63). Options: codec per
// column, data page v1 or v2, row group and page sizes, bloom filters on
// top-level leaves.
import parquetjs from '@dsnp/parquetjs';
import { join } from 'node:path';
import { cardinal, fieldNames, fuzzArgs, rand } from './fuzzlib.mjs';

const { ParquetSchema, ParquetWriter } = parquetjs;
const { seed, count, dir } = fuzzArgs('pjsfuzz.mjs');

// A node is {spec(codec): its parquetjs field without repetition, v(): a
// random value, leaf: whether it is a leaf}.
function primitive(r) {
  const u = cardinal(r);
  const specials = r.chance(0.3);
  const float = (f) => () => {
    const x = u();
    if (specials && x % 23 < 3) return [Infinity, -Infinity, -0][x % 23];
    return f(x);
  };
  const day = 86400000;
  const kinds = {
    BOOLEAN: () => u() % 2 === 0,
    INT32: () => (u() % 4294967296) - 2147483648,
    INT64: () => BigInt.asIntN(64, (BigInt(u()) * 2654435761n + BigInt(u())) * 1000003n),
    FLOAT: float((x) => (x % 2000001) / 8 - 125000),
    DOUBLE: float((x) => x / 1e9 - 1000),
    BYTE_ARRAY: () => { const x = u(); return Buffer.from(Array.from({ length: x % 13 }, (_, i) => (x * (i + 1)) & 255)); },
    UTF8: () => { const x = u(); return x % 7 === 0 ? '' : 'é☃ '.repeat(x % 4) + x.toString(36); },
    ENUM: () => ['sad', 'ok', 'happy', 'ecstatic'][u() % 4],
    DATE: () => new Date(((u() % 200000) - 100000) * day),
    TIME_MILLIS: () => u() % day,
    TIME_MICROS: () => BigInt(u()) * 1000003n % 86400000000n,
    TIMESTAMP_MILLIS: () => new Date((u() % 9000000000000) - 4500000000000),
    TIMESTAMP_MICROS: () => new Date((u() % 9000000000000) - 4500000000000),
    UINT_8: () => u() % 256,
    UINT_16: () => u() % 65536,
    UINT_32: () => u() % 2147483648,
    UINT_64: () => BigInt(u()) * 1000003n % 9223372036854775807n,
    INT_8: () => (u() % 256) - 128,
    INT_16: () => (u() % 65536) - 32768,
    INT_32: () => (u() % 4294967296) - 2147483648,
    INT_64: () => BigInt.asIntN(64, BigInt(u()) * -99991n),
    JSON: () => ({ k: u() % 100, a: ['x', u() % 7] }),
    // (parquetjs refuses a zero member)
    INTERVAL: () => ({ months: 1 + (u() % 25), days: 1 + (u() % 31), milliseconds: 1 + (u() % 86400000) }),
  };
  const type = r.pick([...Object.keys(kinds), 'INT32', 'INT64', 'UTF8', 'DOUBLE', 'FIXED_LEN_BYTE_ARRAY']);
  if (type === 'FIXED_LEN_BYTE_ARRAY') {
    const n = 1 + r.int(16);
    return { spec: (c) => ({ type, typeLength: n, ...c }), v: () => { const x = u(); return Buffer.from(Array.from({ length: n }, (_, i) => (x >> (i % 8)) & 255)); }, leaf: true, type };
  }
  return { spec: (c) => ({ type, ...c }), v: kinds[type], leaf: true, type };
}

// field makes node t a field: required, optional (absent at a random
// rate) or repeated (0 to max values).
function field(r, t, depth) {
  const rep = r.pick(['required', 'optional', 'optional', 'repeated']);
  const p = rep === 'optional' ? r.pick([0, 0.1, 0.5, 1]) : 0;
  const max = depth === 0 ? r.pick([2, 5, 20]) : r.pick([2, 3]);
  return {
    rep,
    spec: (c) => ({ ...t.spec(c), ...(rep === 'required' ? {} : { [rep]: true }) }),
    v: () => (rep === 'repeated' ? Array.from({ length: r.int(max + 1) }, t.v) : p > 0 && r.next() < p ? undefined : t.v()),
    leaf: t.leaf,
    type: t.type,
  };
}

function node(r, depth, codec) {
  if (depth < 3 && r.chance(0.3)) {
    const ns = fieldNames(r, 1 + r.int(3));
    const fs = ns.map(() => field(r, node(r, depth + 1, codec), depth + 1));
    return {
      spec: (c) => ({ fields: Object.fromEntries(fs.map((f, i) => [ns[i], f.spec(c)])) }),
      v: () => {
        const o = {};
        fs.forEach((f, i) => {
          const x = f.v();
          if (x !== undefined) o[ns[i]] = x;
        });
        return o;
      },
      leaf: false,
    };
  }
  return primitive(r);
}

for (let n = 0; n < count; n++) {
  const s = seed + n;
  const r = rand(s);
  const file = `pjsfuzz_${s}.parquet`;
  let features = '';
  const t0 = Date.now();
  try {
    const cols = fieldNames(r, 1 + r.int(6));
    const fs = cols.map(() => field(r, node(r, 0), 0));
    const codecs = cols.map(() => r.pick(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI']));
    const schema = new ParquetSchema(Object.fromEntries(fs.map((f, i) => [cols[i], f.spec({ compression: codecs[i] })])));
    const rows = r.pick([0, 1, 10, 300, 2000, 2000, 6000]);
    const opts = { useDataPageV2: r.chance(0.5) };
    if (r.chance(0.5)) opts.rowGroupSize = r.pick([1, 7, 100, 1000]);
    if (rows > 300 && opts.rowGroupSize < 100) opts.rowGroupSize = 1000;
    if (r.chance(0.5)) opts.pageSize = r.pick([10, 64, 512]); // rows
    const blooms = cols.filter((c, i) => fs[i].leaf && fs[i].rep !== 'repeated' && fs[i].type !== 'BOOLEAN' && r.chance(0.3));
    if (blooms.length) opts.bloomFilters = blooms.map((column) => ({ column }));
    features = `${rows} rows of ${JSON.stringify(schema.schema)}; ${JSON.stringify(opts)}`;
    const w = await ParquetWriter.openFile(schema, join(dir, file), opts);
    for (let i = 0; i < rows; i++) {
      const row = {};
      fs.forEach((f, k) => {
        const x = f.v();
        if (x !== undefined) row[cols[k]] = x;
      });
      await w.appendRow(row);
    }
    await w.close();
    process.stdout.write(JSON.stringify({ file, writer: 'parquetjs', features, ms: Date.now() - t0 }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ file, writer: 'parquetjs', features, error: String(e && e.stack ? e.stack : e).split('\n').slice(0, 3).join(' | ') }) + '\n');
  }
}
