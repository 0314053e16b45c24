import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { badgeWords } from '@/lib/shared/badge-words';
import { badgeLabel, statusWord, useBadgeWords } from './words';

describe('badge words sent with the configuration', () => {
  afterEach(() => vi.restoreAllMocks());

  it('label badges without asking i18n in the page, and match what i18n would say', () => {
    const sent = badgeWords(); // what the background puts in ContentConfig.badgeWords
    const getMessage = vi.spyOn(fakeBrowser.i18n, 'getMessage');
    useBadgeWords(sent);
    expect(badgeLabel('unverified', 'a@b.test')).toBe(
      'Verimark: Not verified yet, a@b.test. Press for details.',
    );
    expect(statusWord('undeliverable')).toBe('Undeliverable');
    expect(getMessage).not.toHaveBeenCalled();
  });

  it('name every status of the page', () => {
    const { label, statuses } = badgeWords();
    expect(label).toContain('\u0001');
    expect(label).toContain('\u0002');
    expect(Object.keys(statuses).sort()).toEqual(
      [
        'deliverable',
        'error',
        'invalid',
        'pending',
        'risky',
        'undeliverable',
        'unknown',
        'unverified',
      ].sort(),
    );
    for (const word of Object.values(statuses)) expect(word).toMatch(/^[A-Z][a-z ]+$/);
  });
});
