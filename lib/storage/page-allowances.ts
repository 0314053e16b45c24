/**
 * One-shot allowances the popup's "Verify all on this page" grants a tab, by tab id (see
 * lib/background/verify/page-allowance.ts): the addresses the user confirmed, the origin of the
 * page they were found on, and when the grant lapses. In session storage, not memory (an MV3
 * worker stops after 30 s idle); cleared when the browser quits, not readable by content scripts.
 */
import { storage } from 'wxt/utils/storage';
import { serialEditor } from './serial-edit';

export interface PageAllowance {
  origin: string;
  emails: string[];
  expiresAt: number;
}

export const allowanceItem = storage.defineItem<Record<string, PageAllowance>>('session:pageAllowances', {
  fallback: {},
});

/** Every change of the allowances, one at a time (serial-edit.ts). */
export const allowanceEditor = serialEditor(allowanceItem);
