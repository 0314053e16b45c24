// @vitest-environment happy-dom

import { MAX_UPLOAD_BYTES } from '@verimark/contract';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiStatusProvider } from '@/components/popup/api-status';
import { flush, until } from '@/components/testing/wait';
import type { PreflightResult } from '@/lib/csv/preflight';

/** What happened, in order: staging, deleting and messages. */
const events: string[] = [];
let staged = 0;
/** Staging writes that have not finished yet (resolved by the test). */
const pendingStages: (() => void)[] = [];
let holdStaging = false;

vi.mock('@/lib/storage/upload-blobs', () => ({
  stageUpload: vi.fn((file: File) => {
    const key = `upload:k${++staged}`;
    events.push(`stage ${file.name} as ${key}`);
    if (!holdStaging) return Promise.resolve(key);
    return new Promise<string>((resolve) => pendingStages.push(() => resolve(key)));
  }),
  deleteUploadBlob: vi.fn(async (key: string) => {
    events.push(`delete ${key}`);
  }),
}));

vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data?: { blobKey?: string; fileName?: string }) => {
    if (type === 'getSettings') return { defaultMode: 'catch_all' };
    if (type === 'listJobs') return [];
    if (type === 'startBulkUpload') {
      events.push(`startBulkUpload ${data?.blobKey}`);
      return { id: 'j1', fileName: data?.fileName, phase: 'uploading', progress: null };
    }
    throw new Error(`unexpected message ${type}`);
  }),
}));

const preflights = new Map<string, PreflightResult>();
vi.mock('@/lib/csv/run-preflight', () => ({
  runPreflight: vi.fn(async (file: File) => preflights.get(file.name)),
}));

const { UploadPanel } = await import('./upload-panel');

const ready = (header: string): PreflightResult => ({
  ok: true,
  headers: [header],
  preview: [['a@b.test']],
  rowCount: 1,
  nonEmpty: [1],
  emailLike: [1],
  emailColumn: 0,
});

function choose(name: string, size?: number) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  const file = new File(['Email\na@b.test\n'], name, { type: 'text/csv' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const uploadButton = () =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === 'Upload') as
    | HTMLButtonElement
    | undefined;

describe('UploadPanel', () => {
  beforeEach(async () => {
    events.length = 0;
    staged = 0;
    pendingStages.length = 0;
    holdStaging = false;
    preflights.clear();
    await act(() =>
      render(
        <ApiStatusProvider>
          <UploadPanel />
        </ApiStatusProvider>,
        document.body,
      ),
    );
  });
  afterEach(() => act(() => render(null, document.body)));

  it('stages the file when it is chosen, so "Upload" only has to name it', async () => {
    preflights.set('leads.csv', ready('Email'));
    await act(() => choose('leads.csv'));
    await until(() => expect(uploadButton()).toBeDefined());
    expect(events).toEqual(['stage leads.csv as upload:k1']);
    await act(() => uploadButton()?.click());
    await until(() => expect(events.at(-1)).toBe('startBulkUpload upload:k1'));
    // Nothing else was written on the click: the message names the file staged earlier.
    expect(events).toEqual(['stage leads.csv as upload:k1', 'startBulkUpload upload:k1']);
  });

  it('deletes the staged file when another is chosen or the preflight refuses it', async () => {
    preflights.set('first.csv', ready('Email'));
    preflights.set('binary.csv', { ok: false, error: 'binary' });
    await act(() => choose('first.csv'));
    await until(() => expect(uploadButton()).toBeDefined());
    await act(() => choose('binary.csv'));
    await until(() => expect(document.querySelector('[data-testid="preflight-error"]')).not.toBeNull());
    // Deleting waits for the staging it undoes, so the order of the two lines may vary.
    expect([...events].sort()).toEqual([
      'delete upload:k1',
      'delete upload:k2',
      'stage binary.csv as upload:k2',
      'stage first.csv as upload:k1',
    ]);
    expect(uploadButton()).toBeUndefined();
  });

  it('does not copy a file the preflight will refuse for its size', async () => {
    preflights.set('huge.csv', { ok: false, error: 'too_large' });
    await act(() => choose('huge.csv', MAX_UPLOAD_BYTES + 1));
    await until(() => expect(document.querySelector('[data-testid="preflight-error"]')).not.toBeNull());
    expect(events).toEqual([]);
  });

  it('waits for a staging still under way before sending the upload', async () => {
    holdStaging = true;
    preflights.set('slow.csv', ready('Email'));
    await act(() => choose('slow.csv'));
    await until(() => expect(uploadButton()).toBeDefined());
    await act(() => uploadButton()?.click());
    await flush();
    expect(events).toEqual(['stage slow.csv as upload:k1']);
    pendingStages.shift()?.();
    await until(() => expect(events.at(-1)).toBe('startBulkUpload upload:k1'));
  });
});
