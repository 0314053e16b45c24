/** The content script's only line to the background: verdicts and its own configuration, never settings. */
import { sendMessage } from '../messages';
import type { VerifierApi } from './address-book';

export const backgroundApi: VerifierApi = {
  lookupCached: (emails) => sendMessage('lookupCached', { emails }),
  verifyEmail: (email) => sendMessage('verifyEmail', { email }),
};

/** Set by "Check this page" (scripting.executeScript) before the script itself is injected. */
export const CHECK_ONCE_FLAG = '__verimarkCheckOnce';

export function isOneShot(): boolean {
  return (globalThis as Record<string, unknown>)[CHECK_ONCE_FLAG] === true;
}

export async function contentConfig(): Promise<{ enabled: boolean; autoVerifyBudget: number } | null> {
  try {
    return await sendMessage('contentConfig');
  } catch {
    return null;
  }
}
