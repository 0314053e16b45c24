#!/usr/bin/env node
// What a built script is made of: its bytes by source file, from its source map, biggest first,
// with the whole file's gzip size (Node's zlib, default level) and each part's share of it.
//   VERIMARK_SOURCEMAP=1 VERIMARK_OUT_DIR=/tmp/vm-map npx wxt build
//   node scripts/bundle-parts.mjs /tmp/vm-map/chrome-mv3/content-scripts/content.js
// A part's "gzip" is its bytes' share of the whole file's gzip size (parts compress together).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One source-map segment's VLQ fields. */
function decode(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/bundle-parts.mjs <built.js> (with <built.js>.map beside it)');
  process.exit(2);
}
const code = readFileSync(file, 'utf8');
const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
const lines = code.split('\n');
const bytes = new Map();
let source = 0;
map.mappings.split(';').forEach((lineMappings, lineNo) => {
  const line = lines[lineNo] ?? '';
  let column = 0;
  const segments = lineMappings ? lineMappings.split(',').map(decode) : [];
  segments.forEach((fields, i) => {
    column += fields[0];
    if (fields.length > 1) source += fields[1];
    const next = segments[i + 1];
    const end = next ? column + next[0] : line.length;
    const name = fields.length > 1 ? (map.sources[source] ?? '?') : '(unmapped)';
    bytes.set(name, (bytes.get(name) ?? 0) + (end - column));
  });
});
const total = code.length;
const gzip = gzipSync(code).length;
console.log(`${file}: ${total} B, ${gzip} B gzip`);
const short = (name) =>
  path.relative(process.cwd(), path.resolve(path.dirname(file), name)).replace(/^.*node_modules\//, '');
for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1])) {
  console.log(
    `${String(n).padStart(7)} B  ~${String(Math.round((n / total) * gzip)).padStart(5)} B gzip  ${short(name)}`,
  );
}
