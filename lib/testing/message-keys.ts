/**
 * Test support: finds the message keys a source file uses (`t('key', …)`, `getMessage('key')`,
 * `__MSG_key__`) and checks them against _locales/en/messages.json: every literal key exists,
 * every computed key (`t(`popup_mode_${mode}`)`) exists for each value it takes, a count message
 * (`tn('key', n)`) has `key_one` and `key_other`, and every `$NAME$` of a message has its
 * placeholder. (`t` and `tn` also check literal keys at compile time.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface LocaleEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}
export type Locale = Record<string, LocaleEntry>;

/** Keys built at run time from a prefix (e.g. `options_mode_${mode}`) and every value they take. */
type Dynamic = Record<string, readonly string[]>;

const CALL = /\b(t|tn|message|getMessage)\(\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/g;
const MANIFEST = /__MSG_(\w+)__/g;

function checkKey(key: string, locale: Locale, where: string): string[] {
  return locale[key] ? [] : [`${where}: "${key}" is missing from messages.json`];
}

/** Problems of one file's message keys (empty when all is well). */
export function checkSource(source: string, locale: Locale, dynamic: Dynamic, where = 'source'): string[] {
  const problems: string[] = [];
  for (const [, fn, quote, key = ''] of source.matchAll(CALL)) {
    // A count message is the pair `<key>_one` and `<key>_other` (lib/shared/i18n.ts).
    const forms = fn === 'tn' ? ['_one', '_other'] : [''];
    const hole = quote === '`' ? key.indexOf('${') : -1;
    if (hole < 0) {
      for (const form of forms) problems.push(...checkKey(key + form, locale, where));
      continue;
    }
    const values = dynamic[key.slice(0, hole)];
    if (!values) problems.push(`${where}: the computed key ${key} has no known values`);
    for (const value of values ?? [])
      for (const form of forms) problems.push(...checkKey(key.slice(0, hole) + value + form, locale, where));
  }
  for (const [, key = ''] of source.matchAll(MANIFEST)) problems.push(...checkKey(key, locale, where));
  return problems;
}

/** Messages whose `$NAME$` has no declared placeholder. */
export function checkPlaceholders(locale: Locale): string[] {
  return Object.entries(locale).flatMap(([key, entry]) =>
    [...entry.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)]
      .filter(([, name = '']) => !entry.placeholders?.[name.toLowerCase()])
      .map(([, name]) => `${key}: $${name}$ has no placeholder`),
  );
}

/** Source files (.ts, .tsx, .html) below `dir`, tests excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tsx?|html)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(dir, file));
}

export function readLocale(root: string, lang = 'en'): Locale {
  return JSON.parse(readFileSync(join(root, `public/_locales/${lang}/messages.json`), 'utf8')) as Locale;
}

/** The `$NAME$`s a message uses, sorted, without repeats. */
const namesIn = (text: string) =>
  [...new Set([...text.matchAll(/\$([A-Za-z0-9_]+)\$/g)].map(([, name = '']) => name.toLowerCase()))].sort();

/**
 * Problems of a translation against the English catalog: keys missing or extra, empty messages,
 * and placeholders that differ — another `$NAME$` set, or a placeholder filled from another `$n`.
 */
export function checkTranslation(en: Locale, other: Locale, lang: string): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(en)) if (!other[key]) problems.push(`${lang}: "${key}" is missing`);
  for (const key of Object.keys(other)) if (!en[key]) problems.push(`${lang}: "${key}" is not in English`);
  for (const [key, entry] of Object.entries(other)) {
    const source = en[key];
    if (!source) continue;
    if (entry.message.trim() === '') problems.push(`${lang}: "${key}" is empty`);
    const want = namesIn(source.message).join(',');
    const got = namesIn(entry.message).join(',');
    if (want !== got) problems.push(`${lang}: "${key}" uses [${got}], English [${want}]`);
    for (const name of namesIn(source.message)) {
      const a = source.placeholders?.[name]?.content;
      const b = entry.placeholders?.[name]?.content;
      if (a !== b) problems.push(`${lang}: "${key}" fills $${name.toUpperCase()}$ with ${b}, English ${a}`);
    }
  }
  return problems;
}

export function checkFolders(root: string, folders: readonly string[], dynamic: Dynamic): string[] {
  const locale = readLocale(root);
  return folders
    .flatMap((folder) => sourceFiles(join(root, folder)))
    .flatMap((file) => checkSource(readFileSync(file, 'utf8'), locale, dynamic, relative(root, file)));
}
