#!/usr/bin/env node
// Makes sure the end-to-end suites have their browsers: Debian's `chromium` and `firefox-esr`
// (or the executables named by VERIMARK_CHROMIUM / VERIMARK_FIREFOX), and Chromium's UI languages
// (`chromium-l10n`, for the suites that run it in German; VERIMARK_CHROMIUM_LOCALE names another
// German `de.pak`). Installs them with apt-get
// when running as root; otherwise stops with a message naming what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const BROWSERS = [
  { name: 'Chromium', env: 'VERIMARK_CHROMIUM', path: '/usr/bin/chromium', pkg: 'chromium' },
  { name: 'Firefox', env: 'VERIMARK_FIREFOX', path: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
  {
    name: 'Chromium languages',
    env: 'VERIMARK_CHROMIUM_LOCALE',
    path: '/usr/lib/chromium/locales/de.pak',
    pkg: 'chromium-l10n',
  },
];

const executable = (b) => process.env[b.env] || b.path;
const missingBrowsers = () => BROWSERS.filter((b) => !existsSync(executable(b)));

function hasAptGet() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args[0]} failed (exit ${result.status ?? result.signal})`);
}

function explain(missing) {
  const lines = missing.map((b) => `  - ${b.name}: not found at ${executable(b)}`);
  return [
    'The end-to-end suites need real browsers, and these are missing:',
    ...lines,
    `Install Debian's packages: sudo apt-get install -y --no-install-recommends ${BROWSERS.map((b) => b.pkg).join(' ')}`,
    '(npm test installs them itself when it runs as root on a system with apt-get),',
    `or point at browsers installed elsewhere: ${BROWSERS.map((b) => `${b.env}=/path/to/${b.pkg}`).join(' ')}`,
  ].join('\n');
}

/** Resolves with the browsers' paths; throws with an explanation when they cannot be provided. */
export function provisionBrowsers() {
  let missing = missingBrowsers();
  if (missing.length > 0) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !hasAptGet()) throw new Error(explain(missing));
    console.log(`Installing ${missing.map((b) => b.pkg).join(', ')} for the end-to-end suites…`);
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', ...BROWSERS.map((b) => b.pkg)]);
    missing = missingBrowsers();
    if (missing.length > 0) throw new Error(explain(missing));
  }
  return Object.fromEntries(BROWSERS.map((b) => [b.pkg, executable(b)]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const found = provisionBrowsers();
    for (const [pkg, file] of Object.entries(found)) console.log(`${pkg}: ${file}`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
