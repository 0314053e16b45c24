// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileRecord } from '@/lib/api/contract';
import { FileRow } from './file-row';

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

function show(file: FileRecord, onDownload = vi.fn()) {
  act(() => render(<FileRow file={file} onDownload={onDownload} />, document.body));
  return onDownload;
}

const text = (selector: string) => document.querySelector(selector)?.textContent ?? '';

describe('FileRow', () => {
  afterEach(() => render(null, document.body));

  it('shows name, state, credits, counts in words and a bar, and downloads', () => {
    const onDownload = show(base);
    expect(text('.file-name')).toBe('leads.csv');
    expect(text('.pill')).toBe('Completed');
    expect(text('.file-meta')).toContain('Credits: 10 used, 1 refunded');
    expect(text('[data-testid=counts]')).toBe('6 deliverable, 2 undeliverable, 1 risky, 1 unknown');
    const widths = [...document.querySelectorAll<HTMLElement>('.seg')].map((s) => s.style.width);
    expect(widths).toEqual(['60%', '20%', '10%', '10%']);
    const button = document.querySelector('button');
    expect(button?.textContent).toBe('Download');
    expect(button?.getAttribute('aria-label')).toBe('Download results of leads.csv');
    act(() => button?.click());
    expect(onDownload).toHaveBeenCalledWith(base);
  });

  it('shows progress while processing, and no download', () => {
    show({
      ...base,
      state: 'processing',
      meta_data: { deliverable: 3, undeliverable: 1, risky: 0, unknown: 0 },
    });
    expect(text('.pill')).toBe('Processing 40%');
    expect(document.querySelector('button')).toBeNull();
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
