/**
 * The content script is injected into every page of an enabled site, so its size is a budget
 * (issue 11: ≤ 16 KB gzip; docs/design.md §5): what runs only after a person acts belongs in the
 * on-demand script; the popup has its own (issue 13: ≤ 35 KB). Read from the build:test output of both browsers, gzipped as the benchmark does.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_GZIP_GOAL, gzipBytes, POPUP_GZIP_GOAL, popupSizes } from '../../bench/testing/script-size';
import { extensionDir, readBuiltManifest } from './testing/paths';

describe('page script sizes', () => {
  for (const browser of ['chromium', 'firefox'] as const) {
    it(`${browser}: the content script stays within ${CONTENT_GZIP_GOAL} bytes gzip`, () => {
      readBuiltManifest(browser); // a clear error when there is no build
      const dir = extensionDir(browser);
      const content = gzipBytes(path.join(dir, 'content-scripts', 'content.js'));
      expect(content).toBeGreaterThan(1000);
      expect(content, 'move work that waits for a person into entrypoints/popover.ts').toBeLessThanOrEqual(
        CONTENT_GZIP_GOAL,
      );
    });
  }

  it(`the popup loads at most ${POPUP_GZIP_GOAL} bytes gzip (Chromium build)`, () => {
    readBuiltManifest('chromium');
    const { files, total } = popupSizes(extensionDir('chromium'));
    expect(files.length).toBeGreaterThan(2);
    expect(total, files.map(([f, n]) => `${f} ${n}`).join(', ')).toBeLessThanOrEqual(POPUP_GZIP_GOAL);
  });
});
