import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { fromBackground } from './subset-page';

const ID = fakeBrowser.runtime.id;

describe('the offscreen page answers', () => {
  it('the extension’s own background only', () => {
    const own = fakeBrowser.runtime.getURL('/background.js');
    expect(fromBackground({ id: ID, url: own })).toBe(true);
    // A content script (it has a tab), another extension, a web page: refused.
    expect(fromBackground({ id: ID, url: own, tab: { id: 1 } })).toBe(false);
    expect(fromBackground({ id: 'evil', url: 'chrome-extension://evil/background.js' })).toBe(false);
    expect(fromBackground({ id: ID, url: 'https://crm.example.com/' })).toBe(false);
    expect(fromBackground({ id: ID })).toBe(false);
  });
});
