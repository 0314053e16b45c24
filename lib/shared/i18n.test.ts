import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { message, t, tn, uiLanguage } from './i18n';

const i18n = fakeBrowser.i18n as { getUILanguage: () => string };
const original = i18n.getUILanguage;

describe('i18n', () => {
  afterEach(() => {
    i18n.getUILanguage = original;
  });

  it('writes numbers as the UI language writes them', () => {
    i18n.getUILanguage = () => 'de';
    expect(uiLanguage()).toBe('de');
    expect(t('popup_balance_other', 1234567)).toBe('1.234.567 credits');
    i18n.getUILanguage = () => 'fr';
    expect(t('popup_balance_other', 1234567)).toBe('1\u202f234\u202f567 credits');
    i18n.getUILanguage = () => 'en-US';
    expect(t('popup_balance_other', 1234567)).toBe('1,234,567 credits');
  });

  it('leaves strings as they are; message() takes strings only; the key when there is no text', () => {
    i18n.getUILanguage = () => 'de';
    expect(t('popup_balance_other', '1234567')).toBe('1234567 credits');
    expect(message('popup_balance_other', '1234567')).toBe('1234567 credits');
    expect(t('no_such_key' as 'popup_balance_other')).toBe('no_such_key');
  });

  it('tn picks _one or _other by the UI language and writes the count in it', () => {
    i18n.getUILanguage = () => 'en';
    expect(tn('popup_balance', 1)).toBe('1 credit');
    expect(tn('popup_balance', 0)).toBe('0 credits');
    expect(tn('popup_subset_started', 1, 'Deliverable only', 'a.csv')).toBe(
      'Downloading “Deliverable only” of a.csv: 1 row.',
    );
    // French counts 0 as one; the count is written in the UI language's digits.
    i18n.getUILanguage = () => 'fr';
    expect(tn('popup_balance', 0)).toBe('0 credit');
    expect(tn('popup_balance', 12345)).toBe('12\u202f345 credits');
  });

  it('falls back to English when the browser cannot tell its language', () => {
    i18n.getUILanguage = () => {
      throw new Error('no i18n');
    };
    expect(uiLanguage()).toBe('en');
  });
});
