/**
 * docs/self-hosting.md's settings table matches the code: every environment variable the service
 * reads (found by scanning server/'s sources for env reads, tests and test helpers aside) has a
 * row, every row is a variable the service reads, and each default the code spells out (a number,
 * a text, a flag that is off) is the one the table gives.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

interface EnvRead {
  name: string;
  /** The default as the code spells it: a number, a text, `off` (a flag), or null (none given). */
  fallback: string | null;
  file: string;
}

/**
 * The environment reads of a source: config.ts's helpers `int(env, 'NAME', default)`,
 * `text(env, 'NAME') ?? 'default'` and `flag(env, 'NAME')`, and any `process.env.NAME`,
 * `process.env['NAME']` or `env.NAME` elsewhere.
 */
function envReads(text: string, file: string): EnvRead[] {
  const reads: EnvRead[] = [];
  for (const m of text.matchAll(/\bint\(env, '([A-Z][A-Z0-9_]*)', ([\d_]+)/g)) {
    reads.push({ name: m[1] ?? '', fallback: (m[2] ?? '').replaceAll('_', ''), file });
  }
  for (const m of text.matchAll(/\btext\(env, '([A-Z][A-Z0-9_]*)'\)(?:\s*\?\?\s*'([^']*)')?/g)) {
    // `?? ''` (DNS_SERVERS: the system's resolvers) gives no default to compare.
    reads.push({ name: m[1] ?? '', fallback: m[2] || null, file });
  }
  for (const m of text.matchAll(/\bflag\(env, '([A-Z][A-Z0-9_]*)'\)/g)) {
    reads.push({ name: m[1] ?? '', fallback: 'off', file });
  }
  for (const m of text.matchAll(
    /\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g,
  )) {
    reads.push({ name: m[1] ?? m[2] ?? '', fallback: null, file });
  }
  return reads;
}

function serviceSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (['node_modules', 'dist', 'testing'].includes(name)) return [];
    if (statSync(full).isDirectory()) return serviceSources(full);
    return /\.(ts|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

/** The rows of the table under `## Settings (environment variables)`: variable → its default cell. */
function settingsRows(markdown: string): Map<string, string> {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Settings (environment variables)'));
  const rows = new Map<string, string>();
  for (const line of (section ?? '').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '')?.[1];
    if (name) rows.set(name, cells[2] ?? '');
  }
  return rows;
}

/** Whether a table cell gives this default: the number or text in backticks, or the word `off`. */
function cellGives(cell: string, fallback: string): boolean {
  if (fallback === 'off') return /\boff\b/.test(cell);
  const quoted = [...cell.matchAll(/`([^`]*)`/g)].map((m) => (m[1] ?? '').replaceAll(',', ''));
  return quoted.includes(fallback);
}

describe('the settings table of docs/self-hosting.md', () => {
  it('reads env reads and table rows as written', () => {
    const code = [
      "port: int(env, 'PORT', 8_787),",
      "host: text(env, 'HOST') ?? '127.0.0.1',",
      "proxy: text(env, 'SMTP_PROXY'),",
      "x: flag(env, 'ALLOW_X'), y: process.env.Y_MS, z: process.env['Z_DIR'],",
    ].join('\n');
    expect(envReads(code, 'x.ts').map(({ name, fallback }) => [name, fallback])).toEqual([
      ['PORT', '8787'],
      ['HOST', '127.0.0.1'],
      ['SMTP_PROXY', null],
      ['ALLOW_X', 'off'],
      ['Y_MS', null],
      ['Z_DIR', null],
    ]);
    const table =
      '## Settings (environment variables)\n\n| Variable | Default | Meaning |\n| --- | --- | --- |\n| `PORT` | `8,787` | TCP port. |\n\n## Next\n| `NOT_HERE` | 1 | x |';
    expect([...settingsRows(table)]).toEqual([['PORT', '`8,787`']]);
    expect(cellGives('`8,787`', '8787')).toBe(true);
    expect(cellGives('`8788`', '8787')).toBe(false);
  });

  const reads = serviceSources(join(ROOT, 'server')).flatMap((file) =>
    envReads(readFileSync(file, 'utf8'), relative(ROOT, file)),
  );
  const rows = settingsRows(readFileSync(join(ROOT, 'docs/self-hosting.md'), 'utf8'));

  it('has a row for every variable the service reads, and none it does not read', () => {
    expect(reads.length).toBeGreaterThan(20);
    const read = [...new Set(reads.map((r) => r.name))].sort();
    expect([...rows.keys()].sort()).toEqual(read);
  });

  it('gives the defaults the code spells out', () => {
    const wrong = reads
      .filter((r) => r.fallback !== null && !cellGives(rows.get(r.name) ?? '', r.fallback))
      .map(
        (r) =>
          `${r.name}: the code's default is ${r.fallback} (${r.file}), the table says ${rows.get(r.name)}`,
      );
    expect(wrong).toEqual([]);
  });

  it.each(['.env.example', 'compose.yaml', 'server/deploy/verimark.env'])(
    'lets %s set every variable the service reads',
    (file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      // Set by the deployment itself there, not by the operator.
      const own = file === 'compose.yaml' ? ['DATABASE_URL', 'RUN_WORKER', 'HOST', 'PORT', 'DATA_DIR'] : [];
      const missing = [...new Set(reads.map((r) => r.name))].filter(
        (name) => !own.includes(name) && !new RegExp(`\\b${name}\\b`).test(text),
      );
      expect(missing).toEqual([]);
    },
  );
});
