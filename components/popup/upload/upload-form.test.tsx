// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreflightSummary } from '@/lib/csv/preflight';
import { columnProblem } from './upload-cost';
import { UploadForm } from './upload-form';

afterEach(() => act(() => render(null, document.body)));

const summary = (headers: string[]): PreflightSummary => ({
  ok: true,
  headers,
  preview: [],
  rowCount: 3,
  nonEmpty: headers.map(() => 3),
  emailLike: headers.map(() => 3),
  emailColumn: 0,
});

describe('columnProblem', () => {
  it('accepts a named column, including one that differs from an earlier one only in case', () => {
    expect(columnProblem(['Name', 'Email'], 1)).toBeNull();
    expect(columnProblem(['email', 'Email'], 1)).toBeNull();
    expect(columnProblem(['Email'], -1)).toBeNull();
  });

  it('refuses a column without a name, and a second column of the same name', () => {
    expect(columnProblem(['Name', ''], 1)).toMatch(/^Column 2 has no name in the header row/);
    expect(columnProblem(['Email', 'Name', 'Email'], 2)).toMatch(/earlier column is also called “Email”/);
    // The service compares names trimmed (the shared rule): "Email " is the first "Email" to it.
    expect(columnProblem(['Email', 'Email '], 1)).toMatch(/earlier column is also called “Email ”/);
    expect(columnProblem(['Email', 'Name', 'Email'], 0)).toBeNull();
  });
});

describe('UploadForm', () => {
  const show = (headers: string[], column: number) =>
    act(() =>
      render(
        <UploadForm
          summary={summary(headers)}
          choices={{ column, mode: 'catch_all', fileName: 'x.csv' }}
          onChange={() => undefined}
          onUpload={() => undefined}
          busy={false}
        />,
        document.body,
      ),
    );
  const upload = () => document.querySelector<HTMLButtonElement>('button[type="submit"]');

  it('says why an unnamed column cannot be sent, and keeps "Upload" disabled', async () => {
    await show(['Name', ''], 1);
    expect(document.querySelector('[role="alert"]')?.textContent).toMatch(/Column 2 has no name/);
    expect(upload()?.disabled).toBe(true);
  });

  it('shows the credits and enables "Upload" for a named column', async () => {
    await show(['Name', 'Email'], 1);
    expect(document.querySelector('[role="alert"]')).toBeNull();
    expect(document.querySelector('[data-testid="credits"]')?.textContent).toMatch(/3/);
    expect(upload()?.disabled).toBe(false);
  });
});

describe('UploadForm, balance and column sanity', () => {
  const render2 = (s: PreflightSummary, column: number, credits?: number) =>
    act(() =>
      render(
        <UploadForm
          summary={s}
          choices={{ column, mode: 'catch_all', fileName: 'x.csv' }}
          onChange={() => undefined}
          onUpload={() => undefined}
          busy={false}
          account={credits === undefined ? null : { credits, expiresAt: null, label: null }}
        />,
        document.body,
      ),
    );
  const upload = () => document.querySelector<HTMLButtonElement>('button[type="submit"]');
  const phones: PreflightSummary = {
    ok: true,
    headers: ['Email', 'Phone'],
    preview: [],
    rowCount: 12,
    nonEmpty: [12, 12],
    emailLike: [12, 0],
    sampledNonEmpty: [12, 12],
    emailColumn: 0,
  };

  it('says what the upload takes and what the key has', async () => {
    await render2(phones, 0, 1000);
    expect(document.querySelector('[data-testid="credits"]')?.textContent).toBe(
      'Credits this upload takes: 12 (addresses: 12, rows: 12), you have 1,000.',
    );
    expect(upload()?.disabled).toBe(false);
  });

  it('refuses nicely when the balance is short, keeping Upload off', async () => {
    await render2(phones, 0, 5);
    expect(document.querySelector('[data-testid="credits-short"]')?.textContent).toMatch(
      /^Not enough credits: this upload takes 12 and the key has 5\./,
    );
    expect(upload()?.disabled).toBe(true);
  });

  it('asks for a confirmation when fewer than half of the values look like addresses', async () => {
    await render2(phones, 1);
    expect(document.querySelector('[data-testid="column-doubt"] p')?.textContent).toBe(
      '0 of 12 values look like email addresses. Is this the right column?',
    );
    expect(upload()?.disabled).toBe(true);
    const box = document.querySelector<HTMLInputElement>('[data-testid="column-doubt"] input[type=checkbox]');
    await act(() => box?.click());
    expect(upload()?.disabled).toBe(false);
  });
});
