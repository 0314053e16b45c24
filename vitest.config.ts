import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// scripts/node22-check.mjs runs the service's suites on another Node than the repository's install
// was built for: in-process SQLite then loads a better-sqlite3 compiled for that Node.
const sqliteModule = process.env.VERIMARK_SQLITE_MODULE;

export default defineConfig({
  test: {
    projects: [
      {
        // Extension modules with WXT's fake browser.
        plugins: [WxtVitest()],
        esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
        test: {
          name: 'unit',
          setupFiles: ['lib/testing/catalog.ts'],
          include: [
            'lib/**/*.test.{ts,tsx}',
            'components/**/*.test.{ts,tsx}',
            'entrypoints/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        // The reference service: unit tests and integration tests against real DNS/SMTP servers on loopback.
        resolve: { alias: sqliteModule ? { 'better-sqlite3': sqliteModule } : {} },
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The package both sides share: the wire contract and the address rulebook.
        test: {
          name: 'contract',
          include: ['contract/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // The repository's scripts (npm test's browser provisioning).
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // The extension's API client against the real service over HTTP.
        plugins: [WxtVitest()],
        test: {
          name: 'integration',
          setupFiles: ['lib/testing/catalog.ts'],
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Real Chromium and Firefox with the build:test extension loaded.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the other projects, so browsers do not compete with them for the CPU.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
