// Helpers shared by the random writers (duckfuzz.mjs, arrowfuzz.mjs,
// hypfuzz.mjs, pjsfuzz.mjs): their arguments, a seeded generator and
// field names.
import { mkdirSync } from 'node:fs';

// fuzzArgs reads the arguments SEED COUNT DIR of script, making DIR, or
// exits with its usage.
export function fuzzArgs(script) {
  const [seed, count, dir] = process.argv.slice(2);
  if (!dir) {
    console.error(`usage: node ${script} SEED COUNT DIR`);
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  return { seed: Number(seed), count: Number(count), dir };
}

// rand is a small seeded generator (mulberry32): next() in [0, 1),
// int(n) in [0, n), chance(p), pick(xs).
export function rand(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (xs) => xs[Math.floor(next() * xs.length)],
  };
}

// names are field names other writers and readers use for their own
// structure, with spaces, dots and non-ASCII letters.
const names = ['a', 'b', 'id', 'value', 'key', 'element', 'list', 'item', 'array', 'bag', 'map', 'b c', 'x.y', 'Ünï', '_1', 'Z9',
  'type', 'struct', 'String', 'first-name', 'ö'];

// fieldNames picks n distinct names, distinct also without case (DuckDB's
// names are case-insensitive).
export function fieldNames(r, n) {
  const seen = new Set();
  const out = [];
  while (out.length < n) {
    const s = r.chance(0.7) ? r.pick(names) : 'f' + r.int(100);
    if (!seen.has(s.toLowerCase())) {
      seen.add(s.toLowerCase());
      out.push(s);
    }
  }
  return out;
}

// cardinal returns a draw of the integers a column's values are made
// from: few distinct ones, or many.
export function cardinal(r) {
  const card = r.pick([2, 7, 100, 5000, 0, 0]);
  return () => (card ? r.int(card) : Math.floor(r.next() * 2 ** 52));
}
