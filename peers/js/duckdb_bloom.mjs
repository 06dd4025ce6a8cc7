// node duckdb_bloom.mjs SPEC.json
//
// SPEC.json is [{"file": path, "column": name, "values": [SQL literal...]}].
// For each value prints one JSON line {"file", "column", "value",
// "excludes": [bloom_filter_excludes of each row group]} from DuckDB's
// parquet_bloom_probe(file, column, value), between "#FILE probes" and
// "#END" ("#ERROR message" when a probe fails).
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { emitFileAsync, flush } from './canon.mjs';
import { sqlString } from './duckdb_canon.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
const out = [];
await emitFileAsync(out, 'probes', async () => {
  const lines = [];
  for (const { file, column, values } of spec) {
    for (const value of values) {
      const r = await conn.runAndReadAll(
        `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${sqlString(file)}, ${sqlString(column)}, ${value}) ORDER BY row_group_id`);
      lines.push({ file, column, value, excludes: r.getRowObjectsJS().map((x) => x.bloom_filter_excludes) });
    }
  }
  return lines;
});
await flush(out);
