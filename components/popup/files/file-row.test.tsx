// @vitest-environment happy-dom

import type { FileRecord } from '@verimark/contract';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { until } from '@/components/testing/wait';

const sent: { type: string; data: unknown }[] = [];
vi.mock('@/lib/shared/messages', async (original) => ({
  ...(await original<typeof import('@/lib/shared/messages')>()),
  sendMessage: vi.fn(async (type: string, data: unknown) => {
    sent.push({ type, data });
    if (type === 'downloadSubset') return { downloadId: 1, rows: 6 };
    if (type === 'downloadResults') return { downloadId: 1, url: 'x' };
    if (type === 'previewResults')
      return { rows: [{ email: 'ada@x.test', status: 'deliverable', reason: 'accepted_email' }] };
    throw new Error(`unexpected ${type}`);
  }),
}));

const { FileRow } = await import('./file-row');

const base: FileRecord = {
  _id: 'f1',
  file_name: 'leads.csv',
  state: 'completed',
  type: 'api',
  service_name: 'verify_email',
  options: { credit_usage: 10, credit_refund: 1 },
  meta_data: { deliverable: 6, undeliverable: 2, risky: 1, unknown: 1 },
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:05:00.000Z',
};

const show = (file: FileRecord) => act(() => render(<FileRow file={file} />, document.body));
const text = (selector: string) => document.querySelector(selector)?.textContent ?? '';
const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === name) as
    | HTMLButtonElement
    | undefined;

describe('FileRow', () => {
  beforeEach(() => {
    sent.length = 0;
  });
  afterEach(() => render(null, document.body));

  it('shows name, state, credits, a bar and a legend with counts and percentages', () => {
    show(base);
    expect(text('.file-name')).toBe('leads.csv');
    expect(text('.pill')).toBe('Completed');
    expect(text('.file-meta')).toContain('Credits: 10 used, 1 refunded');
    const legend = [...document.querySelectorAll('[data-testid=counts] li')].map((li) => li.textContent);
    expect(legend).toEqual([
      '6 deliverable (60%)',
      '1 risky (10%)',
      '2 undeliverable (20%)',
      '1 unknown (10%)',
    ]);
    const widths = [...document.querySelectorAll<HTMLElement>('.seg')].map((s) => s.style.width);
    expect(widths).toEqual(['60%', '10%', '20%', '10%']);
  });

  it('downloads all rows, or a subset chosen in "More download options"', async () => {
    show(base);
    expect(button('Download')?.getAttribute('aria-label')).toBe('Download results of leads.csv');
    await act(() => button('Download')?.click());
    const more = button('More download options');
    expect(more?.getAttribute('aria-expanded')).toBe('false');
    await act(() => more?.click());
    const items = [...document.querySelectorAll('[role=menuitem]')].map((i) => i.textContent);
    expect(items).toEqual(['Deliverable only', 'Deliverable and risky', 'Undeliverable only']);
    await act(() => button('Deliverable and risky')?.click());
    await until(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { type: 'downloadResults', data: { fileId: 'f1', fileName: 'leads.csv' } },
      {
        type: 'downloadSubset',
        data: { fileId: 'f1', fileName: 'leads.csv', subset: 'deliverable_and_risky' },
      },
    ]);
    expect(document.querySelector('[role=menu]')).toBeNull();
  });

  it('previews the first rows with verdict chips', async () => {
    show(base);
    await act(() => button('Show first rows')?.click());
    await until(() => expect(document.querySelector('.chip')).not.toBeNull());
    expect(text('.preview-email')).toBe('ada@x.test');
    expect(text('.chip')).toBe('Deliverable');
  });

  it('shows progress while processing, and no download', () => {
    show({
      ...base,
      state: 'processing',
      meta_data: { deliverable: 3, undeliverable: 1, risky: 0, unknown: 0 },
    });
    expect(text('.pill')).toBe('Processing 40%');
    expect(button('Download')).toBeUndefined();
  });

  it('explains a failed file', () => {
    show({ ...base, state: 'failed', options: { credit_usage: 10, credit_refund: 10 } });
    expect(text('.pill')).toBe('Failed');
    expect(text('.form-error')).toMatch(/Processing failed on the service\. All its credits were refunded/);
  });

  it('renders names from the service as text, never as HTML', () => {
    show({ ...base, file_name: '<img src=x onerror=alert(1)>.csv' });
    expect(document.querySelector('img')).toBeNull();
    expect(text('.file-name')).toBe('<img src=x onerror=alert(1)>.csv');
  });
});
