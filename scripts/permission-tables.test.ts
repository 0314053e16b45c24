/**
 * The three permission tables — README, docs/store/chrome.md, docs/store/firefox.md — say what
 * the store builds really ask for: both browsers are built (as `npm run build` does, into a
 * temporary folder) and each table's permissions are compared with the manifest written there.
 * The tables give every permission the same reason, and Firefox's data-collection table declares
 * what the manifest declares.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Manifest keys a table names beside the permissions they hold. */
const KEYS = new Set(['optional_permissions', 'optional_host_permissions']);

interface Manifest {
  permissions?: string[];
  optional_permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  commands?: Record<string, unknown>;
  browser_specific_settings?: { gecko?: { data_collection_permissions?: { required?: string[] } } };
}

/** The rows of the first table after `marker` in `file`: its cells, header and rule left out. */
function tableAfter(text: string, marker: string): string[][] {
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`no "${marker}"`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** What a row's first cell names: its backticked permissions and host patterns. */
function named(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map(([, name = '']) => name).filter((name) => !KEYS.has(name));
}

/** Every permission a manifest asks for, `commands` (a key that asks for nothing) included. */
function asked(manifest: Manifest): string[] {
  return [
    ...(manifest.permissions ?? []),
    ...(manifest.optional_permissions ?? []),
    ...(manifest.host_permissions ?? []),
    ...(manifest.optional_host_permissions ?? []),
    ...(manifest.commands ? ['commands'] : []),
  ].sort();
}

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const TABLES = {
  readme: tableAfter(read('README.md'), '## Permissions, and why each is needed'),
  chrome: tableAfter(read('docs/store/chrome.md'), '**Permission justifications**'),
  firefox: tableAfter(read('docs/store/firefox.md'), '## Permissions, and why'),
};
const permissionsOf = (rows: string[][]) => rows.flatMap(([cell = '']) => named(cell)).sort();

describe('the permission tables', () => {
  let out = '';
  const manifests: Record<'chrome' | 'firefox', Manifest> = { chrome: {}, firefox: {} };

  beforeAll(() => {
    out = mkdtempSync(path.join(tmpdir(), 'verimark-manifest-'));
    const env = { ...process.env, VERIMARK_OUT_DIR: out, VERIMARK_TEST_BUILD: '' };
    for (const browser of ['chrome', 'firefox'] as const) {
      execFileSync('npx', ['wxt', 'build', '-b', browser], { cwd: ROOT, env, stdio: 'pipe' });
      const folder = browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2';
      manifests[browser] = JSON.parse(readFileSync(path.join(out, folder, 'manifest.json'), 'utf8'));
    }
  }, 600_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('reads a table and the names in its first column', () => {
    const text =
      'x\n## P\n\n| Permission | Why |\n| --- | --- |\n| `a` (Chrome only) | A. |\n| `optional_permissions`: `https://*/*` | B. |\n\nafter';
    expect(tableAfter(text, '## P')).toEqual([
      ['`a` (Chrome only)', 'A.'],
      ['`optional_permissions`: `https://*/*`', 'B.'],
    ]);
    expect(permissionsOf(tableAfter(text, '## P'))).toEqual(['a', 'https://*/*']);
  });

  it('docs/store/chrome.md lists what the Chrome build asks for, and nothing else', () => {
    expect(manifests.chrome.host_permissions ?? []).toEqual([]);
    expect(permissionsOf(TABLES.chrome)).toEqual(asked(manifests.chrome));
  });

  it('docs/store/firefox.md lists what the Firefox build asks for, and nothing else', () => {
    expect(permissionsOf(TABLES.firefox)).toEqual(asked(manifests.firefox));
  });

  it("the README lists both builds' permissions, and marks those only one browser asks for", () => {
    const chrome = asked(manifests.chrome);
    const firefox = asked(manifests.firefox);
    expect(permissionsOf(TABLES.readme)).toEqual([...new Set([...chrome, ...firefox])].sort());
    for (const [cell = ''] of TABLES.readme) {
      const names = named(cell);
      const onlyChrome = names.every((name) => chrome.includes(name) && !firefox.includes(name));
      const onlyFirefox = names.every((name) => firefox.includes(name) && !chrome.includes(name));
      expect(cell.includes('(Chrome only)'), cell).toBe(onlyChrome);
      expect(cell.includes('(Firefox only)'), cell).toBe(onlyFirefox);
    }
  });

  it('give each permission the same reason in all three', () => {
    const reasons = new Map<string, Set<string>>();
    for (const rows of Object.values(TABLES)) {
      for (const [cell = '', why = ''] of rows) {
        const key = named(cell).join(' ');
        reasons.set(key, (reasons.get(key) ?? new Set()).add(why));
      }
    }
    const differing = [...reasons].filter(([, whys]) => whys.size > 1).map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it("Firefox's data-collection table declares what the manifest declares", () => {
    const rows = tableAfter(read('docs/store/firefox.md'), '## Data collection');
    const declared = rows
      .filter(([, state]) => state === '**required**')
      .flatMap(([cell = '']) => named(cell));
    const manifest =
      manifests.firefox.browser_specific_settings?.gecko?.data_collection_permissions?.required;
    expect(declared.sort()).toEqual([...(manifest ?? [])].sort());
  });
});
