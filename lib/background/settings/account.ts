/** The key's balance from `GET /account`, when the service tells it (our service does; others may 404). */

import { type Account, PATHS } from '@verimark/contract';
import { getClient } from '@/lib/background/core/service';
import type { AccountView } from '@/lib/shared/views';
import { originOfUrl } from '@/lib/storage/api-key';
import { isRouteMissing, markRouteMissing } from '@/lib/storage/missing-routes';
import { getSettings } from '@/lib/storage/settings';

export function toAccountView(data: Account | null): AccountView | null {
  if (data === null) return null;
  return { credits: data.credits, expiresAt: data.expires_at ?? null, label: data.label || null };
}

/** The balance; a service that answered 404 here is not asked again until the browser restarts. */
export async function getAccount(): Promise<AccountView | null> {
  const client = await getClient();
  const origin = originOfUrl((await getSettings()).serviceUrl);
  if (await isRouteMissing(origin, PATHS.account)) return null;
  const data = await client.getAccount();
  if (data === null) await markRouteMissing(origin, PATHS.account);
  return toAccountView(data);
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
