// The container check's own Vitest configuration (scripts/container-check.mjs runs it): not a
// project of the main configuration, because it needs podman and the base images that script makes.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'container',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/container/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 20 * 60_000,
  },
});
