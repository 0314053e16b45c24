/**
 * Files the browser downloaded into the session's download folder (preset by the harness:
 * Chromium through its profile preferences and CDP Browser.setDownloadBehavior, Firefox through
 * its download prefs). A download is complete when no partial file (.crdownload, .part) is left.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ExtensionSession } from '../harness';
import { waitFor } from './process-guard';

const PARTIAL = /\.(crdownload|part)$/;

/** Names of the finished downloads. */
export function listDownloads(session: Pick<ExtensionSession, 'downloadDir'>): string[] {
  const names = readdirSync(session.downloadDir);
  return names.filter((n) => !PARTIAL.test(n) && !names.includes(`${n}.part`) && !n.startsWith('.'));
}

/** Waits for a finished download whose name matches and returns its path and text. */
export function waitForDownload(
  session: Pick<ExtensionSession, 'downloadDir'>,
  name: RegExp,
  ms = 30_000,
): Promise<{ file: string; text: string }> {
  return waitFor(
    () => {
      const found = listDownloads(session).find((n) => name.test(n));
      if (!found) return undefined;
      const file = path.join(session.downloadDir, found);
      if (statSync(file).size === 0) return undefined;
      return { file, text: readFileSync(file, 'utf8') };
    },
    ms,
    `a download named ${name}`,
  );
}
