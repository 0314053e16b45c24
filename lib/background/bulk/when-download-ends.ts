/** Resolves once a download is complete or interrupted (or after `maxMs`), so its blob URL can go. */
import { browser } from 'wxt/browser';

type Delta = { id: number; state?: { current?: string } };

export function whenDownloadEnds(downloadId: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      browser.downloads.onChanged.removeListener(listener);
      resolve();
    };
    const listener = (delta: Delta) => {
      const state = delta.state?.current;
      if (delta.id === downloadId && (state === 'complete' || state === 'interrupted')) done();
    };
    const timer = setTimeout(done, maxMs);
    browser.downloads.onChanged.addListener(listener);
  });
}
