// Canonical form (canon.mjs) of @duckdb/node-api values.
import * as d from '@duckdb/node-api';
import { decimalString, hex, intervalHex, num } from './canon.mjs';

// throwUnknown is canonDuck's default for a value of a type it does not
// know: the file fails.
function throwUnknown(v) {
  throw new Error('duckdb value of unhandled type ' + (v.constructor ? v.constructor.name : typeof v));
}

// canonDuck converts a DuckDB value (intervals as the {"$hex"} of their
// 12 Parquet bytes, GEOMETRY as the {"$hex"} of its WKB, TIMETZ of offset
// 0 as a time). A value of a type it does not know, nested or not, is
// unknown(v).
export function canonDuck(v, unknown = throwUnknown) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': case 'string': return v;
    case 'number': case 'bigint': return num(v);
  }
  const canon = (x) => canonDuck(x, unknown);
  if (v instanceof d.DuckDBDecimalValue) return decimalString(v.value, v.scale);
  if (v instanceof d.DuckDBBlobValue) return hex(v.bytes);
  if (v instanceof d.DuckDBListValue || v instanceof d.DuckDBArrayValue) return v.items.map(canon);
  if (v instanceof d.DuckDBStructValue) {
    const o = {};
    for (const [k, x] of Object.entries(v.entries)) o[k] = canon(x);
    return o;
  }
  if (v instanceof d.DuckDBMapValue) return v.entries.map((e) => [canon(e.key), canon(e.value)]);
  if (v instanceof d.DuckDBDateValue) return String(v.days);
  if (v instanceof d.DuckDBTimestampValue || v instanceof d.DuckDBTimestampTZValue) return String(v.micros * 1000n);
  if (v instanceof d.DuckDBTimestampMillisecondsValue) return String(v.millis * 1000000n);
  if (v instanceof d.DuckDBTimestampNanosecondsValue) return String(v.nanos);
  if (v instanceof d.DuckDBTimestampSecondsValue) return String(v.seconds * 1000000000n);
  if (v instanceof d.DuckDBTimeValue) return String(v.micros * 1000n);
  if (v instanceof d.DuckDBTimeTZValue && v.offset === 0) return String(v.micros * 1000n);
  if (v instanceof d.DuckDBGeometryValue) return hex(v.bytes);
  if (d.DuckDBTimeNSValue && v instanceof d.DuckDBTimeNSValue) return String(v.nanos);
  if (v instanceof d.DuckDBUUIDValue) return v.toString();
  if (v instanceof d.DuckDBIntervalValue) return intervalHex(v.months, v.days, v.micros / 1000n);
  return unknown(v);
}

// duckRows returns the canonical rows of a query.
export async function duckRows(conn, sql, unknown = throwUnknown) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRows().map((row) => row.map((v) => canonDuck(v, unknown)));
}

export function sqlString(s) {
  return "'" + s.replace(/'/g, "''") + "'";
}
