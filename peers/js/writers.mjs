// node writers.mjs DIR [ROWS]
//
// Has each writer of this folder write files of every feature it offers
// into DIR, for peers/genconf (pqgen's generated code reads each file and
// writes the rows back; DuckDB judges the copy). Prints one JSON line per
// file: {"file": name, "writer": w, "features": "...", "ms": time taken}, plus
// "footerKey" (ASCII) when the file is encrypted. A writer that fails on
// one of its files prints {"file", "writer", "error"} instead, so that
// the test sees what could not be written.
//
//   duckdb     @duckdb/node-api: one table of every type DuckDB writes
//              (integers of every width, signed and unsigned, HUGEINT,
//              floats, decimals of every physical width, strings, blobs,
//              dates, times (ns too), TIMETZ, timestamps s/ms/us/ns and
//              TZ, INTERVAL, UUID, JSON, ENUM, UNION (a struct with a
//              child named ""), fixed arrays, lists, nested lists,
//              structs, maps, lists of maps of lists of structs, an
//              all-null column; nulls at every level) with every codec
//              and PARQUET_VERSION V1/V2 (see pairs), plus a file without
//              dictionaries, one of 3 row groups with bloom filters and
//              field ids, an empty one, an encrypted one (footer key),
//              and VARIANT and wide INT32 deltas in files of their own;
//              test_all_types() (each type's minimum, maximum and null)
//              twice, and fixed-size arrays null at every level.
//   polars     nodejs-polars: every Polars dtype its JavaScript API builds
//              (no Binary, Enum or Null there), with every codec Polars
//              offers, small row groups and pages.
//   wasm       parquet-wasm (arrow-rs): an Arrow table of every Arrow type
//              apache-arrow builds and arrow-rs writes (Null, intervals
//              and durations included), with every codec, writer version 1 and 2,
//              dictionary on and off, DELTA / BYTE_STREAM_SPLIT encodings.
//   parquetjs  @dsnp/parquetjs: every primitive and converted type it
//              has (legacy ConvertedType-only columns), repeated and
//              nested fields, each codec, data page v1 and v2, PLAIN and
//              RLE, bloom filters.
//   hyparquet  hyparquet-writer: every BasicType, an explicit schema
//              (decimals, dates, times, unsigned, nested lists and
//              structs), codecs (but ZSTD and LZ4_RAW, which need
//              compressors node 20 lacks), encodings, bloom filters,
//              GEOMETRY and GEOGRAPHY, Variant plain and shredded.
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { sqlString } from './duckdb_canon.mjs';

const [dir, rowsArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node writers.mjs DIR [ROWS]');
  process.exit(2);
}
const N = Number(rowsArg || 300);
mkdirSync(dir, { recursive: true });
const only = process.env.WRITERS ? process.env.WRITERS.split(',') : null;

function report(o) {
  process.stdout.write(JSON.stringify(o) + '\n');
}

// attempt writes one file with fn, reporting it or the writer's error.
async function attempt(writer, file, features, fn, extra = {}) {
  const t0 = Date.now();
  try {
    await fn(join(dir, file));
    report({ file, writer, features, ms: Date.now() - t0, ...extra });
  } catch (e) {
    report({ file, writer, features, error: String(e && e.stack ? e.stack : e).split('\n').slice(0, 3).join(' | ') });
  }
}

const range = (n) => Array.from({ length: n }, (_, i) => i);
// pairs gives each codec one page version, taking turns, and the second
// codec (the most used, snappy) both: every codec and every version is
// written, without the whole product (the test's time goes by files).
const pairs = (codecs, versions) => codecs.flatMap((c, i) => (i === 1 ? versions.map((v) => [c, v]) : [[c, versions[i % 2]]]));
// Deterministic helpers shared by the JavaScript writers.
const nul = (i, k) => i % k === 0;
const word = (i) => (i % 4 === 0 ? 'é'.repeat(i % 9) + i : 'w' + (i % 37));
const uuidText = (i) => `${((i * 2654435761) % 4294967296).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

// ---------------------------------------------------------------- DuckDB
async function duckdb() {
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await inst.connect();
  await conn.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'ecstatic')`);
  await conn.run(`CREATE TABLE t AS SELECT
    i::INTEGER AS id,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
    (i * 37 % 65536 - 32768)::SMALLINT AS i16,
    CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 7919 % 2000000 - 1000000)::INTEGER END AS i32,
    (i * 1000003 - 9000000000)::BIGINT AS i64,
    (i * 170141183460469231731687303715884105 - 3)::HUGEINT AS i128,
    (i % 256)::UTINYINT AS u8,
    (i * 31 % 65536)::USMALLINT AS u16,
    CASE WHEN i % 4 = 0 THEN NULL ELSE (4294967295 - i * 977)::UINTEGER END AS u32,
    (18446744073709551615 - i * 1000000007)::UBIGINT AS u64,
    CASE i % 50 WHEN 1 THEN 'nan'::FLOAT WHEN 2 THEN '-0.0'::FLOAT WHEN 3 THEN 'inf'::FLOAT
      WHEN 5 THEN NULL ELSE (i / 8.0 - 100)::FLOAT END AS f32,
    CASE i % 40 WHEN 1 THEN 'nan'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN NULL ELSE sin(i) * 1e6 END AS f64,
    (i % 3 = 0) AS b,
    CASE WHEN i % 9 = 0 THEN NULL WHEN i % 4 = 0 THEN repeat('é', i % 50) || i::VARCHAR ELSE 'w' || (i % 37)::VARCHAR END AS s,
    CASE WHEN i % 11 = 0 THEN NULL ELSE unhex(printf('%04x00ff', i)) END AS bl,
    (((i % 1999) - 999) / 10)::DECIMAL(4, 1) AS dec4,
    CASE WHEN i % 13 = 0 THEN NULL ELSE (((i * 7777 % 10000000) - 5000000) / 100)::DECIMAL(9, 2) END AS dec9,
    (((i * 123456789 % 1000000000000000) - 500000000000000)::DECIMAL(18, 0) / 1000)::DECIMAL(18, 3) AS dec18,
    (i::DECIMAL(38, 10) * 1234567890123.0123456789 - 99999999999999999.5)::DECIMAL(38, 10) AS dec38,
    DATE '1970-01-01' + (i * 17 - 20000)::INTEGER AS dt,
    TIME '00:00:00' + to_microseconds(i * 28800003) AS tm,
    (TIME '00:00:00' + to_microseconds(i * 28800007))::TIME_NS AS tmns,
    (TIME '01:02:03' + to_seconds(i))::TIMETZ AS tmtz,
    CASE WHEN i % 6 = 0 THEN NULL ELSE TIMESTAMP '2001-02-03 04:05:06.789012' + to_microseconds(i * 123456789) END AS ts,
    (TIMESTAMP '1999-12-31 23:59:59' + to_seconds(i * 1000))::TIMESTAMP_S AS ts_s,
    (TIMESTAMP '1999-12-31 23:59:59' + to_seconds(i * 1000))::TIMESTAMP_MS AS ts_ms,
    (TIMESTAMP '2020-01-01' + to_microseconds(i * 999))::TIMESTAMP_NS AS ts_ns,
    (TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_microseconds(i * 777777)) AS tstz,
    to_months(i % 25) + to_days(i % 31) + to_milliseconds(i * 1001) AS iv,
    printf('%08x-0000-4000-8000-%012x', i * 2654435761 % 4294967296, i)::UUID AS u,
    CASE WHEN i % 10 = 0 THEN NULL ELSE json_object('k', i, 'a', [i::VARCHAR, 'x']) END AS js,
    (['sad', 'ok', 'happy', 'ecstatic'])[i % 4 + 1]::mood AS e,
    [i::INTEGER, -i::INTEGER, NULL]::INTEGER[3] AS arr,
    CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[] WHEN 2 THEN [i::INTEGER, NULL, -i::INTEGER] ELSE [i::INTEGER] END AS l,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [[]::VARCHAR[], NULL] WHEN 2 THEN [['a' || i::VARCHAR, NULL], ['b']]
      ELSE [NULL::VARCHAR[]] END AS ll,
    CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i::INTEGER END,
      'b': CASE WHEN i % 2 = 0 THEN ['x', NULL] ELSE NULL END, 'c': {'x': i / 3}} END AS st,
    CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN MAP {}::MAP(VARCHAR, INTEGER)
      ELSE MAP {'k' || i::VARCHAR: i::INTEGER, 'z': NULL::INTEGER} END AS m,
    MAP {i::BIGINT: [i::DOUBLE], -i::BIGINT - 1: NULL::DOUBLE[]} AS mi,
    CASE i % 3 WHEN 0 THEN (i::INTEGER)::UNION(num INTEGER, str VARCHAR) WHEN 1 THEN ('s' || i::VARCHAR)::UNION(num INTEGER, str VARCHAR)
      ELSE NULL END AS un,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN []
      ELSE [{'x': i::INTEGER, 'y': 'y' || i::VARCHAR}, NULL, {'x': NULL::INTEGER, 'y': NULL::VARCHAR}] END AS ls,
    NULL::INTEGER AS allnull,
    CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [MAP {'a': [{'x': i, 'y': [i::SMALLINT, NULL]}], 'b': NULL}, NULL] END AS deep
  FROM range(${N}) r(i)`);
  const copy = (path, opts) => conn.run(`COPY t TO ${sqlString(path)} (FORMAT parquet, ${opts})`);
  for (const [codec, v] of pairs(['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4', 'lz4_raw'], ['v1', 'v2'])) {
    await attempt('duckdb', `duckdb_${codec}_${v}.parquet`, `every type, ${codec}, PARQUET_VERSION ${v}`,
      (p) => copy(p, `COMPRESSION ${codec}, PARQUET_VERSION ${v}`));
  }
  await attempt('duckdb', 'duckdb_all_types.parquet', "DuckDB's test_all_types(): each type's minimum, maximum and null",
    (p) => conn.run(`COPY (FROM test_all_types()) TO ${sqlString(p)} (FORMAT parquet)`));
  await attempt('duckdb', 'duckdb_all_types_v2.parquet', "DuckDB's test_all_types(), zstd, PARQUET_VERSION V2, no dictionary",
    (p) => conn.run(`COPY (FROM test_all_types()) TO ${sqlString(p)} (FORMAT parquet, COMPRESSION zstd, PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 1)`));
  await conn.run(`CREATE TABLE arrs AS SELECT i::INTEGER AS id,
    (CASE WHEN i % 4 = 3 THEN NULL ELSE [i, NULL] END)::INTEGER[2] AS a,
    (CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL, [i, 1]] ELSE [[i, NULL], NULL, [1, 2]] END)::INTEGER[2][] AS la,
    (CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN MAP {'k': NULL, 'j': [i, i]} ELSE MAP {'k': [1, NULL]} END)::MAP(VARCHAR, INTEGER[2]) AS ma,
    (CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [{'x': NULL, 'y': 's'}] ELSE [{'x': [i, i, i], 'y': NULL}, NULL] END)::STRUCT(x INTEGER[3], y VARCHAR)[] AS ls,
    (CASE WHEN i % 2 = 0 THEN NULL ELSE [['a', NULL], NULL] END)::VARCHAR[2][2] AS aa
    FROM range(${N}) r(i)`);
  await attempt('duckdb', 'duckdb_arrays.parquet', 'fixed-size arrays, null at every level, in lists, maps and structs',
    (p) => conn.run(`COPY arrs TO ${sqlString(p)} (FORMAT parquet)`));
  await attempt('duckdb', 'duckdb_empty.parquet', 'every type, no rows', (p) => conn.run(`COPY (FROM t LIMIT 0) TO ${sqlString(p)} (FORMAT parquet)`));
  await attempt('duckdb', 'duckdb_nodict.parquet', 'every type, no dictionary (DICTIONARY_SIZE_LIMIT 1)',
    (p) => copy(p, 'COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1, STRING_DICTIONARY_PAGE_SIZE_LIMIT 1'));
  // DuckDB's row groups hold at least 2048 rows (ROW_GROUP_SIZE is
  // rounded up): this file repeats the table 16 times for 3 of them.
  await attempt('duckdb', 'duckdb_bloom.parquet', 'every type, 3 row groups, dictionaries with bloom filters (BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01), field ids, key-value metadata',
    (p) => conn.run(`COPY (SELECT t.* FROM range(16) r(k), t ORDER BY k, id) TO ${sqlString(p)} (FORMAT parquet, COMPRESSION snappy,
      BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01, ROW_GROUP_SIZE 2048, FIELD_IDS 'auto', KV_METADATA {origin: 'writers.mjs'})`));
  // VARIANT in a file of its own: DuckDB writes objects whose fields are
  // not sorted by key (a deviation, issue 13 §2).
  await conn.run(`CREATE TABLE v AS SELECT i::INTEGER AS id,
    CASE i % 5 WHEN 0 THEN NULL::VARIANT WHEN 1 THEN (i * 3)::VARIANT WHEN 2 THEN ('v' || i::VARCHAR)::VARIANT
      WHEN 3 THEN {'z': i, 'a': 'x' || i::VARCHAR}::VARIANT ELSE [i, i + 1]::VARIANT END AS va
    FROM range(${N}) r(i)`);
  // INT32 and UINTEGER deltas of more than 31 bits with PARQUET_VERSION
  // V2: DuckDB packs them with bit width 33 (a deviation, issue 13 §2).
  await conn.run(`CREATE TABLE w AS SELECT i::INTEGER AS id,
    CASE WHEN i % 2 = 0 THEN 2147483647 - i ELSE -2147483648 + i END::INTEGER AS i32,
    CASE WHEN i % 2 = 0 THEN 4294967295 - i ELSE i END::UINTEGER AS u32 FROM range(${N}) r(i)`);
  await attempt('duckdb', 'duckdb_delta_wide.parquet', 'INT32 and UINT32 deltas wider than 32 bits, PARQUET_VERSION V2',
    (p) => conn.run(`COPY w TO ${sqlString(p)} (FORMAT parquet, PARQUET_VERSION v2)`));
  await attempt('duckdb', 'duckdb_variant.parquet', 'VARIANT: numbers, strings, objects, arrays, nulls',
    (p) => conn.run(`COPY v TO ${sqlString(p)} (FORMAT parquet)`));
  const key = '0123456789abcdef';
  // DuckDB writes encrypted files only with httpfs's crypto module or
  // this setting (its built-in AES: fine for a test file).
  await conn.run(`SET force_mbedtls_unsafe = 'true'`);
  await conn.run(`PRAGMA add_parquet_key('k', ${sqlString(key)})`);
  await attempt('duckdb', 'duckdb_encrypted.parquet', 'every type, encrypted footer and columns (footer key)',
    (p) => copy(p, `ENCRYPTION_CONFIG {footer_key: 'k'}`), { footerKey: key });
}

// ---------------------------------------------------------------- Polars
async function polars() {
  const pl = (await import('nodejs-polars')).default;
  const opt = (k, f) => range(N).map((i) => (nul(i, k) ? null : f(i)));
  const df = pl.DataFrame([
    pl.Series('id', range(N), pl.Int64),
    pl.Series('i8', opt(7, (i) => (i % 256) - 128), pl.Int8),
    pl.Series('i16', range(N).map((i) => ((i * 37) % 65536) - 32768), pl.Int16),
    pl.Series('i32', opt(5, (i) => ((i * 7919) % 2000000) - 1000000), pl.Int32),
    pl.Series('i64', range(N).map((i) => BigInt(i) * 1000000007n - 9000000000n), pl.Int64),
    pl.Series('u8', range(N).map((i) => i % 256), pl.UInt8),
    pl.Series('u16', range(N).map((i) => (i * 31) % 65536), pl.UInt16),
    pl.Series('u32', opt(4, (i) => 4294967295 - i * 977), pl.UInt32),
    pl.Series('u64', range(N).map((i) => 18446744073709551615n - BigInt(i) * 1000000007n), pl.UInt64),
    pl.Series('f32', opt(6, (i) => i / 8 - 100), pl.Float32),
    pl.Series('f64', range(N).map((i) => (i % 40 === 1 ? NaN : i % 40 === 2 ? -0 : Math.sin(i) * 1e6)), pl.Float64),
    pl.Series('b', opt(3, (i) => i % 2 === 0), pl.Bool),
    pl.Series('s', opt(9, word), pl.Utf8),
    pl.Series('cat', range(N).map((i) => ['red', 'green', 'blue'][i % 3]), pl.Categorical),
    pl.Series('dt', opt(8, (i) => new Date(Date.UTC(1970, 0, 1) + (i * 17 - 2000) * 86400000)), pl.Date),
    pl.Series('ts_ms', range(N).map((i) => new Date(946684799000 + i * 1000003)), pl.Datetime('ms')),
    pl.Series('ts_us', opt(6, (i) => new Date(981173106000 + i * 123457)), pl.Datetime('us')),
    pl.Series('ts_ns', range(N).map((i) => new Date(1577836800000 + i * 999)), pl.Datetime('ns')),
    pl.Series('ts_tz', range(N).map((i) => new Date(1577836800000 + i * 777)), pl.Datetime('us', 'UTC')),
    pl.Series('l', range(N).map((i) => (i % 4 === 0 ? null : i % 4 === 1 ? [] : [i, -i, i * 2])), pl.List(pl.Int32)),
    pl.Series('ll', range(N).map((i) => (i % 5 === 0 ? null : [['a' + i, 'b'], [], ['c']])), pl.List(pl.List(pl.Utf8))),
    pl.Series('dur', opt(7, (i) => BigInt(i) * 1000003n - 7n), pl.Duration('ms')),
    pl.Series('fsl', range(N).map((i) => [i, -i / 2]), pl.FixedSizeList(pl.Float64, 2)),
    pl.Series('lb', range(N).map((i) => (i % 4 === 0 ? null : [i % 3 === 0, null, true].slice(i % 3))), pl.List(pl.Bool)),
    pl.Series('ts_tokyo', range(N).map((i) => new Date(1000000000000 + i * 3600007)), pl.Datetime('ms', 'Asia/Tokyo')),
    pl.Series('fsls', range(N).map((i) => ['a' + (i % 5), 'b' + i]), pl.FixedSizeList(pl.Utf8, 2)),
    pl.Series('stl', range(N).map((i) => ({ l: range(i % 3).map((k) => i * k), s: { x: i % 2 ? null : 'x' + i } })),
      pl.Struct([new pl.Field('l', pl.List(pl.Int64)), new pl.Field('s', pl.Struct([new pl.Field('x', pl.Utf8)]))])),
    pl.Series('st', range(N).map((i) => ({ a: i % 3 === 0 ? null : i, b: 'b' + (i % 7) })), pl.Struct([new pl.Field('a', pl.Int32), new pl.Field('b', pl.Utf8)])),
  ]).withColumns(
    pl.col('i32').cast(pl.Decimal(12, 3)).alias('dec'),
    pl.col('f64').cast(pl.Decimal(38, 6)).alias('dec38'),
    pl.col('ts_us').cast(pl.Time).alias('tm'),
    // A list of structs (the JavaScript API builds none from values).
    pl.concatList([pl.col('st'), pl.col('st')]).alias('lst'),
  );
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'brotli', 'lz4', 'zstd']) {
    await attempt('polars', `polars_${codec}.parquet`, `every Polars dtype, ${codec}`,
      (p) => df.writeParquet(p, { compression: codec }));
  }
  // Arrays (FixedSizeList) with null arrays, alone and in a list.
  const arrs = pl.DataFrame([pl.Series('id', range(N), pl.Int32), pl.Series('l', range(N).map((i) => [i, -i]), pl.List(pl.Int32))])
    .withColumns(pl.when(pl.col('id').modulo(3).eq(0)).then(pl.lit(null)).otherwise(pl.col('l')).cast(pl.FixedSizeList(pl.Int32, 2)).alias('a'))
    .withColumns(pl.concatList([pl.col('a'), pl.col('a')]).alias('la'));
  await attempt('polars', 'polars_arrays.parquet', 'Array (FixedSizeList) columns with null arrays, alone and in a list',
    (p) => arrs.writeParquet(p));
  await attempt('polars', 'polars_empty.parquet', 'every Polars dtype, no rows', (p) => df.head(0).writeParquet(p));
  await attempt('polars', 'polars_sink.parquet', 'every Polars dtype, sinkParquet, row groups of 128, 4 KiB pages, full statistics',
    async (p) => {
      const r = df.lazy().sinkParquet(p, { compression: 'zstd', rowGroupSize: 128, dataPagesizeLimit: 4096, statistics: 'full' });
      if (r && typeof r.collect === 'function') await r.collect();
      else await r;
    });
}

// ---------------------------------------------------------------- parquet-wasm
async function wasm() {
  const pw = await import('parquet-wasm');
  const a = await import('apache-arrow');
  const vec = (type, values) => a.vectorFromArray(values, type);
  const opt = (k, f) => range(N).map((i) => (nul(i, k) ? null : f(i)));
  const cols = {
    id: vec(new a.Int64(), range(N).map(BigInt)),
    i8: vec(new a.Int8(), opt(7, (i) => (i % 256) - 128)),
    i16: vec(new a.Int16(), range(N).map((i) => ((i * 37) % 65536) - 32768)),
    i32: vec(new a.Int32(), opt(5, (i) => ((i * 7919) % 2000000) - 1000000)),
    i64: vec(new a.Int64(), range(N).map((i) => BigInt(i) * 1000000007n - 9000000000n)),
    u8: vec(new a.Uint8(), range(N).map((i) => i % 256)),
    u16: vec(new a.Uint16(), range(N).map((i) => (i * 31) % 65536)),
    u32: vec(new a.Uint32(), opt(4, (i) => 4294967295 - i * 977)),
    u64: vec(new a.Uint64(), range(N).map((i) => 18446744073709551615n - BigInt(i) * 1000000007n)),
    f16: vec(new a.Float16(), opt(9, (i) => i / 4 - 50)),
    f32: vec(new a.Float32(), opt(6, (i) => (i % 50 === 1 ? NaN : i / 8 - 100))),
    f64: vec(new a.Float64(), range(N).map((i) => (i % 40 === 2 ? -0 : Math.sin(i) * 1e6))),
    b: vec(new a.Bool(), opt(3, (i) => i % 2 === 0)),
    s: vec(new a.Utf8(), opt(9, word)),
    ls: vec(new a.LargeUtf8(), range(N).map(word)),
    bin: vec(new a.Binary(), opt(11, (i) => Uint8Array.of(i & 255, 0, 255, i >> 8))),
    lbin: vec(new a.LargeBinary(), range(N).map((i) => Uint8Array.of(i & 255, 1))),
    fsb: vec(new a.FixedSizeBinary(3), range(N).map((i) => Uint8Array.of(i & 255, 2, 3))),
    dict: vec(new a.Dictionary(new a.Utf8(), new a.Int32()), range(N).map((i) => ['red', 'green', 'blue'][i % 3])),
    dicti: vec(new a.Dictionary(new a.Int64(), new a.Int8()), opt(5, (i) => BigInt((i % 4) * 1000000007))),
    sview: vec(new a.Utf8View(), opt(6, word)),
    bview: vec(new a.BinaryView(), range(N).map((i) => Uint8Array.of(i & 255, 7, (i * 3) & 255))),
    llist: vec(new a.LargeList(new a.Field('item', new a.Int16(), true)), range(N).map((i) => (i % 3 === 0 ? null : [i % 100, null]))),
    d32: vec(new a.DateDay(), opt(8, (i) => Date.UTC(1970, 0, 1) + (i * 17 - 2000) * 86400000)),
    d64: vec(new a.DateMillisecond(), range(N).map((i) => Date.UTC(2000, 0, 1) + i * 86400000)),
    t32s: vec(new a.TimeSecond(), range(N).map((i) => (i * 97) % 86400)),
    t32ms: vec(new a.TimeMillisecond(), range(N).map((i) => (i * 97003) % 86400000)),
    t64us: vec(new a.TimeMicrosecond(), range(N).map((i) => BigInt((i * 97000003) % 86400000000))),
    t64ns: vec(new a.TimeNanosecond(), opt(10, (i) => BigInt(i) * 97000000003n % 86400000000000n)),
    tss: vec(new a.TimestampSecond(), range(N).map((i) => 946684799000 + i * 1000000)),
    tsms: vec(new a.TimestampMillisecond(), range(N).map((i) => 946684799000 + i * 1003)),
    tsus: vec(new a.TimestampMicrosecond(), opt(6, (i) => 981173106000 + i * 123)),
    tsns: vec(new a.TimestampNanosecond(), range(N).map((i) => 1577836800000 + i)),
    tstz: vec(new a.TimestampMicrosecond('UTC'), range(N).map((i) => 1577836800000 + i * 7)),
    l: vec(new a.List(new a.Field('item', new a.Int32(), true)), range(N).map((i) => (i % 4 === 0 ? null : i % 4 === 1 ? [] : [i, null, -i]))),
    ll: vec(new a.List(new a.Field('item', new a.List(new a.Field('item', new a.Utf8(), true)), true)),
      range(N).map((i) => (i % 5 === 0 ? null : [['a' + i, null], [], null]))),
    fsl: vec(new a.FixedSizeList(2, new a.Field('item', new a.Float64(), true)), range(N).map((i) => [i, -i])),
    fsln: vec(new a.FixedSizeList(2, new a.Field('item', new a.Int32(), true)), range(N).map((i) => (i % 3 === 0 ? null : [i, i % 2 ? null : -i]))),
    stst: vec(new a.Struct([new a.Field('a', new a.Struct([new a.Field('b', new a.Int32(), true)]), true)]),
      range(N).map((i) => (i % 5 === 0 ? null : { a: i % 3 === 0 ? null : { b: i % 2 ? null : i } }))),
    st: vec(new a.Struct([new a.Field('x', new a.Int32(), true), new a.Field('y', new a.Utf8(), true),
      new a.Field('z', new a.List(new a.Field('item', new a.Int64(), true)), true)]),
    range(N).map((i) => (i % 8 === 0 ? null : { x: i % 3 === 0 ? null : i, y: 'y' + i, z: i % 2 ? [BigInt(i)] : null }))),
    lst: vec(new a.List(new a.Field('item', new a.Struct([new a.Field('k', new a.Utf8(), false), new a.Field('v', new a.Float64(), true)]), true)),
      range(N).map((i) => (i % 6 === 0 ? null : range(i % 3).map((k) => (k === 2 ? null : { k: 'k' + k, v: k % 2 ? null : i * k }))))),
    mi: vec(new a.Map_(new a.Field('entries', new a.Struct([new a.Field('key', new a.Int64(), false),
      new a.Field('value', new a.List(new a.Field('item', new a.Utf8(), true)), true)]), false)),
    range(N).map((i) => new Map(range(i % 4).map((k) => [BigInt(i * 10 + k), k === 1 ? null : ['a', 'b' + k]])))),
    m: vec(new a.Map_(new a.Field('entries', new a.Struct([new a.Field('key', new a.Utf8(), false), new a.Field('value', new a.Int32(), true)]), false)),
      range(N).map((i) => (i % 6 === 0 ? null : new Map(i % 6 === 1 ? [] : [['k' + i, i], ['z', null]])))),
  };
  // Decimals: apache-arrow builds them from unscaled 32-bit words.
  const decimal = (precision, scale, bitWidth, f) => {
    const words = bitWidth / 32;
    const data = new Uint32Array(N * words);
    for (let i = 0; i < N; i++) {
      let v = BigInt.asUintN(bitWidth, f(i));
      for (let w = 0; w < words; w++) {
        data[i * words + w] = Number(v & 0xffffffffn);
        v >>= 32n;
      }
    }
    return a.makeVector(a.makeData({ type: new a.Decimal(scale, precision, bitWidth), length: N, data }));
  };
  cols.dec9 = decimal(9, 2, 128, (i) => BigInt(i * 7777 - 5000000));
  cols.dec18 = decimal(18, 3, 128, (i) => BigInt(i) * 123456789012n - 5000000000000n);
  cols.dec38 = decimal(38, 10, 128, (i) => BigInt(i) * 12345678901234567890123n - 99999999999999999999n);
  cols.dec76 = decimal(76, 20, 256, (i) => BigInt(i) * 123456789012345678901234567890123n - 7n);
  const table = new a.Table(cols);
  const ipc = a.tableToIPC(table, 'stream');
  const write = (p, props) => writeFileSync(p, pw.writeParquet(pw.Table.fromIPCStream(ipc), props.build()));
  for (const [codec, v] of pairs(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW'], [1, 2])) {
    await attempt('wasm', `wasm_${codec.toLowerCase()}_v${v}.parquet`, `every Arrow type, ${codec}, writer version ${v}, row groups of 150`,
      (p) => write(p, new pw.WriterPropertiesBuilder().setCompression(pw.Compression[codec])
        .setWriterVersion(v === 2 ? pw.WriterVersion.V2 : pw.WriterVersion.V1).setMaxRowGroupSize(150)));
  }
  // Null (arrow-rs writes INT32 with the UNKNOWN logical type), both
  // intervals (INTERVAL) and a duration (INT64) in a file of their own:
  // hyparquet has no INTERVAL.
  const extra = new a.Table({
    id: cols.id,
    nul: vec(new a.Null(), range(N).map(() => null)),
    ivdt: a.makeVector(a.makeData({ type: new a.IntervalDayTime(), length: N, data: Int32Array.from(range(2 * N), (k) => k * 7 - 300) })),
    ivym: a.makeVector(a.makeData({ type: new a.IntervalYearMonth(), length: N, data: Int32Array.from(range(N), (k) => k - 100) })),
    dur: vec(new a.DurationMillisecond(), range(N).map((i) => BigInt(i) * 1000003n - 5n)),
  });
  await attempt('wasm', 'wasm_interval.parquet', 'Null, IntervalDayTime, IntervalYearMonth, Duration',
    (p) => writeFileSync(p, pw.writeParquet(pw.Table.fromIPCStream(a.tableToIPC(extra, 'stream')), new pw.WriterPropertiesBuilder().build())));
  await attempt('wasm', 'wasm_empty.parquet', 'every Arrow type, no rows',
    (p) => writeFileSync(p, pw.writeParquet(pw.Table.fromIPCStream(a.tableToIPC(table.slice(0, 0), 'stream')), new pw.WriterPropertiesBuilder().build())));
  await attempt('wasm', 'wasm_dict_fallback.parquet', 'every Arrow type, dictionaries of at most 256 bytes (falling back to PLAIN within a chunk), 512-byte pages',
    (p) => write(p, new pw.WriterPropertiesBuilder().setDictionaryPageSizeLimit(256).setDataPageSizeLimit(512).setWriteBatchSize(32)));
  await attempt('wasm', 'wasm_plain.parquet', 'every Arrow type, no dictionary, PLAIN, page statistics, 1 KiB pages',
    (p) => write(p, new pw.WriterPropertiesBuilder().setDictionaryEnabled(false).setEncoding(pw.Encoding.PLAIN)
      .setStatisticsEnabled(pw.EnabledStatistics.Page).setDataPageSizeLimit(1024).setWriteBatchSize(64)));
  let delta = new pw.WriterPropertiesBuilder().setDictionaryEnabled(false).setWriterVersion(pw.WriterVersion.V2).setCompression(pw.Compression.ZSTD);
  for (const c of ['id', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'd32', 'tsms', 'tsns', 't64ns']) delta = delta.setColumnEncoding(c, pw.Encoding.DELTA_BINARY_PACKED);
  for (const c of ['s', 'bin']) delta = delta.setColumnEncoding(c, pw.Encoding.DELTA_BYTE_ARRAY);
  delta = delta.setColumnEncoding('ls', pw.Encoding.DELTA_LENGTH_BYTE_ARRAY);
  for (const c of ['f32', 'f64', 'fsb']) delta = delta.setColumnEncoding(c, pw.Encoding.BYTE_STREAM_SPLIT);
  await attempt('wasm', 'wasm_delta.parquet', 'every Arrow type, DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT',
    (p) => write(p, delta));
}

// ---------------------------------------------------------------- parquetjs
async function parquetjs() {
  const { ParquetSchema, ParquetWriter } = (await import('@dsnp/parquetjs')).default;
  const fields = (codec) => {
    const c = { compression: codec };
    return {
      id: { type: 'INT64', ...c },
      b: { type: 'BOOLEAN', optional: true, ...c },
      i32: { type: 'INT32', ...c },
      i64: { type: 'INT64', optional: true, ...c },
      i96: { type: 'INT96', optional: true, ...c },
      f: { type: 'FLOAT', ...c },
      d: { type: 'DOUBLE', optional: true, ...c },
      ba: { type: 'BYTE_ARRAY', optional: true, ...c },
      fl: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 4, ...c },
      s: { type: 'UTF8', optional: true, ...c },
      en: { type: 'ENUM', ...c },
      tmms: { type: 'TIME_MILLIS', ...c },
      tmus: { type: 'TIME_MICROS', optional: true, ...c },
      dt: { type: 'DATE', ...c },
      tsms: { type: 'TIMESTAMP_MILLIS', optional: true, ...c },
      tsus: { type: 'TIMESTAMP_MICROS', ...c },
      u8: { type: 'UINT_8', ...c },
      u16: { type: 'UINT_16', ...c },
      u32: { type: 'UINT_32', optional: true, ...c },
      u64: { type: 'UINT_64', ...c },
      s8: { type: 'INT_8', ...c },
      s16: { type: 'INT_16', ...c },
      s32: { type: 'INT_32', ...c },
      s64: { type: 'INT_64', optional: true, ...c },
      js: { type: 'JSON', optional: true, ...c },
      iv: { type: 'INTERVAL', optional: true, ...c },
      dec32: { type: 'DECIMAL', precision: 9, scale: 2, primitiveType: 'INT32', optional: true, ...c },
      dec64: { type: 'DECIMAL', precision: 18, scale: 4, primitiveType: 'INT64', ...c },
      tags: { type: 'UTF8', repeated: true, ...c },
      nums: { type: 'INT32', repeated: true, ...c },
      pt: { optional: true, fields: { x: { type: 'DOUBLE', ...c }, y: { type: 'DOUBLE', optional: true, ...c }, label: { type: 'UTF8', optional: true, ...c } } },
      items: { repeated: true, fields: { name: { type: 'UTF8', ...c }, qty: { type: 'INT32', optional: true, ...c },
        sub: { repeated: true, fields: { k: { type: 'UTF8', ...c } } } } },
    };
  };
  const row = (i) => {
    const r = {
      id: BigInt(i), i32: i * 7919 - 1000000, f: i / 8 - 100, fl: Buffer.from([i & 255, 1, 2, 3]),
      en: ['sad', 'ok', 'happy'][i % 3], tmms: (i * 97003) % 86400000, dt: new Date(Date.UTC(1970, 0, 1) + (i * 17) * 86400000),
      tsus: new Date(981173106000 + i * 123457), u8: i % 256, u16: (i * 31) % 65536, u64: 9223372036854775807n - BigInt(i) * 1000000007n, // parquetjs writes UINT_64 signed
      s8: (i % 256) - 128, s16: ((i * 37) % 65536) - 32768, s32: i * 3 - 700, dec64: i * 12.3456 - 500, // parquetjs scales a number
      tags: range(i % 4).map((k) => 't' + k + '_' + i), nums: range(i % 3).map((k) => k * i),
      items: range(i % 3).map((k) => ({ name: 'n' + k, qty: k === 1 ? undefined : k * i, sub: range(k).map((j) => ({ k: 'k' + j })) })),
    };
    if (!nul(i, 3)) r.b = i % 2 === 0;
    if (!nul(i, 5)) r.i64 = BigInt(i) * 1000000007n - 9000000000n;
    if (!nul(i, 7)) r.i96 = i * 86400000 + 12345;
    if (!nul(i, 4)) r.d = Math.sin(i) * 1e6;
    if (!nul(i, 11)) r.ba = Buffer.from([i & 255, 0, 255]);
    if (!nul(i, 9)) r.s = word(i);
    if (!nul(i, 6)) r.tmus = BigInt((i * 97000003) % 86400000000);
    if (!nul(i, 8)) r.tsms = new Date(946684799000 + i * 1000003);
    if (!nul(i, 4)) r.u32 = 2147483647 - i * 977; // parquetjs writes UINT_32 with writeInt32LE
    if (!nul(i, 5)) r.s64 = BigInt(i) * -99991n;
    if (!nul(i, 10)) r.js = { k: i, a: [i, 'x'] };
    if (!nul(i, 13)) r.iv = { months: i % 25 + 1, days: i % 31 + 1, milliseconds: i * 1001 + 1 };
    if (!nul(i, 6)) r.dec32 = (i * 7777 - 500000) / 100;
    if (!nul(i, 8)) r.pt = { x: i, ...(i % 3 ? { y: -i } : {}), ...(i % 2 ? { label: 'p' + i } : {}) };
    return r;
  };
  const write = async (p, codec, opts) => {
    const w = await ParquetWriter.openFile(new ParquetSchema(fields(codec)), p, { rowGroupSize: 150, ...opts });
    for (const i of range(N)) await w.appendRow(row(i));
    await w.close();
  };
  for (const [codec, v] of pairs(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI'], ['v1', 'v2'])) {
    await attempt('parquetjs', `parquetjs_${codec.toLowerCase()}_${v}.parquet`, `every type, ${codec}, data page ${v}, row groups of 150`,
      (p) => write(p, codec, { useDataPageV2: v === 'v2' }));
  }
  // BSON in a file of its own: neither DuckDB nor hyparquet reads it.
  await attempt('parquetjs', 'parquetjs_bson.parquet', 'BSON', async (p) => {
    const w = await ParquetWriter.openFile(new ParquetSchema({ id: { type: 'INT32' }, bs: { type: 'BSON', optional: true } }), p);
    for (const i of range(N)) await w.appendRow(nul(i, 12) ? { id: i } : { id: i, bs: { k: i, s: 'x' + i } });
    await w.close();
  });
  // RLE values in a file of their own: parquetjs writes them for INT32,
  // where the format has RLE for booleans only.
  await attempt('parquetjs', 'parquetjs_rle.parquet', 'RLE (bit width 8) for an INT32 UINT_8 column', async (p) => {
    const w = await ParquetWriter.openFile(new ParquetSchema({ id: { type: 'INT32' }, u8: { type: 'UINT_8', encoding: 'RLE', typeLength: 8 } }), p);
    for (const i of range(N)) await w.appendRow({ id: i, u8: i % 256 });
    await w.close();
  });
  await attempt('parquetjs', 'parquetjs_bloom.parquet', 'every type, bloom filters, small pages',
    (p) => write(p, 'SNAPPY', { pageSize: 512, bloomFilters: [{ column: 's' }, { column: 'id', numFilterBytes: 1024 }, { column: 'i32', falsePositiveRate: 0.01 }] }));
}

// ---------------------------------------------------------------- hyparquet-writer
async function hyparquet() {
  const hw = await import('hyparquet-writer');
  const opt = (k, f) => range(N).map((i) => (nul(i, k) ? null : f(i)));
  const basic = () => [
    { name: 'id', data: range(N).map(BigInt), type: 'INT64', nullable: false },
    { name: 'b', data: opt(3, (i) => i % 2 === 0), type: 'BOOLEAN' },
    { name: 'i32', data: opt(5, (i) => i * 7919 - 1000000), type: 'INT32' },
    { name: 'i64', data: range(N).map((i) => BigInt(i) * 1000000007n - 9000000000n), type: 'INT64', nullable: false },
    { name: 'f', data: opt(6, (i) => i / 8 - 100), type: 'FLOAT' },
    { name: 'd', data: range(N).map((i) => (i % 40 === 1 ? NaN : Math.sin(i) * 1e6)), type: 'DOUBLE' },
    { name: 'ba', data: opt(11, (i) => Uint8Array.of(i & 255, 0, 255)), type: 'BYTE_ARRAY' },
    { name: 's', data: opt(9, word), type: 'STRING' },
    { name: 'js', data: opt(10, (i) => ({ k: i, a: [i, 'x'] })), type: 'JSON' },
    { name: 'ts', data: opt(8, (i) => new Date(946684799000 + i * 1000003)), type: 'TIMESTAMP' },
    { name: 'u', data: opt(7, uuidText), type: 'UUID' },
    { name: 'h', data: opt(4, (i) => i / 4 - 50), type: 'FLOAT16' },
  ];
  // hyparquet-writer has SNAPPY built in and takes the others as
  // functions; node 20's zlib has GZIP and BROTLI (ZSTD from node 22.15,
  // LZ4 never).
  const compressors = { GZIP: (b) => new Uint8Array(gzipSync(b)), BROTLI: (b) => new Uint8Array(brotliCompressSync(b)) };
  for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI']) {
    await attempt('hyparquet', `hyparquet_${codec.toLowerCase()}.parquet`, `every BasicType, ${codec}, row groups of 150`,
      (p) => hw.parquetWriteFile({ filename: p, columnData: basic(), codec, compressors, rowGroupSize: 150 }));
  }
  await attempt('hyparquet', 'hyparquet_empty.parquet', 'every BasicType, no rows',
    (p) => hw.parquetWriteFile({ filename: p, columnData: basic().map((c) => ({ ...c, data: c.data.slice(0, 0) })) }));
  await attempt('hyparquet', 'hyparquet_encodings.parquet', 'BasicTypes with DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, dictionaries capped at 64 bytes, column indexes, bloom filters, row groups of 100 then 300',
    (p) => hw.parquetWriteFile({
      filename: p, rowGroupSize: [100, 300], pageSize: 1024, dictionarySize: 64, columnData: basic().map((c) => {
        const enc = { id: 'DELTA_BINARY_PACKED', i32: 'DELTA_BINARY_PACKED', i64: 'DELTA_BINARY_PACKED', s: 'DELTA_BYTE_ARRAY', ba: 'DELTA_LENGTH_BYTE_ARRAY', f: 'BYTE_STREAM_SPLIT', d: 'BYTE_STREAM_SPLIT' }[c.name];
        return { ...c, ...(enc ? { encoding: enc } : {}), columnIndex: true, bloomFilter: ['id', 's', 'i32'].includes(c.name) };
      }),
    }));
  // Explicit schema: converted and logical types hyparquet-writer has no
  // BasicType for, and nested columns.
  const schema = [
    { name: 'root', num_children: 14 },
    { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
    { name: 'u8', type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'UINT_8' },
    { name: 'u32', type: 'INT32', repetition_type: 'REQUIRED', converted_type: 'UINT_32' },
    { name: 'i16', type: 'INT32', repetition_type: 'REQUIRED', converted_type: 'INT_16' },
    { name: 'dec', type: 'INT64', repetition_type: 'OPTIONAL', converted_type: 'DECIMAL', precision: 12, scale: 3 },
    { name: 'fdec', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 9, repetition_type: 'REQUIRED', converted_type: 'DECIMAL', precision: 20, scale: 2 },
    { name: 'dt', type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'DATE' },
    { name: 'tm', type: 'INT64', repetition_type: 'REQUIRED', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' } },
    { name: 'tsns', type: 'INT64', repetition_type: 'OPTIONAL', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' } },
    { name: 'l', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'll', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'st', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'x', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'y', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'lst', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'k', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'v', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    { name: 'm', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'value', type: 'INT32', repetition_type: 'OPTIONAL' },
  ];
  const fdec = (i) => BigInt(i) * 123456789012345678n - 77n; // within DECIMAL(20)'s digits
  const explicit = [
    { name: 'id', data: range(N) },
    { name: 'u8', data: opt(7, (i) => i % 256) },
    { name: 'u32', data: range(N).map((i) => 4294967295 - i * 977) },
    { name: 'i16', data: range(N).map((i) => ((i * 37) % 65536) - 32768) },
    { name: 'dec', data: opt(5, (i) => BigInt(i) * 1234567n - 300000000n) },
    { name: 'fdec', data: range(N).map(fdec) },
    { name: 'dt', data: opt(8, (i) => i * 17 - 2000) },
    { name: 'tm', data: range(N).map((i) => BigInt((i * 97000003) % 86400000000)) },
    { name: 'tsns', data: opt(6, (i) => BigInt(i) * 1000000007n + 1577836800000000000n) },
    { name: 'l', data: range(N).map((i) => (i % 4 === 0 ? null : i % 4 === 1 ? [] : [BigInt(i), null, -BigInt(i)])) },
    { name: 'll', data: range(N).map((i) => (i % 5 === 0 ? null : [['a' + i, null], [], null])) },
    { name: 'st', data: range(N).map((i) => (i % 8 === 0 ? null : { x: i % 3 === 0 ? null : i, y: 'y' + i })) },
    { name: 'lst', data: range(N).map((i) => (i % 6 === 0 ? null : range(i % 3).map((k) => (k === 2 ? null : { k: 'k' + k, v: k % 2 ? null : i * k })))) },
    { name: 'm', data: range(N).map((i) => (i % 6 === 0 ? null : i % 6 === 1 ? {} : { ['k' + i]: i, z: null })) },
  ];
  await attempt('hyparquet', 'hyparquet_schema.parquet', 'explicit schema: unsigned, INT_16, decimals INT64/FIXED, DATE, TIME micros, TIMESTAMP nanos, lists, nested lists, lists of structs, struct, map',
    (p) => hw.parquetWriteFile({ filename: p, schema, columnData: explicit, codec: 'GZIP', compressors, rowGroupSize: 200 }));
  // The ENUM logical type (without its ConvertedType) in a file of its own.
  await attempt('hyparquet', 'hyparquet_enum.parquet', 'ENUM logical type without ConvertedType',
    (p) => hw.parquetWriteFile({ filename: p, schema: [{ name: 'root', num_children: 1 },
      { name: 'en', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL', logical_type: { type: 'ENUM' } }],
    columnData: [{ name: 'en', data: opt(5, (i) => ['sad', 'ok', 'happy'][i % 3]) }] }));
  // The INTEGER logical type in a file of its own: hyparquet-writer
  // writes its bitWidth as a Thrift i32 (a deviation, issue 13 §2).
  await attempt('hyparquet', 'hyparquet_integer.parquet', 'INTEGER logical type (unsigned 32, signed 16)',
    (p) => hw.parquetWriteFile({ filename: p, schema: [{ name: 'root', num_children: 2 },
      { name: 'u32', type: 'INT32', repetition_type: 'REQUIRED', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } },
      { name: 'i16', type: 'INT32', repetition_type: 'OPTIONAL', logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: true } }],
    columnData: [{ name: 'u32', data: range(N).map((i) => 4294967295 - i * 977) }, { name: 'i16', data: opt(3, (i) => i - 300) }] }));
  // Geospatial BasicTypes, from GeoJSON.
  const geo = (i) => (i % 3 === 0 ? { type: 'Point', coordinates: [i / 10, -i / 20] }
    : { type: 'LineString', coordinates: [[i, 0], [0, i], [i / 2, i / 3]] });
  await attempt('hyparquet', 'hyparquet_geo.parquet', 'GEOMETRY and GEOGRAPHY (points and line strings) with geospatial statistics',
    (p) => hw.parquetWriteFile({ filename: p, columnData: [{ name: 'id', data: range(N), type: 'INT32', nullable: false },
      { name: 'g', data: opt(7, geo), type: 'GEOMETRY' }, { name: 'gg', data: range(N).map(geo), type: 'GEOGRAPHY' }] }));
  const variants = range(N).map((i) => (i % 5 === 0 ? null : i % 5 === 1 ? i * 3 : i % 5 === 2 ? 'v' + i : i % 5 === 3 ? { z: i, a: 'x' + i } : [i, 'y']));
  await attempt('hyparquet', 'hyparquet_variant.parquet', 'VARIANT unshredded',
    (p) => hw.parquetWriteFile({ filename: p, columnData: [{ name: 'id', data: range(N), type: 'INT32', nullable: false }, { name: 'v', data: variants, type: 'VARIANT' }] }));
  const objs = range(N).map((i) => (i % 7 === 0 ? null : { a: i % 3 ? i : 'text' + i, b: 'b' + i, c: i % 2 ? 1.5 * i : undefined }));
  await attempt('hyparquet', 'hyparquet_variant_shredded.parquet', 'VARIANT shredded objects (typed_value a INT32, b STRING, c DOUBLE)',
    (p) => hw.parquetWriteFile({ filename: p, columnData: [{ name: 'id', data: range(N), type: 'INT32', nullable: false },
      { name: 'v', data: objs, type: 'VARIANT', shredding: { a: 'INT32', b: 'STRING', c: 'DOUBLE' } }] }));
}

const writers = { duckdb, polars, wasm, parquetjs, hyparquet };
for (const [name, fn] of Object.entries(writers)) {
  if (only && !only.includes(name)) continue;
  try {
    await fn();
  } catch (e) {
    report({ file: '', writer: name, error: String(e && e.stack ? e.stack : e).split('\n').slice(0, 3).join(' | ') });
  }
}
