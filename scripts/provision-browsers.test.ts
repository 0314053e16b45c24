/**
 * scripts/provision-browsers.mjs with a stand-in apt-get on PATH (nothing is installed for real):
 * it installs Debian's packages when a browser is missing and it may, and otherwise stops with a
 * message naming the packages and the env vars.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, 'provision-browsers.mjs');
const isRoot = process.getuid?.() === 0;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'verimark-provision-'));
  for (const tool of ['sh', 'mkdir', 'touch', 'chmod']) {
    const found = ['/bin', '/usr/bin'].map((d) => path.join(d, tool)).find((p) => existsSync(p));
    if (found) symlinkSync(found, path.join(dir, tool));
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>) {
  return spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    env: { PATH: dir, HOME: dir, ...env },
  });
}

/** An apt-get that logs its arguments and "installs" by creating the executables. */
function fakeAptGet(creates: string[]): string {
  const log = path.join(dir, 'apt.log');
  const body = creates.map((file) => `touch '${file}'; chmod +x '${file}'`).join('\n') || ':';
  writeFileSync(
    path.join(dir, 'apt-get'),
    `#!/bin/sh\necho "$@" >> '${log}'\nif [ "$1" = install ]; then\n${body}\nfi\n`,
  );
  chmodSync(path.join(dir, 'apt-get'), 0o755);
  return log;
}

it('does nothing when both browsers and Chromium’s languages are there', () => {
  const present = path.join(dir, 'present');
  writeFileSync(present, '');
  const log = fakeAptGet([]);
  const result = run({
    VERIMARK_CHROMIUM: present,
    VERIMARK_FIREFOX: present,
    VERIMARK_CHROMIUM_LOCALE: present,
  });
  expect(result.status).toBe(0);
  expect(existsSync(log)).toBe(false);
});

it.runIf(isRoot)('installs chromium, firefox-esr and chromium-l10n with apt-get when one is missing', () => {
  const chromium = path.join(dir, 'chromium');
  const firefox = path.join(dir, 'firefox-esr');
  const locale = path.join(dir, 'de.pak');
  writeFileSync(chromium, '');
  writeFileSync(locale, '');
  const log = fakeAptGet([firefox]);
  const result = run({
    VERIMARK_CHROMIUM: chromium,
    VERIMARK_FIREFOX: firefox,
    VERIMARK_CHROMIUM_LOCALE: locale,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
    'update',
    'install -y --no-install-recommends chromium firefox-esr chromium-l10n',
  ]);
});

it('stops with a message naming the packages and the env vars when it cannot install', () => {
  const missing = path.join(dir, 'no-such-browser');
  // No apt-get on PATH (and, when not root, no permission either).
  const result = run({ VERIMARK_CHROMIUM: missing, VERIMARK_FIREFOX: missing });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`Chromium: not found at ${missing}`);
  expect(result.stderr).toMatch(
    /apt-get install -y --no-install-recommends chromium firefox-esr chromium-l10n/,
  );
  expect(result.stderr).toMatch(/VERIMARK_CHROMIUM=.*VERIMARK_FIREFOX=/);
});

it.runIf(isRoot)('stops when apt-get ran but the browser is still missing', () => {
  const missing = path.join(dir, 'elsewhere', 'chromium');
  const log = fakeAptGet([]);
  const result = run({ VERIMARK_CHROMIUM: missing, VERIMARK_FIREFOX: missing });
  expect(result.status).toBe(1);
  expect(readFileSync(log, 'utf8')).toContain('install');
  expect(result.stderr).toContain('not found');
});
