import { PATHS } from '@verimark/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { countRequests, useFakeService } from '@/lib/background/testing/setup';
import config from '@/wxt.config';
import { onCommand, VERIFY_SELECTION_COMMAND } from './commands';
import { singlePollTiming } from './verify';

const env = useFakeService(() => ({ pendingPolls: 0 }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 5;
});

afterEach(() => {
  vi.restoreAllMocks();
});

type Injection = { frameId: number; result: unknown; documentId: string }[];
const selections = (...texts: string[]) =>
  vi
    .spyOn(fakeBrowser.scripting, 'executeScript')
    .mockImplementation(
      async () =>
        texts.map((result, frameId) => ({ frameId, result, documentId: `d${frameId}` })) satisfies Injection,
    );

describe('the "verify the selected text" command', () => {
  it('reads the selection of the active tab in any frame, verifies it and notifies the verdict', async () => {
    const inject = selections('', 'Write to Ann <ann@example.com> today');
    await onCommand(VERIFY_SELECTION_COMMAND, { id: 3 });
    expect(inject).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 3, allFrames: true } }));
    expect(countRequests(env.server.requests, PATHS.single)).toBe(1);
    const shown = Object.values(fakeBrowser.notifications.getAllCreateOptions()) as { message: string }[];
    expect(shown).toMatchObject([
      { title: 'ann@example.com', message: 'Deliverable: The mail server accepts this address.' },
    ]);
  });

  it('says so when nothing is selected, or the page cannot be read, and spends nothing', async () => {
    selections('');
    await onCommand(VERIFY_SELECTION_COMMAND, { id: 3 });
    vi.spyOn(fakeBrowser.scripting, 'executeScript').mockRejectedValue(
      new Error('Cannot access a chrome:// URL'),
    );
    await onCommand(VERIFY_SELECTION_COMMAND, { id: 4 });
    const shown = Object.values(fakeBrowser.notifications.getAllCreateOptions()) as { message: string }[];
    expect(shown.map((n) => n.message)).toEqual([
      'No email address in the selection',
      'No email address in the selection',
    ]);
    expect(countRequests(env.server.requests, PATHS.single)).toBe(0);
  });

  it('ignores other commands', async () => {
    const inject = selections('ann@example.com');
    await onCommand('something-else', { id: 3 });
    expect(inject).not.toHaveBeenCalled();
  });
});

describe('the manifest’s commands', () => {
  const manifestOf = async (browser: string, manifestVersion: 2 | 3) => {
    const make = config.manifest;
    if (typeof make !== 'function') throw new Error('the manifest is built per browser');
    return make({ browser, manifestVersion, mode: 'production', command: 'build' });
  };

  it('opens the popup with Alt+Shift+V and verifies the selection with Alt+Shift+E, in each browser’s own words', async () => {
    const chrome = await manifestOf('chrome', 3);
    expect(chrome.commands).toEqual({
      _execute_action: { suggested_key: { default: 'Alt+Shift+V' } },
      'verify-selection': {
        suggested_key: { default: 'Alt+Shift+E' },
        description: '__MSG_cmd_verify_selection__',
      },
    });
    const firefox = await manifestOf('firefox', 2);
    expect(Object.keys(firefox.commands ?? {})).toEqual(['_execute_browser_action', 'verify-selection']);
    expect(chrome.permissions).toContain('offscreen');
    expect(firefox.permissions).not.toContain('offscreen');
  });
});
