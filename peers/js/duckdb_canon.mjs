// Canonical form (canon.mjs) of @duckdb/node-api values.
import {
  DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBListValue, DuckDBArrayValue,
  DuckDBMapValue, DuckDBStructValue, DuckDBTimestampValue, DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue, DuckDBTimestampSecondsValue, DuckDBTimestampTZValue,
  DuckDBTimeValue, DuckDBUUIDValue,
} from '@duckdb/node-api';
import { decimalString, hex, num } from './canon.mjs';

export function canonDuck(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': return v;
    case 'number': case 'bigint': return num(v);
    case 'string': return v;
  }
  if (v instanceof DuckDBDecimalValue) return decimalString(v.value, v.scale);
  if (v instanceof DuckDBBlobValue) return hex(v.bytes);
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map(canonDuck);
  if (v instanceof DuckDBStructValue) {
    const o = {};
    for (const [k, x] of Object.entries(v.entries)) o[k] = canonDuck(x);
    return o;
  }
  if (v instanceof DuckDBMapValue) return v.entries.map((e) => [canonDuck(e.key), canonDuck(e.value)]);
  if (v instanceof DuckDBDateValue) return String(v.days);
  if (v instanceof DuckDBTimestampValue || v instanceof DuckDBTimestampTZValue) return String(v.micros * 1000n);
  if (v instanceof DuckDBTimestampMillisecondsValue) return String(v.millis * 1000000n);
  if (v instanceof DuckDBTimestampNanosecondsValue) return String(v.nanos);
  if (v instanceof DuckDBTimestampSecondsValue) return String(v.seconds * 1000000000n);
  if (v instanceof DuckDBTimeValue) return String(v.micros * 1000n);
  if (v instanceof DuckDBUUIDValue) return v.toString();
  throw new Error('duckdb value of unhandled type ' + (v.constructor ? v.constructor.name : typeof v));
}

// duckRows returns the canonical rows of a query.
export async function duckRows(conn, sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRows().map((row) => row.map(canonDuck));
}

export function sqlString(s) {
  return "'" + s.replace(/'/g, "''") + "'";
}
