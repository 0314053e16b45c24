import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SOURCES, SOURCES_EXCLUDED } from '../wxt.config';
import {
  compareFiles,
  describeDifference,
  sourcesOf,
  storeEnv,
  zipEntries,
  zipPaths,
} from './store-zips.mjs';

interface ZipWriter {
  file(name: string, data: string | Uint8Array): void;
  folder(name: string): void;
  generateAsync(options: { type: 'nodebuffer' }): Promise<Buffer>;
}
const JSZip = createRequire(fileURLToPath(import.meta.resolve('wxt')))('jszip') as new () => ZipWriter;

const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([name, text]) => [name, Buffer.from(text)]));

let temp = '';
afterEach(async () => {
  if (temp) await rm(temp, { recursive: true, force: true });
  temp = '';
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the sources zip (wxt.config.ts SOURCES)', () => {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  const taken = sourcesOf(tracked, SOURCES, SOURCES_EXCLUDED);

  it('holds every source of the extension and how to build it', () => {
    const needed = tracked.filter(
      (f) =>
        /^(entrypoints|components|lib|public)\//.test(f) &&
        !/\.test\.tsx?$/.test(f) &&
        !/(^|\/)testing\//.test(f),
    );
    expect(needed.length).toBeGreaterThan(50);
    expect(needed.filter((f) => !taken.includes(f))).toEqual([]);
    for (const file of ['package.json', 'package-lock.json', 'wxt.config.ts', 'tsconfig.json', 'LICENSE']) {
      expect(taken).toContain(file);
    }
  });

  it('holds no test, test helper, bench, service code, data or other script', () => {
    const unwanted = taken.filter(
      (f) =>
        /\.test\.tsx?$/.test(f) ||
        /(^|\/)testing\//.test(f) ||
        /^(test|bench|\.ci)\//.test(f) ||
        (f.startsWith('server/') && f !== 'server/package.json') ||
        (f.startsWith('docs/') && f !== 'docs/store/firefox.md'),
    );
    expect(unwanted).toEqual([]);
    expect(taken.filter((f) => f.startsWith('scripts/'))).toEqual([
      'scripts/inline-stylesheets.ts',
      'scripts/page-scripts-browser.ts',
      'scripts/plain-dynamic-imports.ts',
      'scripts/postinstall.mjs',
    ]);
  });

  it('reads the exclusions as WXT does: they win over any inclusion', () => {
    expect(
      sourcesOf(['lib/a.ts', 'lib/a.test.ts', 'lib/testing/b.ts', 'x.ts'], ['lib/**'], SOURCES_EXCLUDED),
    ).toEqual(['lib/a.ts']);
  });
});

describe('store-zips', () => {
  it('finds the same files with the same bytes the same', () => {
    const a = files({ 'manifest.json': '{}', 'background.js': 'x' });
    expect(compareFiles(a, files({ 'background.js': 'x', 'manifest.json': '{}' })).same).toBe(true);
  });

  it('names missing, extra and changed files', () => {
    const store = files({ 'manifest.json': '{}', 'a.js': '1', 'b.js': '2' });
    const rebuilt = files({ 'manifest.json': '{ }', 'a.js': '1', 'c.js': '3' });
    const diff = compareFiles(store, rebuilt);
    expect(diff).toEqual({ missing: ['b.js'], extra: ['c.js'], changed: ['manifest.json'], same: false });
    expect(describeDifference(diff)).toBe(
      'missing in the rebuild: b.js; only in the rebuild: c.js; different bytes: manifest.json',
    );
  });

  it('reads a zip’s files, without its folders', async () => {
    temp = await mkdtemp(path.join(tmpdir(), 'store-zips-test-'));
    const zip = new JSZip();
    zip.folder('icon');
    zip.file('icon/16.png', new Uint8Array([137, 80, 78, 71]));
    zip.file('manifest.json', '{"name":"Verimark"}');
    const file = path.join(temp, 'x.zip');
    await writeFile(file, await zip.generateAsync({ type: 'nodebuffer' }));
    const entries = await zipEntries(file);
    expect([...entries.keys()].sort()).toEqual(['icon/16.png', 'manifest.json']);
    expect(entries.get('icon/16.png')).toEqual(Buffer.from([137, 80, 78, 71]));
  });

  it('builds for the store without the test, source-map and no-minify switches', () => {
    const env = { PATH: '/bin', VERIMARK_TEST_BUILD: '1', VERIMARK_SOURCEMAP: '1', VERIMARK_OUT_DIR: 'o' };
    expect(storeEnv(env)).toEqual({ PATH: '/bin', CI: 'true' });
    expect(storeEnv(env, { keepOutDir: true })).toEqual({ PATH: '/bin', CI: 'true', VERIMARK_OUT_DIR: 'o' });
  });

  it('names the zips as WXT does, from package.json', async () => {
    temp = await mkdtemp(path.join(tmpdir(), 'store-zips-test-'));
    await writeFile(path.join(temp, 'package.json'), JSON.stringify({ name: 'verimark', version: '1.2.3' }));
    expect(await zipPaths(temp, '/out')).toEqual({
      chrome: '/out/verimark-1.2.3-chrome.zip',
      firefox: '/out/verimark-1.2.3-firefox.zip',
      sources: '/out/verimark-1.2.3-sources.zip',
    });
  });
});
