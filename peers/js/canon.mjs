// Canonical JSON of the values a peer reader returns, shared by the
// scripts of this folder and parsed by peers/interop (js_test.go):
//
//   null                   -> null
//   boolean                -> true / false
//   integer (any width)    -> decimal string ("-12")
//   float, double          -> shortest round-trip string ("0.1", "-0",
//                             "NaN", "Infinity", "-Infinity")
//   string                 -> JSON string
//   binary, fixed binary   -> {"$hex": "00ff"}
//   interval               -> {"$hex"} of its 12 Parquet bytes (intervalHex)
//   decimal                -> decimal string of value/10^scale ("-12.30")
//   date                   -> days since the epoch, decimal string
//   timestamp, time        -> nanoseconds (since the epoch, since midnight),
//                             decimal string, whatever the unit
//   uuid                   -> "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
//   list                   -> JSON array
//   struct                 -> JSON object in field order
//   map                    -> JSON array of [key, value] pairs
//
// Each reader's own notion of the column type decides the form (a peer
// that reads a STRING column as binary shows up as a difference).

export function hex(bytes) {
  return { $hex: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex') };
}

export function num(x) {
  if (typeof x === 'bigint') return x.toString();
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

// decimalString formats unscaled / 10^scale with exactly scale digits.
export function decimalString(unscaled, scale) {
  let neg = unscaled < 0n;
  let s = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}

// arrowDecimal formats an apache-arrow decimal value, the little-endian
// 32-bit words of a two's complement unscaled integer.
export function arrowDecimal(words, scale) {
  let x = 0n;
  for (let k = words.length - 1; k >= 0; k--) x = (x << 32n) | BigInt(words[k] >>> 0);
  const bits = BigInt(32 * words.length);
  if (x >= 1n << (bits - 1n)) x -= 1n << bits;
  return decimalString(x, scale);
}

// intervalHex is the canonical INTERVAL: the {"$hex"} of its 12 Parquet
// bytes (months, days, milliseconds, unsigned little endian).
export function intervalHex(months, days, millis) {
  const b = Buffer.alloc(12);
  b.writeUInt32LE(Number(months) >>> 0, 0);
  b.writeUInt32LE(Number(days) >>> 0, 4);
  b.writeUInt32LE(Number(millis) >>> 0, 8);
  return { $hex: b.toString('hex') };
}

// Rows are written as JSON lines between "#FILE path" and "#END" lines;
// a file the reader rejects gets one "#ERROR message" line instead of
// rows. JSON.stringify is given already-canonical values only.
export function emitFile(out, path, rowsFn) {
  out.push('#FILE ' + path);
  try {
    for (const row of rowsFn()) out.push(JSON.stringify(row));
  } catch (e) {
    out.push('#ERROR ' + String(e && e.message ? e.message : e).replace(/\n/g, ' '));
  }
  out.push('#END');
}

export async function emitFileAsync(out, path, rowsFn) {
  out.push('#FILE ' + path);
  try {
    for (const row of await rowsFn()) out.push(JSON.stringify(row));
  } catch (e) {
    out.push('#ERROR ' + String(e && e.message ? e.message : e).replace(/\n/g, ' '));
  }
  out.push('#END');
}

// flush writes the buffered lines to stdout, waiting for the pipe.
export async function flush(out) {
  if (out.length === 0) return;
  const text = out.join('\n') + '\n';
  out.length = 0;
  await new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}
