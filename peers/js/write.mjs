// node write.mjs DIR [ROWS]
//
// Has DuckDB write one table of many types (every integer width signed and
// unsigned, float with NaN/-0/±inf, double, strings, blobs, decimals of
// every physical width, date, time, timestamps, UUID, lists, nested lists,
// structs, maps, lists of structs; nulls at every level) to DIR with
// COPY ... (FORMAT parquet, COMPRESSION c, ROW_GROUP_SIZE n,
// PARQUET_VERSION v) for every codec DuckDB writes and both versions,
// then prints each file's rows as DuckDB reads them back (read.mjs form).
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { emitFileAsync, flush } from './canon.mjs';
import { duckRows, sqlString } from './duckdb_canon.mjs';

const [dir, rowsArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node write.mjs DIR [ROWS]');
  process.exit(2);
}
const rows = Number(rowsArg || 3000);

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
await conn.run(`CREATE TABLE t AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
  (i * 37 % 65536 - 32768)::SMALLINT AS i16,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 7919 % 2000000 - 1000000)::INTEGER END AS i32,
  (i * 1000003 - 9000000000)::BIGINT AS i64,
  (i % 256)::UTINYINT AS u8,
  (i * 31 % 65536)::USMALLINT AS u16,
  (4294967295 - i * 977)::UINTEGER AS u32,
  (18446744073709551615 - i * 1000000007)::UBIGINT AS u64,
  CASE i % 50 WHEN 1 THEN 'nan'::FLOAT WHEN 2 THEN '-0.0'::FLOAT WHEN 3 THEN 'inf'::FLOAT
    WHEN 4 THEN '-inf'::FLOAT WHEN 5 THEN NULL ELSE (i / 8.0 - 100)::FLOAT END AS f,
  CASE i % 40 WHEN 1 THEN 'nan'::DOUBLE WHEN 2 THEN '-0.0'::DOUBLE WHEN 3 THEN NULL
    ELSE sin(i) * 1e6 END AS d,
  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 4 = 0 THEN repeat('é', i % 50) || i::VARCHAR
    ELSE 'w' || (i % 37)::VARCHAR END AS s,
  CASE WHEN i % 11 = 0 THEN NULL ELSE unhex(printf('%04x00ff', i)) END AS bl,
  CASE WHEN i % 13 = 0 THEN NULL ELSE (((i % 1999) - 999) / 10)::DECIMAL(4, 1) END AS dec4,
  (((i * 7777 % 10000000) - 5000000) / 100)::DECIMAL(9, 2) AS dec9,
  (((i * 123456789 % 1000000000000000) - 500000000000000)::DECIMAL(18, 0) / 1000)::DECIMAL(18, 3) AS dec18,
  CASE WHEN i % 3 = 0 THEN NULL
    ELSE (i::DECIMAL(38, 10) * 1234567890123.0123456789 - 99999999999999999.5)::DECIMAL(38, 10) END AS dec38,
  DATE '1970-01-01' + (i * 17 - 20000)::INTEGER AS dt,
  CASE WHEN i % 6 = 0 THEN NULL ELSE TIMESTAMP '2001-02-03 04:05:06.789012' + to_microseconds(i * 123456789) END AS ts,
  (TIMESTAMP '1999-12-31 23:59:59' + to_seconds(i * 1000))::TIMESTAMP_MS AS ts_ms,
  (TIMESTAMP '2020-01-01' + to_microseconds(i * 999))::TIMESTAMP_NS AS ts_ns,
  TIME '00:00:00' + to_microseconds(i * 28800003) AS tm,
  printf('%08x-0000-4000-8000-%012x', i * 2654435761 % 4294967296, i)::UUID AS u,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[] WHEN 2 THEN [i::INTEGER, NULL, -i::INTEGER]
    ELSE [i::INTEGER] END AS l,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [[]::VARCHAR[], NULL] WHEN 2 THEN [['a' || i::VARCHAR, NULL], ['b']]
    ELSE [NULL::VARCHAR[]] END AS ll,
  CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i::INTEGER END,
    'b': CASE WHEN i % 2 = 0 THEN ['x', NULL] ELSE NULL END, 'c': {'x': i / 3}} END AS st,
  CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN MAP {}::MAP(VARCHAR, INTEGER)
    ELSE MAP {'k' || i::VARCHAR: i::INTEGER, 'z': NULL::INTEGER} END AS m,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN []
    ELSE [{'x': i::INTEGER, 'y': 'y' || i::VARCHAR}, NULL, {'x': NULL::INTEGER, 'y': NULL::VARCHAR}] END AS ls,
  (i % 3 = 0) AS b
FROM range(${rows}) r(i)`);

const codecs = ['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4', 'lz4_raw'];
const files = [];
for (const codec of codecs) {
  for (const version of ['v1', 'v2']) {
    const path = join(dir, `duckdb_${codec}_${version}.parquet`);
    await conn.run(`COPY t TO ${sqlString(path)} (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1024, PARQUET_VERSION ${version})`);
    files.push(path);
  }
}
const out = [];
for (const f of files) {
  await emitFileAsync(out, f, () => duckRows(conn, `SELECT * FROM read_parquet(${sqlString(f)})`));
  await flush(out);
}
