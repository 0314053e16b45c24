/**
 * Files the browser downloaded into the session's download folder. The harness presets the
 * folder the way a user's settings would (Chromium: the profile's Preferences; Firefox: its
 * download prefs) and never through CDP `Browser.setDownloadBehavior`, which makes Chromium
 * ignore the `filename` an extension asks for. A download is complete when no partial file
 * (.crdownload, .part) is left.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from './process-guard';
import type { ExtensionSession } from './session';

type Folder = Pick<ExtensionSession, 'downloadDir'>;
const PARTIAL = /\.(crdownload|part)$/;

/** Names of the finished downloads. */
export function listDownloads(session: Folder): string[] {
  const names = readdirSync(session.downloadDir);
  return names.filter((n) => !PARTIAL.test(n) && !names.includes(`${n}.part`) && !n.startsWith('.'));
}

function finished(session: Folder, name: string): { file: string; text: string } | undefined {
  if (readdirSync(session.downloadDir).some((n) => PARTIAL.test(n))) return undefined;
  const file = path.join(session.downloadDir, name);
  if (statSync(file).size === 0) return undefined;
  return { file, text: readFileSync(file, 'utf8') };
}

/**
 * Waits for the next finished download, whatever its name, so a test can assert the exact name
 * (a wrong name fails as a clear mismatch, not a timeout). `before` is listDownloads() taken
 * before the download was started.
 */
export function waitForNextDownload(
  session: Folder,
  before: readonly string[],
  ms = 30_000,
): Promise<{ name: string; file: string; text: string }> {
  return waitFor(
    () => {
      const name = listDownloads(session).find((n) => !before.includes(n));
      const done = name ? finished(session, name) : undefined;
      return name && done ? { name, ...done } : undefined;
    },
    ms,
    `a new download in ${session.downloadDir}`,
  );
}
