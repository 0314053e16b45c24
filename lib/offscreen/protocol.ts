/**
 * The messages between the background's service worker and the offscreen document (Chrome):
 * plain runtime messages marked with `verimarkOffscreen`, answered only by the offscreen page
 * and only for the extension's own background (lib/offscreen/subset-page.ts checks the sender).
 */

import type { SubsetFailure } from '@/lib/background/bulk/subset-blob';
import type { Subset } from '@/lib/shared/views';

export const OFFSCREEN_PATH = '/offscreen.html';

export type OffscreenRequest =
  | { verimarkOffscreen: 'subset'; url: string; subset: Subset }
  | { verimarkOffscreen: 'revoke'; url: string };

export type OffscreenSubsetAnswer = { ok: true; url: string; rows: number } | SubsetFailure;

export function isOffscreenRequest(message: unknown): message is OffscreenRequest {
  if (typeof message !== 'object' || message === null) return false;
  const { verimarkOffscreen, url } = message as Record<string, unknown>;
  return (verimarkOffscreen === 'subset' || verimarkOffscreen === 'revoke') && typeof url === 'string';
}
