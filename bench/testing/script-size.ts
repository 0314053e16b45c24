/**
 * The gzip size of the extension's page scripts as built (Node's zlib gzip, default level — what
 * the README's figures use): the content script, injected into every page of an enabled site
 * (goal ≤ 16 KB, issue 11), and the on-demand script it asks for when a person needs it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const CONTENT_GZIP_GOAL = 16_000;

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
