/**
 * The production install of docs/self-hosting.md, done for real: `npm run build -w server`, the
 * built folder copied elsewhere, `npm ci --omit=dev` there, then `node main.js` — no tsx, no
 * TypeScript, no dev dependency — verifying one address and one CSV through HTTP against real DNS
 * and SMTP servers on loopback, with the key made by the installed admin command.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, waitFor } from './testing/api';
import { FAKE_DOMAINS } from './testing/fake-net-zone';
import { lastLine, type RunningService, startService } from './testing/service';

const SERVER = dirname(fileURLToPath(import.meta.url));
const INSTALL_TIMEOUT_MS = 10 * 60_000;

let installDir = '';
let service: RunningService | undefined;

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_yes: 'true' },
  });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  run(process.execPath, ['build.mjs'], SERVER);
  installDir = await mkdtemp(join(tmpdir(), 'verimark-production-'));
  cpSync(join(SERVER, 'dist'), installDir, { recursive: true });
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], installDir);
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await service?.stop();
  if (installDir) await rm(installDir, { recursive: true, force: true });
});

describe('the production install (built JavaScript, runtime dependencies only)', () => {
  it('holds the runtime dependencies and none of the development tools', () => {
    const pkg = JSON.parse(readFileSync(join(installDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.devDependencies).toBeUndefined();
    expect(existsSync(join(installDir, 'node_modules/fastify/package.json'))).toBe(true);
    expect(existsSync(join(installDir, 'node_modules/better-sqlite3/package.json'))).toBe(true);
    for (const dev of ['tsx', 'esbuild', 'typescript', 'vitest', 'wxt', 'preact', '@verimark/contract']) {
      expect(existsSync(join(installDir, 'node_modules', dev)), dev).toBe(false);
    }
    // Nothing in the build loads TypeScript.
    expect(readFileSync(join(installDir, 'main.js'), 'utf8')).not.toMatch(/from ["'][^"']*\.ts["']/);
  });

  it('starts with node, makes a key with its admin command and verifies an address and a CSV over HTTP', async () => {
    service = await startService({ serviceDir: installDir });
    const made = await service.admin(['create-key', '--credits', '10', '--label', 'production']);
    const api = new Api(service.baseUrl, lastLine(made));

    const single = await api.verifyNow(`alice@${FAKE_DOMAINS.deliverable}`);
    expect(single.status).toBe('deliverable');

    const upload = await api.upload(
      `Email\nbob@${FAKE_DOMAINS.deliverable}\nnobody@${FAKE_DOMAINS.deliverable}\n`,
    );
    expect(upload.status).toBe(200);
    const done = await api.waitForFile(upload.body.data.file_id);
    expect(done.status).toBe('completed');
    const csv = await waitFor(async () => {
      const response = await fetch(done.download_url);
      return response.ok ? response.text() : null;
    });
    expect(csv.split(/\r?\n/)[1]).toMatch(/^bob@deliverable\.test,deliverable,/);
    expect(csv.split(/\r?\n/)[2]).toMatch(/^nobody@deliverable\.test,undeliverable,/);
  });
});
