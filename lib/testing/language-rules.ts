/**
 * Test support: the rules the catalogs of public/_locales are written to (docs/glossary.md).
 * - Counts: a message that shows a count is a pair `<key>_one`/`<key>_other` (chosen by `tn` with
 *   Intl.PluralRules). A message outside a pair in which a placeholder stands right before a word
 *   in a plural form ("$P1$ credits", "$P1$ livrables", "$P1$ Adressen") is a count message without
 *   a singular form.
 * - French: a no-break space (U+00A0 or U+202F) before ; : ! ? and inside « ».
 * - Spanish: one form of address, tú; no usted forms.
 */
import type { Locale } from './message-keys';

const SPACES = '[ \\u00a0\\u202f]';
/** Words ending in -s/-x after a placeholder that are not plurals of a counted thing. */
const NOT_PLURAL = new Set([
  'is',
  'was',
  'has',
  'does',
  'as',
  'its',
  'this',
  'us',
  'yes',
  'dans',
  'sous',
  'plus',
  'pas',
  'puis',
  'sans',
  'vers',
  'après',
  'depuis',
  'mais',
  'alors',
  'lors',
  'fois',
  'toujours',
  'es',
  'más',
  'pues',
  'tras',
  'después',
  'antes',
  'además',
  'als',
  'bis',
  'aus',
  'das',
  'des',
  'es',
  'ins',
  'ist',
  'was',
  'uns',
  'etwas',
]);
/** German plurals that do not end in -s/-x (the words the catalog counts). */
const GERMAN_PLURALS = new Set([
  'adressen',
  'zeilen',
  'empfänger',
  'dateien',
  'werte',
  'prüfungen',
  'ergebnisse',
  'spalten',
  'seiten',
  'minuten',
  'stunden',
  'tage',
  'absender',
  'einträge',
]);

/** One form of a count message: `<base>_one` and `<base>_other` both exist. */
function isPair(key: string, locale: Locale): boolean {
  const base = /^(.*)_(one|other)$/.exec(key)?.[1];
  return base !== undefined && `${base}_one` in locale && `${base}_other` in locale;
}

/** Words right after each placeholder of a message. */
function wordsAfterPlaceholders(text: string): string[] {
  const after = new RegExp(`\\$P\\d\\$${SPACES}+([\\p{L}][\\p{L}-]*)`, 'gu');
  return [...text.matchAll(after)].map(([, word = '']) => word.toLowerCase());
}

function looksPlural(word: string, lang: string): boolean {
  if (NOT_PLURAL.has(word) || word.length < 3) return false;
  if (lang === 'de') return GERMAN_PLURALS.has(word) || word === 'credits';
  return /[sx]$/.test(word);
}

/**
 * Count messages without a singular form: a plural word after a placeholder outside a pair, and
 * a `_one` without its `_other` (an `_other` alone is an ordinary key, e.g. `popup_error_other`).
 */
export function countProblems(locale: Locale, lang: string): string[] {
  const problems: string[] = [];
  for (const [key, { message }] of Object.entries(locale)) {
    if (key.endsWith('_one') && !locale[key.replace(/_one$/, '_other')]) {
      problems.push(`${lang}: "${key}" has no "${key.replace(/_one$/, '_other')}"`);
    }
    if (isPair(key, locale)) continue;
    const plural = wordsAfterPlaceholders(message).find((word) => looksPlural(word, lang));
    if (plural) {
      problems.push(
        `${lang}: "${key}" counts (“${plural}”) but has no singular form (make it ${key}_one/_other)`,
      );
    }
  }
  return problems;
}

/** French messages without a no-break space before ; : ! ? or inside « » (URLs' "://" aside). */
export function frenchSpacingProblems(locale: Locale): string[] {
  const before = /(^|[^\u00a0\u202f])([;:!?»])/u;
  const inside = /«[^\u00a0\u202f]/u;
  return Object.entries(locale)
    .filter(([, { message }]) => {
      const text = message.replace(/[a-z]+:\/\//g, '');
      return before.test(text) || inside.test(text);
    })
    .map(([key, { message }]) => `fr: "${key}" needs a no-break space: ${message}`);
}

/** Usted forms (imperatives and pronouns) a tú catalog must not hold. */
const USTED = [
  'usted',
  'ustedes',
  'haga',
  'hágalo',
  'introduzca',
  'introdúzcala',
  'introdúzcalo',
  'confirme',
  'pulse',
  'elija',
  'seleccione',
  'escriba',
  'revise',
  'compruebe',
  'añada',
  'suba',
  'descargue',
  'guarde',
  'espere',
  'inténtelo',
  'vuelva a intentarlo',
  'hace clic',
  'puede cerrar',
  'configure',
  'abra',
  'cierre',
  'desactive',
  'elimine',
  'borre',
  'reintente',
];

/** Spanish messages that speak as usted (the catalog speaks as tú). */
export function ustedProblems(locale: Locale): string[] {
  const pattern = new RegExp(`(^|[^\\p{L}])(${USTED.join('|')})(?![\\p{L}])`, 'iu');
  return Object.entries(locale).flatMap(([key, { message }]) => {
    const found = pattern.exec(message)?.[2];
    return found ? [`es: "${key}" uses the usted form “${found}”: ${message}`] : [];
  });
}
