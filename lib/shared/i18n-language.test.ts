/**
 * The catalogs read as written, not translated (docs/glossary.md): every count message has a
 * singular form in every language and reads right for 0, 1 and many; French has its no-break
 * spaces; Spanish speaks as tú throughout.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countProblems, frenchSpacingProblems, ustedProblems } from '@/lib/testing/language-rules';
import { type Locale, readLocale } from '@/lib/testing/message-keys';
import { pluralForm } from './i18n';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LANGS = ['en', 'de', 'fr', 'es'] as const;
const catalogs = Object.fromEntries(LANGS.map((lang) => [lang, readLocale(ROOT, lang)])) as Record<
  (typeof LANGS)[number],
  Locale
>;
const one = (message: string): Locale[string] => ({ message, placeholders: { p1: { content: '$1' } } });

/** A message as the browser fills it: $P1$ is the count, other placeholders their names. */
function render(locale: Locale, key: string, count: string): string {
  return (locale[key]?.message ?? '').replace(/\$P(\d)\$/g, (_, n: string) => (n === '1' ? count : `<${n}>`));
}

describe('count messages', () => {
  it('finds a count without a singular form, in any language, and a _one without its _other', () => {
    expect(countProblems({ a: one('$P1$ credits'), b: one('Saved $P1$.') }, 'en')).toEqual([
      'en: "a" counts (“credits”) but has no singular form (make it a_one/_other)',
    ]);
    expect(countProblems({ a: one('$P1$ livrables') }, 'fr')).toHaveLength(1);
    expect(
      countProblems({ a: one('$P1$ riesgosas'), b: one('Se devolvieron $P1$ créditos') }, 'es'),
    ).toHaveLength(2);
    expect(countProblems({ a: one('Diese Seite: $P1$ Adressen') }, 'de')).toHaveLength(1);
    expect(countProblems({ a_one: one('$P1$ crédito') }, 'es')).toEqual(['es: "a_one" has no "a_other"']);
    expect(countProblems({ a_one: one('$P1$ crédit'), a_other: one('$P1$ crédits') }, 'fr')).toEqual([]);
    // An `_other` alone is an ordinary key, read like any other message.
    expect(countProblems({ popup_error_other: one('Erreur : $P1$') }, 'fr')).toEqual([]);
  });

  for (const lang of LANGS) {
    it(`${lang}: every count message has a singular form`, () => {
      expect(countProblems(catalogs[lang], lang)).toEqual([]);
    });
  }

  it('picks the form by the language: French says "0 crédit", the others "0 credits"', () => {
    expect([0, 1, 2, 1000].map((n) => pluralForm(n, 'en'))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2, 1000].map((n) => pluralForm(n, 'de'))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2, 1000].map((n) => pluralForm(n, 'fr'))).toEqual(['one', 'one', 'other', 'other']);
    expect([0, 1, 2, 1000].map((n) => pluralForm(n, 'es'))).toEqual(['other', 'one', 'other', 'other']);
    // CLDR's "many" (a million in French and Spanish) takes the plural form.
    expect(pluralForm(1_000_000, 'fr')).toBe('other');
  });

  it('reads right for 0, 1 and many in every language', () => {
    const bases = Object.keys(catalogs.en)
      .filter((key) => key.endsWith('_one') && `${key.slice(0, -4)}_other` in catalogs.en)
      .map((key) => key.slice(0, -4));
    expect(bases.length).toBeGreaterThan(20);
    const fr = catalogs.fr;
    const es = catalogs.es;
    const de = catalogs.de;
    const en = catalogs.en;
    const at = (locale: Locale, lang: string, base: string, n: number) =>
      render(locale, `${base}_${pluralForm(n, lang)}`, String(n));
    for (const base of bases) {
      for (const lang of LANGS) {
        for (const n of [0, 1, 7]) expect(at(catalogs[lang], lang, base, n)).toContain(String(n));
      }
    }
    expect(at(en, 'en', 'popup_balance', 1)).toBe('1 credit');
    expect(at(en, 'en', 'popup_balance', 0)).toBe('0 credits');
    expect(at(en, 'en', 'popup_page_asked', 1)).toBe('Verifying 1 address of this page…');
    expect(at(de, 'de', 'popup_balance', 1)).toBe('1 Credit');
    expect(at(fr, 'fr', 'popup_count_deliverable', 1)).toBe('1 délivrable');
    expect(at(fr, 'fr', 'popup_count_deliverable', 0)).toBe('0 délivrable');
    expect(at(fr, 'fr', 'popup_count_deliverable', 3)).toBe('3 délivrables');
    expect(at(fr, 'fr', 'options_cache_cleared', 1)).toContain('(1 supprimé)');
    expect(at(es, 'es', 'popup_page_n_risky', 1)).toBe('1 riesgosa');
    expect(at(es, 'es', 'popup_balance_low', 1)).toContain('queda 1 crédito.');
    expect(at(es, 'es', 'popup_balance_low', 4)).toContain('quedan 4 créditos.');
  });
});

describe('download file names', () => {
  const keys = Object.keys(catalogs.en).filter((key) => key.startsWith('file_'));

  it('are translated, and hold nothing a downloads API refuses', () => {
    expect(keys.length).toBeGreaterThanOrEqual(6);
    for (const lang of ['de', 'fr', 'es'] as const) {
      for (const key of keys) {
        const name = catalogs[lang][key]?.message ?? '';
        expect(name, `${lang} ${key}`).not.toBe(catalogs.en[key]?.message);
        expect(name, `${lang} ${key}`).toMatch(/^[\p{L}\p{N}][\p{L}\p{N}-]*$/u);
      }
    }
    expect(catalogs.fr.file_page_addresses?.message).toBe('adresses-de-la-page');
  });
});

describe('French', () => {
  it('finds a missing no-break space before ; : ! ? and inside « »', () => {
    expect(
      frenchSpacingProblems({
        a: { message: 'Erreur : x' },
        b: { message: 'Erreur: x' },
        c: { message: 'Vraiment ?' },
        d: { message: '« Email »' },
        e: { message: 'Ouvrez https://exemple.fr' },
        f: { message: 'Clé\u00a0: ok\u202f; «\u00a0x\u00a0»' },
      }).map((p) => p.slice(0, 10)),
    ).toEqual(['fr: "a" ne', 'fr: "b" ne', 'fr: "c" ne', 'fr: "d" ne']);
  });

  it('puts a no-break space before ; : ! ? and inside « » everywhere', () => {
    expect(frenchSpacingProblems(catalogs.fr)).toEqual([]);
  });
});

describe('Spanish', () => {
  it('finds usted forms', () => {
    expect(
      ustedProblems({
        a: { message: 'Haga clic para descargar.' },
        b: { message: 'Introduzca la clave.' },
        c: { message: 'las direcciones en las que hace clic' },
        d: { message: 'Haz clic aquí; vuelve a intentarlo cuando vuelva el servicio.' },
      }).map((p) => p.slice(0, 7)),
    ).toEqual(['es: "a"', 'es: "b"', 'es: "c"']);
  });

  it('speaks as tú throughout', () => {
    expect(ustedProblems(catalogs.es)).toEqual([]);
  });
});
