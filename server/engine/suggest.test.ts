/**
 * Typo suggestions for domains, and the disposable, free-provider and role-account lists.
 */
import { describe, expect, it } from 'vitest';
import { isDisposable, isFreeProvider, isRoleAccount } from './lists';
import { suggestAddress } from './suggest';

describe('suggestAddress', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
  ])('%s → %s', (typo, fixed) => {
    expect(suggestAddress('alice', typo)).toBe(`alice@${fixed}`);
  });

  it('leaves correct and unrelated domains alone', () => {
    expect(suggestAddress('alice', 'gmail.com')).toBeNull();
    expect(suggestAddress('alice', 'yahoo.com')).toBeNull();
    expect(suggestAddress('alice', 'deliverable.test')).toBeNull();
    expect(suggestAddress('alice', 'example.test')).toBeNull();
    expect(suggestAddress('alice', 'acme-industries.com')).toBeNull();
  });
});

describe('lists', () => {
  it('flags disposable domains from disposable-email-domains-js', () => {
    expect(isDisposable('mailinator.com')).toBe(true);
    expect(isDisposable('deliverable.test')).toBe(false);
  });

  it('flags free providers from email-providers', () => {
    expect(isFreeProvider('gmail.com')).toBe(true);
    expect(isFreeProvider('yahoo.com')).toBe(true);
    expect(isFreeProvider('deliverable.test')).toBe(false);
  });

  it('flags role accounts, ignoring case and +tags', () => {
    for (const local of ['postmaster', 'info', 'sales', 'support', 'admin', 'Info', 'sales+eu']) {
      expect(isRoleAccount(local), local).toBe(true);
    }
    for (const local of ['alice', 'bob', 'j.smith']) expect(isRoleAccount(local), local).toBe(false);
  });
});
