/**
 * The service's upload scan picks the email column by the shared rule: every case of the table
 * (contract/src/testing/email-column-cases.ts), written as a real CSV file and scanned.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMAIL_COLUMN_CASES } from '@verimark/contract/testing/email-column-cases';
import { afterAll, describe, expect, it } from 'vitest';
import { scanUpload } from './scan';

const dir = mkdtempSync(path.join(tmpdir(), 'verimark-column-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

describe('the upload scan finds the email column as the extension does', () => {
  it.each(EMAIL_COLUMN_CASES)('$why', async ({ header, requested, index }) => {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.csv`);
    const row = header.map(() => 'ann@example.com');
    writeFileSync(file, `${header.map(quoted).join(',')}\n${row.join(',')}\n`);
    const scan = await scanUpload(file, requested ?? null);
    if (index < 0) expect(scan).toBe('no_column');
    else expect(scan).toMatchObject({ emailIndex: index, emails: 1 });
  });
});
