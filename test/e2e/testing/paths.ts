/** Where the end-to-end suites find the built extension and the browsers. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type BrowserName = 'chromium' | 'firefox';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Output folders of `npm run build:test` (wxt.config.ts: outDirTemplate of the test build). */
const OUT_SUBDIR: Record<BrowserName, string> = {
  chromium: 'chrome-mv3-test',
  firefox: 'firefox-mv2-test',
};

const EXECUTABLES: Record<BrowserName, { env: string; fallback: string; apt: string }> = {
  chromium: { env: 'VERIMARK_CHROMIUM', fallback: '/usr/bin/chromium', apt: 'chromium' },
  firefox: { env: 'VERIMARK_FIREFOX', fallback: '/usr/bin/firefox-esr', apt: 'firefox-esr' },
};

/** The build:test output for a browser; VERIMARK_OUT_DIR replaces `.output` as in wxt.config.ts. */
export function extensionDir(browser: BrowserName): string {
  return path.resolve(ROOT, process.env.VERIMARK_OUT_DIR ?? '.output', OUT_SUBDIR[browser]);
}

/** The built manifest, or a clear error telling how to build it. */
export function readBuiltManifest(browser: BrowserName): Record<string, unknown> {
  const file = path.join(extensionDir(browser), 'manifest.json');
  if (!existsSync(file)) {
    throw new Error(`No extension build at ${path.dirname(file)}: run \`npm run build:test\` first.`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The browser binary: $VERIMARK_CHROMIUM / $VERIMARK_FIREFOX, else Debian's package path. */
export function browserExecutable(browser: BrowserName): string {
  const { env, fallback, apt } = EXECUTABLES[browser];
  const chosen = process.env[env] || fallback;
  if (!existsSync(chosen)) {
    throw new Error(
      `${browser} not found at ${chosen}: install Debian's \`${apt}\` package (npm test does it when run as ` +
        `root) or set ${env} to the browser's executable.`,
    );
  }
  return chosen;
}
