/**
 * `npm start` (scripts/start.mjs, on the existing build:test output): the service with a key that
 * works, the extension's folders, Chromium configured for the service, and a clean stop on
 * Ctrl-C that leaves neither the service nor the browser behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './testing/paths';
import { waitFor } from './testing/process-guard';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'verimark-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  url: string;
  key: string;
}

async function start(...flags: string[]): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build', ...flags], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  await waitFor(() => text.includes('Press Ctrl-C to stop.') || child.exitCode !== null, 90_000, 'npm start');
  const url = /Service URL: (\S+)/.exec(text)?.[1];
  const key = /^ +API key: +(\S+)/m.exec(text)?.[1];
  if (!url || !key) throw new Error(`npm start printed no URL and key:\n${text}`);
  return { child, output: () => text, url, key };
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGINT');
  return new Promise((done) => started.child.once('exit', (code) => done(code)));
}

function filesStatus(url: string, key: string): Promise<number> {
  return fetch(`${url}/verify/bulk/files?page=1&pageSize=1`, { headers: { 'x-api-key': key } }).then(
    (r) => r.status,
    () => -1,
  );
}

/** Pids of processes whose command line mentions `text`. */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('npm start', () => {
  it('without a display: prints the service URL, a working key and the built extensions; Ctrl-C stops all', async () => {
    const started = await start();
    expect(started.output()).toMatch(/Demo API key/);
    expect(await filesStatus(started.url, started.key)).toBe(200);
    const folders = [...started.output().matchAll(/extension: +(\S+)/g)].map((m) =>
      path.resolve(ROOT, m[1] ?? ''),
    );
    expect(folders).toHaveLength(2);
    for (const folder of folders) expect(existsSync(path.join(folder, 'manifest.json'))).toBe(true);
    expect(started.output()).toMatch(/options page/);

    expect(await stop(started)).toBe(0);
    expect(await filesStatus(started.url, started.key)).toBe(-1);
  });

  it('keeps handing out the same key on the same data directory', async () => {
    const first = readFileSync(path.join(dataDir, 'start-api-key'), 'utf8').trim();
    const started = await start();
    expect(started.key).toBe(first);
    expect(started.output()).not.toMatch(/Demo API key/);
    expect(await stop(started)).toBe(0);
  });

  it('launches Chromium configured for the service, and closes it on Ctrl-C', async () => {
    const started = await start('--headless');
    expect(started.output()).toMatch(
      /Chromium is open \(headless\) with the extension loaded and configured/,
    );
    const profile = path.join(dataDir, 'chromium-profile');
    expect(processesWith(profile).length).toBeGreaterThan(0);
    expect(await stop(started)).toBe(0);
    await waitFor(() => processesWith(profile).length === 0, 15_000, 'Chromium to exit');
  });
});
