/** The content script's only line to the background: verdicts and its own configuration, never settings. */

import type { VerifierApi } from '@/lib/content/marking/address-book';
import { CHECK_ONCE_FLAG } from '@/lib/shared/messages';
import type { ContentConfig } from '@/lib/shared/views';
import { sendMessage } from './wire';

export const backgroundApi: VerifierApi = {
  lookupFound: (emails) => sendMessage('lookupCached', { emails, found: true }),
  verifyEmail: (email, clicked) => sendMessage('verifyEmail', { email, clicked }),
};

export function isOneShot(): boolean {
  return (globalThis as Record<string, unknown>)[CHECK_ONCE_FLAG] === true;
}

export async function contentConfig(): Promise<ContentConfig | null> {
  try {
    return await sendMessage('contentConfig');
  } catch {
    return null;
  }
}
