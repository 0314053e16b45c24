/** The key's balance from `GET /account`, when the service tells it (our service does; others may 404). */

import type { Account } from '@verimark/contract';
import type { AccountView } from '@/lib/shared/views';
import { getClient } from '../core/service';

export function toAccountView(data: Account | null): AccountView | null {
  if (data === null) return null;
  return { credits: data.credits, expiresAt: data.expires_at ?? null, label: data.label || null };
}

export async function getAccount(): Promise<AccountView | null> {
  return toAccountView(await (await getClient()).getAccount());
}

/**
 * A key as the options page may show it once saved: its prefix and last three characters
 * (`vm_…2xs`), never enough to use it. A key too short to hide anything shows as dots only.
 */
export function keyFingerprint(key: string): string {
  const trimmed = key.trim();
  if (trimmed === '') return '';
  if (trimmed.length < 10) return '…';
  const underscore = trimmed.indexOf('_');
  const prefix = underscore > 0 && underscore <= 4 ? trimmed.slice(0, underscore + 1) : trimmed.slice(0, 2);
  return `${prefix}…${trimmed.slice(-3)}`;
}
