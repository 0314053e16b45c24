import { describe, expect, it, vi } from 'vitest';
import {
  coveringSite,
  needsPermissionPrompt,
  siteEnabled,
  siteFromInput,
  siteOfUrl,
  sitePatterns,
} from './site-patterns';

describe('site patterns', () => {
  it('reads a site from what a user types', () => {
    expect(siteFromInput(' https://CRM.Example.com:8443/contacts?x=1 ')).toBe('crm.example.com');
    expect(siteFromInput('*.hubspot.com')).toBe('hubspot.com');
    expect(siteFromInput('127.0.0.1:5173')).toBe('127.0.0.1');
    expect(siteFromInput('not a site')).toBeNull();
    expect(siteFromInput('')).toBeNull();
  });

  it('covers a host and its subdomains; loopback over http only', () => {
    expect(sitePatterns('mail.google.com')).toEqual(['*://*.mail.google.com/*']);
    expect(sitePatterns('127.0.0.1')).toEqual(['http://127.0.0.1/*']);
    expect(sitePatterns('10.0.0.5')).toEqual(['*://10.0.0.5/*']);
  });

  it('knows the site of web pages only', () => {
    expect(siteOfUrl('https://app.hubspot.com/contacts/1')).toBe('app.hubspot.com');
    expect(siteOfUrl('chrome://extensions')).toBeNull();
    expect(siteOfUrl(undefined)).toBeNull();
  });

  it('asks for a permission outside the test build', () => {
    expect(needsPermissionPrompt('127.0.0.1')).toBe(true);
    expect(needsPermissionPrompt('crm.example.com')).toBe(true);
  });

  it('skips the prompt for loopback hosts, in any case, in the test build only', () => {
    vi.stubGlobal('__VERIMARK_TEST_BUILD__', true);
    try {
      expect(needsPermissionPrompt('127.0.0.1')).toBe(false);
      expect(needsPermissionPrompt('LocalHost')).toBe(false);
      expect(needsPermissionPrompt('[::1]')).toBe(false);
      expect(needsPermissionPrompt('crm.example.com')).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('siteEnabled / coveringSite', () => {
  it('matches the host and its subdomains only', () => {
    expect(siteEnabled('app.crm.example.com', ['crm.example.com'])).toBe(true);
    expect(siteEnabled('crm.example.com', ['crm.example.com'])).toBe(true);
    expect(siteEnabled('evilcrm.example.com', ['crm.example.com'])).toBe(false);
  });

  it('names the enabled site that covers a host', () => {
    expect(coveringSite('Mail.Example.com', ['other.test', 'example.com'])).toBe('example.com');
    expect(coveringSite('example.com', ['mail.example.com'])).toBeNull();
  });
});
