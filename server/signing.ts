/**
 * Signed download URLs (HMAC, one hour) and the signing secret: SIGNING_SECRET, else one generated
 * once and kept 0600 in DATA_DIR.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Signed download URLs are valid this long (spec §8). */
export const DOWNLOAD_TTL_SECONDS = 60 * 60;

function signature(secret: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${fileId}.${expires}`).digest('base64url');
}

/** `${base}/downloads/<file_id>.csv?expires=<unix>&signature=<hmac>`, valid for one hour from `nowMs`. */
export function signDownloadUrl(base: string, secret: string, fileId: string, nowMs = Date.now()): string {
  const expires = Math.floor(nowMs / 1000) + DOWNLOAD_TTL_SECONDS;
  const sig = signature(secret, fileId, expires);
  return `${base}/downloads/${encodeURIComponent(fileId)}.csv?expires=${expires}&signature=${sig}`;
}

/** True when the signature matches the file id and expiry, and the expiry is still ahead. */
export function verifyDownload(
  secret: string,
  fileId: string,
  expires: string | undefined,
  sig: string | undefined,
  nowMs = Date.now(),
): boolean {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
  const at = Number(expires);
  if (at * 1000 <= nowMs) return false;
  const expected = Buffer.from(signature(secret, fileId, at));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** SIGNING_SECRET, or one generated once and kept (mode 0600) in the data directory. */
export function loadSigningSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  const path = join(dataDir, 'signing-secret');
  if (existsSync(path)) {
    const stored = readFileSync(path, 'utf8').trim();
    if (stored) return stored;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
