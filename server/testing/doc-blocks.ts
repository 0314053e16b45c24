/**
 * The commands and configurations of docs/self-hosting.md as the tests run them: the fenced block
 * right after a `<!-- test: NAME -->` comment, taken from the page itself (never retyped), and the
 * page's install paths moved under a temporary folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SELF_HOSTING = resolve(ROOT, 'docs/self-hosting.md');

/** The body of the one fenced block marked `<!-- test: name -->` in a Markdown file. */
export function docBlock(name: string, file = SELF_HOSTING): string {
  const text = readFileSync(file, 'utf8');
  const marker = new RegExp(`^<!-- test: ${name} -->\\n(\`{3,})[^\\n]*\\n([\\s\\S]*?)\\n\\1$`, 'gm');
  const found = [...text.matchAll(marker)];
  if (found.length !== 1) {
    throw new Error(`${file} has ${found.length} blocks marked <!-- test: ${name} --> (want exactly one)`);
  }
  return found[0]?.[2] ?? '';
}

/** Replaces every occurrence of each key by its value in one pass (longest keys first). */
export function substitute(text: string, map: Record<string, string>): string {
  const keys = Object.keys(map).sort((a, b) => b.length - a.length);
  if (keys.length === 0) return text;
  const pattern = new RegExp(keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return text.replace(pattern, (found) => map[found] ?? found);
}

/**
 * An operator's edit of an environment file (`NAME=value` lines): each setting's line, commented
 * out or not, becomes `NAME=value`; a setting without a line is appended.
 */
export function editEnvFile(file: string, settings: Record<string, string>): void {
  let text = readFileSync(file, 'utf8');
  for (const [name, value] of Object.entries(settings)) {
    const line = new RegExp(`^#? ?${name}=.*$`, 'm');
    text = line.test(text) ? text.replace(line, `${name}=${value}`) : `${text}${name}=${value}\n`;
  }
  writeFileSync(file, text);
}
