/** Every message key the options page, site toggle, content script and background use exists in English. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODES } from '../api/contract';
import { checkFolders, checkSource, type Locale } from '../testing/message-keys';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = [
  'components/options',
  'components/site-toggle',
  'entrypoints/options',
  'lib/content',
  'lib/background',
  'lib/shared',
];
const DYNAMIC = { options_mode_: MODES };

describe('message keys', () => {
  it('finds missing keys, computed keys without values and mismatched placeholders', () => {
    const locale: Locale = {
      a_known: { message: 'Known' },
      a_one: { message: 'Hi $P1$', placeholders: { p1: { content: '$1' } } },
      a_mode_x: { message: 'X' },
    };
    const source = `
      msg('a_known', 'Known');
      msg(
        'a_missing',
        'Gone',
      );
      msg('a_one', 'Hi $1 and $2', [a, b]);
      browser.i18n.getMessage("a_other");
      msg(\`a_mode_\${mode}\`, mode);
      msg(\`a_kind_\${kind}\`, kind);
      const name = '__MSG_a_manifest__';
      msg(key, 'From a variable');
    `;
    const problems = checkSource(source, locale, { a_mode_: ['x', 'y'] });
    expect(problems).toEqual([
      'source: "a_missing" is missing from messages.json',
      'source: "a_one" has placeholders 1 but its fallback uses 1,2',
      'source: "a_other" is missing from messages.json',
      'source: "a_mode_y" is missing from messages.json',
      `source: the computed key a_kind_\${kind} has no known values`,
      'source:12: a message key that is not a literal',
      'source: "a_manifest" is missing from messages.json',
    ]);
    expect(checkSource(`msg('a_one', 'Hi $1', [a])`, locale, {})).toEqual([]);
  });

  it(`exist in messages.json with matching placeholders in ${FOLDERS.join(', ')}`, () => {
    expect(checkFolders(ROOT, FOLDERS, DYNAMIC)).toEqual([]);
  });
});
