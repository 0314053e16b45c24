/**
 * The gzip size of the extension's page scripts as built (Node's zlib gzip, default level — what
 * docs/benchmarks.md's figures use): the content script, injected into every page of an enabled
 * site (goal ≤ 16 KB, issue 11), and the on-demand script it asks for when a person needs it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const CONTENT_GZIP_GOAL = 16_000;
/** The popup: all it loads, gzipped (issue 13: ≤ 35 KB). */
export const POPUP_GZIP_GOAL = 35 * 1024;

export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file)).length;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Prints the sizes for an extension build folder; returns the content script's gzip bytes. */
export function printScriptSizes(extensionDir: string): number {
  const content = gzipBytes(path.join(extensionDir, 'content-scripts', 'content.js'));
  const onDemand = gzipBytes(path.join(extensionDir, 'popover.js'));
  const verdict = content <= CONTENT_GZIP_GOAL ? 'within' : 'OVER';
  console.log(
    `content script gzip (goal ≤ ${kb(CONTENT_GZIP_GOAL)}):          ${kb(content)} (${content} B, ${verdict} the goal)`,
  );
  console.log(
    `  on-demand script (popover, Replace, guard dialog): ${kb(onDemand)} gzip, injected when first needed`,
  );
  return content;
}

/** JS chunks a chunk imports, statically or dynamically (`./<name>.js` or `chunks/<name>.js`), as paths under the build. */
function chunkRefs(code: string): string[] {
  const refs = [...code.matchAll(/["'](?:\.\/|chunks\/)([\w-]+\.js)["']/g)].map(
    (m) => `chunks/${m[1] ?? ''}`,
  );
  return [...new Set(refs)];
}

/**
 * gzip sizes of what opening the popup loads: popup.html, everything its head loads (scripts,
 * module preloads, stylesheets) and, from there, every chunk they import, also the app the entry
 * imports after the first paint. The CSV preflight worker (assets/) is loaded only when a file is
 * chosen: apart.
 */
export function popupSizes(dir: string): { files: [string, number][]; total: number; worker: number } {
  const html = readFileSync(path.join(dir, 'popup.html'), 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
  const files: [string, number][] = [['popup.html', gzipSync(html).length]];
  const seen = new Set<string>();
  for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const text = readFileSync(path.join(dir, ref));
    files.push([ref, gzipSync(text).length]);
    if (ref.endsWith('.js')) queue.push(...chunkRefs(text.toString('utf8')));
  }
  const assets = existsSync(path.join(dir, 'assets')) ? readdirSync(path.join(dir, 'assets')) : [];
  const worker = assets
    .filter((f) => f.startsWith('preflight.worker'))
    .reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dir, 'assets', f))).length, 0);
  return { files, total: files.reduce((sum, [, size]) => sum + size, 0), worker };
}
