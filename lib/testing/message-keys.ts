/**
 * Test support: finds the message keys a source file uses (`msg('key', 'English $1')`,
 * `getMessage('key')`, `__MSG_key__`) and checks them against _locales/en/messages.json: the key
 * exists, and the `$1`… of the English fallback match the message's placeholders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface LocaleEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}
export type Locale = Record<string, LocaleEntry>;

/** Keys built at run time from a prefix (e.g. `options_mode_${mode}`) and every value they take. */
export type Dynamic = Record<string, readonly string[]>;

const CALL =
  /\b(?:msg|getMessage)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1\s*(?:,\s*(['"`])((?:\\.|(?!\3)[^\\])*)\3)?/g;
const MANIFEST = /__MSG_(\w+)__/g;
/** A call whose key is neither a string nor a template literal: it cannot be checked. */
const OPAQUE = /(?<!function )\b(?:msg|getMessage)\(\s*(?![\s'"`)])/g;

const numbered = (text: string) => new Set([...text.matchAll(/\$(\d)/g)].map((m) => m[1] ?? ''));

function checkKey(key: string, fallback: string | undefined, locale: Locale, where: string): string[] {
  const entry = locale[key];
  if (!entry) return [`${where}: "${key}" is missing from messages.json`];
  if (fallback === undefined) return [];
  const used = [...entry.message.matchAll(/\$(\w+)\$/g)].map((m) => m[1]?.toLowerCase() ?? '');
  const contents = new Set(used.map((name) => entry.placeholders?.[name]?.content.replace('$', '') ?? '?'));
  const wanted = numbered(fallback);
  const same = contents.size === wanted.size && [...wanted].every((n) => contents.has(n));
  return same
    ? []
    : [`${where}: "${key}" has placeholders ${[...contents]} but its fallback uses ${[...wanted]}`];
}

/** Problems of one file's message keys (empty when all is well). */
export function checkSource(source: string, locale: Locale, dynamic: Dynamic, where = 'source'): string[] {
  const problems: string[] = [];
  for (const [, quote, key = '', , fallback] of source.matchAll(CALL)) {
    const hole = quote === '`' ? key.indexOf('${') : -1;
    if (hole < 0) {
      problems.push(...checkKey(key, fallback, locale, where));
      continue;
    }
    const values = dynamic[key.slice(0, hole)];
    if (!values) problems.push(`${where}: the computed key ${key} has no known values`);
    for (const value of values ?? [])
      problems.push(...checkKey(key.slice(0, hole) + value, undefined, locale, where));
  }
  for (const match of source.matchAll(OPAQUE)) {
    const line = source.slice(0, match.index).split('\n').length;
    problems.push(`${where}:${line}: a message key that is not a literal`);
  }
  for (const [, key = ''] of source.matchAll(MANIFEST))
    problems.push(...checkKey(key, undefined, locale, where));
  return problems;
}

/** Source files (.ts, .tsx, .html) below `dir`, tests excluded. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tsx?|html)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(dir, file));
}

export function checkFolders(root: string, folders: readonly string[], dynamic: Dynamic): string[] {
  const locale = JSON.parse(readFileSync(join(root, 'public/_locales/en/messages.json'), 'utf8')) as Locale;
  return folders
    .flatMap((folder) => sourceFiles(join(root, folder)))
    .flatMap((file) => checkSource(readFileSync(file, 'utf8'), locale, dynamic, relative(root, file)));
}
