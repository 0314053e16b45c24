/**
 * Every message key the extension uses (popup, options, content script, background) exists in
 * English, and German, French and Spanish have every key with the same placeholders.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECK_NAMES, FILE_STATES, MODES, REASONS, VERDICTS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { type MarkStatus, SUBSETS } from '@/lib/shared/views';
import {
  checkFolders,
  checkPlaceholders,
  checkSource,
  checkTranslation,
  type Locale,
  readLocale,
} from '@/lib/testing/message-keys';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = [
  'components',
  'entrypoints',
  'lib/api',
  'lib/background',
  'lib/content',
  'lib/csv',
  'lib/on-demand',
  'lib/shared',
  'lib/storage',
];
const STATUSES: readonly MarkStatus[] = [...VERDICTS, 'pending', 'invalid', 'error'];
const DYNAMIC = {
  options_mode_: MODES,
  popup_check_: CHECK_NAMES,
  popup_count_: VERDICTS,
  popup_mode_: MODES,
  popup_phase_: ['uploading', 'queued', 'processing', 'completed', 'failed'],
  popup_preflight_: ['empty', 'binary', 'encoding', 'too_large', 'no_header', 'no_rows', 'failed'],
  popup_reason_: REASONS,
  popup_state_: FILE_STATES,
  popup_status_: STATUSES,
  popup_subset_: SUBSETS,
};

describe('message keys', () => {
  it('finds missing keys, computed keys without values and undeclared placeholders', () => {
    const locale: Locale = {
      a_known: { message: 'Known' },
      a_one: { message: 'Hi $P1$', placeholders: { p1: { content: '$1' } } },
      a_two: { message: 'Hi $P1$ and $P2$', placeholders: { p1: { content: '$1' } } },
      a_mode_x: { message: 'X' },
    };
    const source = `
      t('a_known');
      t(
        'a_missing',
      );
      t('a_one', name);
      browser.i18n.getMessage("a_other");
      t(\`a_mode_\${mode}\`);
      t(\`a_kind_\${kind}\`);
      const name = '__MSG_a_manifest__';
      const total = result(1);
    `;
    expect(checkSource(source, locale, { a_mode_: ['x', 'y'] })).toEqual([
      'source: "a_missing" is missing from messages.json',
      'source: "a_other" is missing from messages.json',
      'source: "a_mode_y" is missing from messages.json',
      `source: the computed key a_kind_\${kind} has no known values`,
      'source: "a_manifest" is missing from messages.json',
    ]);
    expect(checkPlaceholders(locale)).toEqual(['a_two: $P2$ has no placeholder']);
  });

  it(`exist in messages.json in ${FOLDERS.join(', ')}`, () => {
    expect(checkFolders(ROOT, FOLDERS, DYNAMIC)).toEqual([]);
  });

  it('declare a placeholder for every $NAME$', () => {
    expect(checkPlaceholders(readLocale(ROOT))).toEqual([]);
  });
});

describe('translations', () => {
  const en = readLocale(ROOT);

  it('finds missing, extra and empty keys and placeholders that differ from English', () => {
    const source: Locale = {
      a: { message: 'A' },
      b: { message: '$P1$ of $P2$', placeholders: { p1: { content: '$1' }, p2: { content: '$2' } } },
      c: { message: 'C $P1$', placeholders: { p1: { content: '$1' } } },
      d: { message: 'D' },
    };
    const other: Locale = {
      a: { message: ' ' },
      b: { message: '$P1$ von $P1$', placeholders: { p1: { content: '$1' } } },
      c: { message: 'C $P1$', placeholders: { p1: { content: '$2' } } },
      x: { message: 'X' },
    };
    expect(checkTranslation(source, other, 'xx')).toEqual([
      'xx: "d" is missing',
      'xx: "x" is not in English',
      'xx: "a" is empty',
      'xx: "b" uses [p1], English [p1,p2]',
      'xx: "b" fills $P2$ with undefined, English $2',
      'xx: "c" fills $P1$ with $2, English $1',
    ]);
  });

  it('ships English, German, French and Spanish', () => {
    expect(readdirSync(join(ROOT, 'public/_locales')).sort()).toEqual(['de', 'en', 'es', 'fr']);
  });

  for (const lang of ['de', 'fr', 'es']) {
    it(`${lang} has every key, with English's placeholders`, () => {
      const other = readLocale(ROOT, lang);
      expect(checkTranslation(en, other, lang)).toEqual([]);
      expect(checkPlaceholders(other)).toEqual([]);
    });
  }
});
