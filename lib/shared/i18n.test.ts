import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { message, t, uiLanguage } from './i18n';

const i18n = fakeBrowser.i18n as { getUILanguage: () => string };
const original = i18n.getUILanguage;

describe('i18n', () => {
  afterEach(() => {
    i18n.getUILanguage = original;
  });

  it('writes numbers as the UI language writes them', () => {
    i18n.getUILanguage = () => 'de';
    expect(uiLanguage()).toBe('de');
    expect(t('popup_balance', 1234567)).toBe('1.234.567 credits');
    i18n.getUILanguage = () => 'fr';
    expect(t('popup_balance', 1234567)).toBe('1\u202f234\u202f567 credits');
    i18n.getUILanguage = () => 'en-US';
    expect(t('popup_balance', 1234567)).toBe('1,234,567 credits');
  });

  it('leaves strings as they are; message() takes strings only; the key when there is no text', () => {
    i18n.getUILanguage = () => 'de';
    expect(t('popup_balance', '1234567')).toBe('1234567 credits');
    expect(message('popup_balance', '1234567')).toBe('1234567 credits');
    expect(t('no_such_key' as 'popup_balance')).toBe('no_such_key');
  });

  it('falls back to English when the browser cannot tell its language', () => {
    i18n.getUILanguage = () => {
      throw new Error('no i18n');
    };
    expect(uiLanguage()).toBe('en');
  });
});
