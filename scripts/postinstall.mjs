#!/usr/bin/env node
// After `npm ci`: WXT's generated types (.wxt/) for the extension. An install without dev
// dependencies (`npm ci --omit=dev -w server`, the service's production install) has no WXT and
// needs none of it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('wxt/package.json');
} catch {
  process.exit(0);
}
const { status } = spawnSync('npx', ['wxt', 'prepare'], { stdio: 'inherit' });
process.exit(status ?? 1);
