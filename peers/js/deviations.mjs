// node deviations.mjs DIR
//
// Has the writers themselves write the small files of
// runtime/testdata/deviations: each departs from the Parquet
// specification in a way that the other readers tolerate and pqgen reads
// leniently (docs/DEVIATIONS.md). Prints, per file, the rows as the
// writer's own reader (DuckDB, hyparquet for the hyparquet-writer files,
// parquetjs for its own) gives them back, one JSON line each, for the Go
// tests' expected values (those of parquetjs_rle_v1.parquet, which
// parquetjs_rle_v2.parquet shares, are runtime/testdata/deviations/
// parquetjs_rle.jsonl).
//
// - duckdb_delta33.parquet: DuckDB 1.5, PARQUET_VERSION V2: INT32 and
//   UINT32 columns in DELTA_BINARY_PACKED whose deltas span more than
//   2^32, packed in miniblocks of bit width 33.
// - duckdb_variant_unsorted.parquet: DuckDB 1.5 VARIANT objects whose
//   field ids are not in key order.
// - duckdb_array_null.parquet: DuckDB 1.5 writes a NULL fixed-size
//   ARRAY (INTEGER[3]) as one level slot per element.
// - duckdb_encrypted.parquet: DuckDB 1.5 with an encrypted footer
//   (footer key "0123456789012345", 16 bytes).
// - hyparquet_variant_optional.parquet: hyparquet-writer 0.17 shreds a
//   VARIANT with object fields as optional groups.
// - hyparquet_int_width.parquet: hyparquet-writer 0.17 writes the
//   INTEGER logical type's bitWidth as a Thrift i32.
// - polars_nan_null_page.parquet: Polars (nodejs-polars 0.26) writes
//   the column index entry of a page of floats holding NaN with
//   null_pages true (f, g; lf in lists, where the null count, 30 in 20
//   rows, cannot show it).
// - polars_chunk_bounds.parquet: Polars (nodejs-polars 0.26) writes
//   chunk statistics whose min and max leave out values of pages: those
//   of a page of floats holding NaN (f), and a decimal's (d).
// - duckdb_struct_list_nulls.parquet: DuckDB 1.5 counts every level
//   slot of the fields of a struct in a list as null in their chunk
//   statistics.
// - duckdb_struct_list_nan.parquet: the same counts go past num_values
//   with a struct in a struct in a list, and come without a min and max
//   when the values hold NaN.
// - wasm_list_null_page.parquet: arrow-rs (parquet-wasm 0.8) writes the
//   column index entry of a page of a list with null_pages true (a list
//   of INT32, l, and one of strings, ls, whose null page's empty min and
//   max would pass for bounds).
// - parquetjs_bloom_unset.parquet: parquetjs (@dsnp/parquetjs 1.8) writes
//   a bloom filter header whose unions have no member set.
// - parquetjs_page_index.parquet: parquetjs (@dsnp/parquetjs 1.8)
//   writes the offset index of a chunk of several pages with every page
//   after the first at row 0.
// - parquetjs_rle_v1.parquet, parquetjs_rle_v2.parquet: parquetjs
//   (@dsnp/parquetjs 1.8) writes INT32 and INT64 columns with encoding
//   'RLE' in the RLE/bit-packed hybrid, at the bit width it stores as the
//   column's type_length; data pages v1 and v2, two row groups, pages of
//   50 rows.
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetWriteFile } from 'hyparquet-writer';
import { parquetReadObjects } from 'hyparquet';
import parquetjs from '@dsnp/parquetjs';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node deviations.mjs DIR');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });

const json = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x));

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();

async function duck(name, copy, read = `SELECT * FROM '${join(dir, name)}'`) {
  await conn.run(copy.replaceAll('$FILE', join(dir, name)));
  const r = await conn.runAndReadAll(read);
  console.log(`#FILE ${name}`);
  for (const row of r.getRowObjectsJson()) console.log(json(row));
}

// Deltas between INT32 extremes need 33 bits; rows 0..199 alternate, the
// last ones are small, nulls every 7th row.
await duck('duckdb_delta33.parquet', `COPY (SELECT i AS id,
    CASE WHEN i % 7 = 6 THEN NULL WHEN i >= 190 THEN (i - 195)::INTEGER
      WHEN i % 2 = 0 THEN (-2147483648 + i)::INTEGER ELSE (2147483647 - i)::INTEGER END AS a,
    CASE WHEN i % 2 = 0 THEN i::UINTEGER ELSE (4294967295 - i)::UINTEGER END AS u
  FROM range(200) t(i) ORDER BY i) TO '$FILE' (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION uncompressed)`);

// DuckDB numbers the keys of an object in first-use order across the
// rows, and lists an object's fields in that order: shredded as VARCHAR
// (so that the objects stay in the binary value column), the keys come
// out of key order.
await duck('duckdb_variant_unsorted.parquet', `COPY (
  SELECT 1 AS id, {'zeta': 1, 'alpha': 'x', 'mid': [1, 2]}::VARIANT AS v UNION ALL
  SELECT 2, {'b': {'y': 2, 'x': true}, 'a': 3}::VARIANT UNION ALL
  SELECT 3, NULL::VARIANT UNION ALL
  SELECT 4, 42::VARIANT UNION ALL
  SELECT 5, 'text'::VARIANT
  ORDER BY id) TO '$FILE' (FORMAT parquet, COMPRESSION uncompressed, SHREDDING {v: 'VARCHAR'})`,
  `SELECT id, v::VARCHAR AS v FROM '${join(dir, 'duckdb_variant_unsorted.parquet')}' ORDER BY id`);

// DuckDB writes a NULL fixed-size ARRAY as one level slot per element:
// the null list, then slots that continue it with the same definition
// level (also within a list of arrays and within a struct).
await duck('duckdb_array_null.parquet', `COPY (SELECT i AS id,
    (CASE WHEN i % 4 = 3 THEN NULL ELSE [i, CASE WHEN i % 2 = 0 THEN NULL ELSE -i END, 7] END)::INTEGER[3] AS a,
    (CASE i % 5 WHEN 4 THEN NULL WHEN 2 THEN [NULL, [i, i + 1]] ELSE [[i, NULL], [1, 2]] END)::INTEGER[2][2] AS n,
    (CASE WHEN i % 3 = 2 THEN NULL ELSE {'x': CASE WHEN i % 2 = 1 THEN NULL ELSE ['s' || i::VARCHAR, NULL] END, 'y': i} END)::STRUCT(x VARCHAR[2], y INTEGER) AS st
  FROM range(12) t(i) ORDER BY i) TO '$FILE' (FORMAT parquet, COMPRESSION uncompressed)`);

// Without httpfs (not downloadable here) DuckDB writes with its bundled
// mbedtls only when told to.
await conn.run('SET force_mbedtls_unsafe = true');
await conn.run(`PRAGMA add_parquet_key('k16', '0123456789012345')`);
await duck('duckdb_encrypted.parquet', `COPY (SELECT i::INTEGER AS id, 'row ' || i::VARCHAR AS s
  FROM range(5) t(i)) TO '$FILE' (FORMAT parquet, ENCRYPTION_CONFIG {footer_key: 'k16'})`,
  `SELECT * FROM read_parquet('${join(dir, 'duckdb_encrypted.parquet')}', encryption_config = {footer_key: 'k16'})`);

async function hyp(name, opts) {
  parquetWriteFile({ filename: join(dir, name), codec: 'UNCOMPRESSED', ...opts });
  const buf = readFileSync(join(dir, name));
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const rows = await parquetReadObjects({ file });
  console.log(`#FILE ${name}`);
  for (const row of rows) console.log(json(row));
}

await hyp('hyparquet_variant_optional.parquet', {
  columnData: [
    { name: 'id', data: [1, 2, 3, 4], type: 'INT32', nullable: false },
    {
      name: 'v', type: 'VARIANT', shredding: { a: 'INT32', b: 'STRING' },
      data: [{ a: 1, b: 'x' }, { a: 2 }, { b: 'y', c: true }, 'plain'],
    },
  ],
});

await hyp('hyparquet_int_width.parquet', {
  columnData: [
    { name: 'i8', data: [-128, 0, 127] },
    { name: 'u16', data: [0, 1, 65535] },
  ],
  schema: [
    { name: 'root', num_children: 2 },
    { name: 'i8', type: 'INT32', repetition_type: 'REQUIRED', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true } },
    { name: 'u16', type: 'INT32', repetition_type: 'OPTIONAL', logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: false } },
  ],
});
// parquetjs's RLE integers: runs and bit-packed groups, nulls, negative
// values at width 32 (read back as signed 32-bit integers).
for (const v of ['v1', 'v2']) {
  const name = `parquetjs_rle_${v}.parquet`;
  const schema = new parquetjs.ParquetSchema({
    id: { type: 'INT32' },
    u8: { type: 'UINT_8', encoding: 'RLE', typeLength: 8 },
    i12: { type: 'INT32', encoding: 'RLE', typeLength: 12 },
    i32: { type: 'INT32', encoding: 'RLE', typeLength: 32, optional: true },
    i64: { type: 'INT64', encoding: 'RLE', typeLength: 20 },
  });
  const w = await parquetjs.ParquetWriter.openFile(schema, join(dir, name), { useDataPageV2: v === 'v2', pageSize: 50, rowGroupSize: 200 });
  for (let i = 0; i < 300; i++) {
    const row = { id: i, u8: (i >> 3) % 256, i12: (i * 37) % 4096, i64: (i * 1000) % 1000000 };
    if (i % 5 !== 0) row.i32 = i >= 100 && i < 140 ? -5 : i % 3 === 0 ? -1000 * i : 7;
    await w.appendRow(row);
  }
  await w.close();
  await printParquetjs(name);
}

// printParquetjs prints the rows of dir/name as parquetjs reads them.
async function printParquetjs(name) {
  const r = await parquetjs.ParquetReader.openFile(join(dir, name));
  const c = r.getCursor();
  console.log(`#FILE ${name}`);
  for (let row = await c.next(); row; row = await c.next()) console.log(json(row));
  await r.close();
}

// Polars writes the column index entry of a page of floats holding NaN
// (and so without bounds) with null_pages true, whatever its nulls.
{
  const pl = (await import('nodejs-polars')).default;
  const name = 'polars_nan_null_page.parquet';
  const f = (i) => (i % 5 === 1 ? NaN : i * 0.5 - 3);
  const df = pl.DataFrame([
    pl.Series('id', [...Array(20).keys()], pl.Int32),
    pl.Series('f', [...Array(20).keys()].map(f), pl.Float64),
    pl.Series('g', [...Array(20).keys()].map((i) => (i % 4 === 3 ? null : f(i))), pl.Float64),
    pl.Series('lf', [...Array(20).keys()].map((i) => (i % 4 === 0 ? null : i % 4 === 1 ? [] : [f(i), null, -i, null, null])), pl.List(pl.Float64)),
  ]);
  df.writeParquet(join(dir, name), { compression: 'uncompressed' });
  console.log(`#FILE ${name}`);
  for (const row of pl.readParquet(join(dir, name)).toRecords()) console.log(json(row));
}

// Polars merges the pages' statistics into the chunk's without the pages
// of floats holding NaN, and gives decimals bounds that leave out other
// pages' values (here d's last value as min and max): pages of 64 bytes,
// the first of f holding NaN and its smallest value.
{
  const pl = (await import('nodejs-polars')).default;
  const name = 'polars_chunk_bounds.parquet';
  const ids = [...Array(40).keys()];
  const df = pl.DataFrame([
    pl.Series('id', ids, pl.Int32),
    pl.Series('f', ids.map((i) => (i === 3 ? NaN : i < 8 ? i * 100 : i * 0.5)), pl.Float64),
    pl.Series('x', ids.map((i) => (i % 3 === 0 ? -(i * 1000 + 0.5) : i * 10.5)), pl.Float64),
  ]).withColumns(pl.col('x').cast(pl.Decimal(29, 1)).alias('d')).drop('x');
  const out = df.lazy().sinkParquet(join(dir, name), { compression: 'uncompressed', dataPagesizeLimit: 64 });
  if (out && typeof out.collect === 'function') await out.collect();
  else await out;
  console.log(`#FILE ${name}`);
  for (const row of pl.readParquet(join(dir, name)).withColumns(pl.col('d').cast(pl.Utf8)).toRecords()) console.log(json(row));
}

// DuckDB counts as nulls every level slot of a field of a struct in a
// list (the null count equals num_values) while the min and max are
// those of its values.
await duck('duckdb_struct_list_nulls.parquet', `COPY (SELECT i::INTEGER AS id,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [{'x': i, 'y': 'y' || i::VARCHAR}, NULL, {'x': NULL, 'y': NULL}] END AS ls
  FROM range(20) t(i) ORDER BY i) TO '$FILE' (FORMAT parquet, COMPRESSION uncompressed)`);

// The same count goes past num_values with a struct in a struct in a list
// (DuckDB counts the slots of a null struct twice), and comes without a
// min and max when the values hold NaN: ls.list.element.x counts as many
// nulls as values, and nothing else; ln.list.element.s.x more nulls than
// values; ld.list.element.x, dictionary-encoded, as many with a distinct
// count.
await duck('duckdb_struct_list_nan.parquet', `COPY (SELECT i::INTEGER AS id,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [{'x': CASE WHEN i % 3 = 0 THEN 'nan'::DOUBLE ELSE i / 2 END}, NULL, {'x': NULL}] END AS ls,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [{'s': {'x': CASE WHEN i % 3 = 0 THEN 'nan'::DOUBLE ELSE i / 2 END}}, NULL, {'s': NULL},
      {'s': {'x': NULL}}] END AS ln,
    CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [{'x': CASE WHEN i % 3 = 0 THEN 'nan'::DOUBLE ELSE (i % 2)::DOUBLE END}, NULL, {'x': NULL}] END AS ld
  FROM range(20) t(i) ORDER BY i) TO '$FILE' (FORMAT parquet, COMPRESSION uncompressed)`);

// arrow-rs (parquet-wasm 0.8) writes the column index entry of a page of
// a repeated column with null_pages true, whatever it holds; its
// definition level histogram counts the values.
{
  const pw = await import('parquet-wasm');
  const a = await import('apache-arrow');
  const name = 'wasm_list_null_page.parquet';
  const l = [...Array(20).keys()].map((i) => (i % 4 === 0 ? null : i % 4 === 1 ? [] : [i, null, -i]));
  const table = a.tableFromArrays({ id: Int32Array.from([...Array(20).keys()]) });
  // ls: the same lists of strings, whose null page has the empty byte
  // strings of a null page as its min and max.
  const ls = l.map((x, i) => x && x.map((v) => (v === null ? null : (v < 0 ? 't' : 's') + i)));
  const withList = table.assign(new a.Table({ l: a.vectorFromArray(l, new a.List(new a.Field('item', new a.Int32(), true))),
    ls: a.vectorFromArray(ls, new a.List(new a.Field('item', new a.Utf8(), true))) }));
  const ipc = a.tableToIPC(withList, 'stream');
  writeFileSync(join(dir, name), pw.writeParquet(pw.Table.fromIPCStream(ipc), new pw.WriterPropertiesBuilder().setCompression(pw.Compression.UNCOMPRESSED).build()));
  console.log(`#FILE ${name}`);
  for (let i = 0; i < 20; i++) console.log(json({ id: i, l: l[i], ls: ls[i] }));
}

// parquetjs writes the algorithm, hash and compression unions of a bloom
// filter header as empty structs.
{
  const name = 'parquetjs_bloom_unset.parquet';
  const schema = new parquetjs.ParquetSchema({ id: { type: 'INT32' }, s: { type: 'UTF8', optional: true } });
  const w = await parquetjs.ParquetWriter.openFile(schema, join(dir, name), { bloomFilters: [{ column: 's', numFilterBytes: 1024 }] });
  for (let i = 0; i < 20; i++) await w.appendRow(i % 4 === 3 ? { id: i } : { id: i, s: 'k' + (i % 6) });
  await w.close();
  await printParquetjs(name);
}

// parquetjs writes the offset index of a chunk of several pages with
// every page after the first at row 0, and null_pages that compare each
// page's values with the chunk's nulls so far: pages of 10 rows.
{
  const name = 'parquetjs_page_index.parquet';
  const schema = new parquetjs.ParquetSchema({ id: { type: 'INT32' }, s: { type: 'UTF8', optional: true } });
  const w = await parquetjs.ParquetWriter.openFile(schema, join(dir, name), { pageSize: 10 });
  for (let i = 0; i < 100; i++) await w.appendRow(i % 4 === 3 ? { id: i } : { id: i, s: 'k' + i });
  await w.close();
  console.log(`#FILE ${name}`);
  const r = await parquetjs.ParquetReader.openFile(join(dir, name));
  const c = r.getCursor();
  for (let row = await c.next(); row; row = await c.next()) console.log(json(row));
  await r.close();
}
console.log('#END');
