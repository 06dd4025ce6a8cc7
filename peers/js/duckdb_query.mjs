// node duckdb_query.mjs SPEC.json
//
// Issue 16's queries through DuckDB, one thread, for the comparison with
// pqgen's filtered reader (peers/bench BenchmarkQueryDuckDB). SPEC.json is
// {"file": path, "runs": N, "t0": RFC 3339, "t1": RFC 3339, "kind": s,
// "id": decimal}. Runs each query N times, SELECT * so that DuckDB
// materializes every column of the matching rows as pqgen does, and prints
// between "#FILE queries" and "#END" one JSON line per query:
// {"query", "sql", "bestNs", "runsNs": [...], "ids": [id of each row, in
// the order DuckDB returned them]}. The time of a run is that of
// runAndReadAll (scan, filter, result chunks); the conversion of the rows
// to JavaScript, for the ids, is outside it.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { emitFileAsync, flush } from './canon.mjs';
import { sqlString } from './duckdb_canon.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
await conn.run('SET threads = 1');
const src = `read_parquet(${sqlString(spec.file)})`;
const queries = [
  ['window-and-kind', `SELECT * FROM ${src} WHERE "at" BETWEEN TIMESTAMPTZ ${sqlString(spec.t0)} AND TIMESTAMPTZ ${sqlString(spec.t1)} AND kind = ${sqlString(spec.kind)}`],
  ['point-lookup', `SELECT * FROM ${src} WHERE id = ${BigInt(spec.id)}`],
];
const out = [];
await emitFileAsync(out, 'queries', async () => {
  const threads = (await conn.runAndReadAll("SELECT current_setting('threads') AS t")).getRowObjectsJS()[0].t;
  if (Number(threads) !== 1) throw new Error(`DuckDB runs ${threads} threads, want 1`);
  const lines = [];
  for (const [query, sql] of queries) {
    const runsNs = [];
    let last;
    for (let i = 0; i < spec.runs; i++) {
      const start = process.hrtime.bigint();
      last = await conn.runAndReadAll(sql);
      runsNs.push(Number(process.hrtime.bigint() - start));
    }
    const ids = last.getRowObjectsJS().map((x) => String(x.id));
    lines.push({ query, sql, bestNs: Math.min(...runsNs), runsNs, ids });
  }
  return lines;
});
await flush(out);
