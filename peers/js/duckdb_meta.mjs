// node duckdb_meta.mjs FILE...
//
// Prints DuckDB's parquet_metadata(path) for each FILE, one JSON object
// per column chunk (integers as decimal strings), between "#FILE path" and
// "#END" lines ("#ERROR message" when DuckDB rejects the file).
import { DuckDBInstance } from '@duckdb/node-api';
import { emitFileAsync, flush } from './canon.mjs';
import { sqlString } from './duckdb_canon.mjs';

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
const out = [];
for (const f of process.argv.slice(2)) {
  await emitFileAsync(out, f, async () => {
    const r = await conn.runAndReadAll(`SELECT * FROM parquet_metadata(${sqlString(f)}) ORDER BY row_group_id, column_id`);
    return r.getRowObjectsJson();
  });
  await flush(out);
}
await flush(out);
