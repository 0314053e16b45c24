// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreflightSummary } from '@/lib/csv/preflight';
import { columnProblem, UploadForm } from './upload-form';

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
