import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { resetBackground } from '@/lib/background/testing/setup';
import { addressFrom, MENU_ID, onMenuClick } from './context-menu';

const shown = async () =>
  Object.values(fakeBrowser.notifications.getAllCreateOptions()) as { title: string; message: string }[];

beforeEach(resetBackground);

describe('addressFrom', () => {
  it('reads the first recipient of a mailto link, decoded, without the query', () => {
    expect(addressFrom({ linkUrl: 'mailto:ann%40example.com,bob@example.com?subject=Hi' })).toBe(
      'ann@example.com',
    );
    expect(addressFrom({ linkUrl: 'MAILTO:Bob@Example.com' })).toBe('Bob@Example.com');
  });

  it('finds an address in selected text', () => {
    expect(addressFrom({ selectionText: '  Write to <carol@example.com>.' })).toBe('carol@example.com');
    expect(addressFrom({ selectionText: 'mailto:dan@example.com' })).toBe('dan@example.com');
    expect(addressFrom({ selectionText: 'no address here' })).toBeNull();
  });

  it('reads links and selections as the content script does (whole local part, no fragment, named recipients)', () => {
    expect(addressFrom({ selectionText: "Ask o'neil@example.com!" })).toBe("o'neil@example.com");
    expect(addressFrom({ linkUrl: 'mailto:a@example.com#top' })).toBe('a@example.com');
    expect(addressFrom({ linkUrl: 'mailto:?to=carl@example.com' })).toBe('carl@example.com');
    expect(addressFrom({ linkUrl: 'mailto:%22Doe%2C%20Jo%22%20%3Cjo@example.org%3E' })).toBe(
      'jo@example.org',
    );
  });

  it('ignores links that are not mailto', () => {
    expect(addressFrom({ linkUrl: 'https://example.com/a@b' })).toBeNull();
  });
});

describe('the menu click', () => {
  it('shows the verdict in a notification, in the popup’s words', async () => {
    await onMenuClick({ menuItemId: MENU_ID, selectionText: 'x@-bad-.example' });
    expect(await shown()).toEqual([
      expect.objectContaining({
        title: 'x@-bad-.example',
        message: 'Invalid: This is not a well-formed email address.',
      }),
    ]);
  });

  it('says so when the selection holds no address, and ignores other menus', async () => {
    await onMenuClick({ menuItemId: 'other', selectionText: 'a@example.com' });
    expect(await shown()).toEqual([]);
    await onMenuClick({ menuItemId: MENU_ID, selectionText: 'hello' });
    expect((await shown())[0]?.message).toBe('No email address in the selection');
  });

  it('shows a readable error when the service is not configured', async () => {
    await onMenuClick({ menuItemId: MENU_ID, linkUrl: 'mailto:ann@example.com' });
    expect((await shown())[0]).toMatchObject({
      title: 'ann@example.com',
      message: expect.stringMatching(/service URL/),
    });
  });
});
