import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import type { PageAddress } from '@/lib/shared/views';
import { pageCsv, pageCsvName, summaryText, toVerify, verifyAllLabel } from './page-summary';

const page: PageAddress[] = [
  { email: 'a@x.test', status: 'deliverable', reason: 'accepted_email' },
  { email: 'b@x.test', status: 'deliverable', reason: 'accepted_email' },
  { email: 'c@x.test', status: 'undeliverable', reason: 'rejected_email' },
  { email: 'd@x.test', status: 'unverified', reason: null },
  { email: 'e@x.test', status: 'error', reason: null },
];

describe('page summary', () => {
  beforeEach(() => {
    // The catalog's key and its substitutions, so the test reads what a text is made of.
    vi.spyOn(browser.i18n, 'getMessage').mockImplementation((key: string, subs?: string | string[]) =>
      [key, ...[subs ?? []].flat()].join('|'),
    );
  });
  afterEach(() => vi.restoreAllMocks());

  it('counts the addresses by status, verdicts first', () => {
    expect(summaryText(page)).toBe(
      'popup_page_summary_other|5|popup_page_n_deliverable_other|2, popup_page_n_undeliverable_one|1, popup_page_n_error_one|1, popup_page_n_unverified_one|1',
    );
    expect(summaryText(page.slice(0, 1))).toBe('popup_page_summary_one|1|popup_page_n_deliverable_one|1');
  });

  it('says what "Verify all" costs: one credit per address not verified (or failed)', () => {
    expect(toVerify(page)).toBe(2);
    expect(verifyAllLabel(2)).toBe('popup_page_verify_all_other|2');
    expect(verifyAllLabel(1)).toBe('popup_page_verify_all_one|1');
    expect(verifyAllLabel(0)).toBe('popup_page_verify_none');
  });

  it('exports the addresses with their verdicts as CSV, formulas defused', () => {
    const csv = pageCsv([...page.slice(0, 2), { email: '=cmd@x.test', status: 'invalid', reason: 'a,b' }]);
    expect(csv).toBe(
      'email,status,reason\r\na@x.test,deliverable,accepted_email\r\nb@x.test,deliverable,accepted_email\r\n\'=cmd@x.test,invalid,"a,b"\r\n',
    );
  });

  it('names the export through the catalog (adresses-de-la-page.csv in French)', () => {
    expect(pageCsvName()).toBe('file_page_addresses.csv');
  });
});
