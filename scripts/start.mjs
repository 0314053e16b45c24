#!/usr/bin/env node
// `npm start`: the local service (DATA_DIR .data) with an API key, the extension built for Chrome
// and Firefox (`build:test`: loopback host permissions), and — when a display is available —
// Chromium with the extension loaded and already configured for the service. Runs until Ctrl-C.
//   --headless  launch the configured Chromium even without a display (headless; for smoke tests)
//   --no-build  use the existing build:test output instead of building
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureKey } from './start-key.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR ?? '.data');
const OUT_DIR = path.resolve(ROOT, process.env.VERIMARK_OUT_DIR ?? '.output');
const env = { ...process.env, DATA_DIR };
const flags = new Set(process.argv.slice(2));
const headless = flags.has('--headless');
const children = new Set();
let browser = null;
let stopping = false;

function spawnChild(args, { prefix, onLine } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (prefix) console.log(`${prefix} ${line}`);
        onLine?.(line);
      }
    });
  }
  return child;
}

const exitCode = (child) =>
  new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await browser?.close().catch(() => undefined);
  for (const child of children) child.kill('SIGTERM');
  await Promise.all([...children].map(exitCode));
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));

/** Starts `server/main.ts` (as `npm run service` does) and resolves with its URL. */
function startService() {
  return new Promise((resolve, reject) => {
    const service = spawnChild(['--import', 'tsx', 'server/main.ts'], {
      prefix: '[service]',
      onLine(line) {
        const url = /Verimark service listening on (\S+)/.exec(line)?.[1];
        if (url) resolve(url);
      },
    });
    exitCode(service).then((code) => {
      if (!stopping) {
        reject(
          new Error(
            `The service stopped (exit ${code}); is port ${env.PORT ?? 8787} in use? Set PORT to change it.`,
          ),
        );
      }
    });
  });
}

async function build() {
  const child = spawn('npm', ['run', '--silent', 'build:test'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  if ((await exitCode(child)) !== 0) throw new Error(`npm run build:test failed:\n${output}`);
}

async function launchBrowser(url, key) {
  const { tsImport } = await import('tsx/esm/api');
  const harness = await tsImport('../test/e2e/testing/session.ts', import.meta.url);
  browser = await harness.launchChromium({
    userDataDir: path.join(DATA_DIR, 'chromium-profile'),
    headless,
    handleSignals: false,
  });
  await browser.configure(url, key);
  await browser.openExtensionPage('options.html');
  browser.browser.on('disconnected', () => {
    if (!stopping) console.log('Chromium was closed; the service keeps running. Ctrl-C stops it.');
  });
}

try {
  const building = flags.has('--no-build') ? '' : ' and building the extension';
  const shownDir = DATA_DIR.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, DATA_DIR) : DATA_DIR;
  console.log(`Starting the Verimark service (DATA_DIR ${shownDir})${building}…`);
  const [url] = await Promise.all([startService(), flags.has('--no-build') ? null : build()]);
  const key = await ensureKey({ root: ROOT, env, dataDir: DATA_DIR, url });
  const display = process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  let launched = false;
  if (display || headless) {
    try {
      await launchBrowser(url, key);
      launched = true;
    } catch (err) {
      console.error(
        `Could not launch Chromium with the extension: ${err instanceof Error ? err.message : err}`,
      );
    }
  }
  const rel = (dir) => path.relative(process.cwd(), path.join(OUT_DIR, dir)) || '.';
  console.log(
    [
      '',
      'Verimark is running.',
      `  Service URL: ${url}`,
      `  API key:     ${key}`,
      `  Chrome/Chromium extension: ${rel('chrome-mv3-test')}  (chrome://extensions → Developer mode → Load unpacked)`,
      `  Firefox extension:         ${rel('firefox-mv2-test')}  (about:debugging → This Firefox → Load Temporary Add-on → manifest.json)`,
      launched
        ? `  Chromium is open${headless ? ' (headless)' : ''} with the extension loaded and configured for this service.`
        : '  Enter the URL and key in the extension\'s options page ("Service URL", "API key", "Save").',
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await stop(1);
}
