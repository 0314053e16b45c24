/**
 * Signed download URLs (shape, expiry, tampering) and where the signing secret comes from.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_TTL_SECONDS, loadSigningSecret, signDownloadUrl, verifyDownload } from './signing';

const SECRET = 'test-secret';
const ID = '0123456789abcdef01234567';
const NOW = Date.parse('2026-01-01T00:00:00.000Z');

function parts(url: string) {
  const u = new URL(url);
  return {
    path: u.pathname,
    expires: u.searchParams.get('expires') ?? '',
    sig: u.searchParams.get('signature') ?? '',
  };
}

describe('signed download URLs', () => {
  it('have the documented shape and expire one hour after issue', () => {
    const url = signDownloadUrl('http://127.0.0.1:8787', SECRET, ID, NOW);
    const { path, expires, sig } = parts(url);
    expect(path).toBe(`/downloads/${ID}.csv`);
    expect(Number(expires)).toBe(NOW / 1000 + DOWNLOAD_TTL_SECONDS);
    expect(DOWNLOAD_TTL_SECONDS).toBe(3600);
    expect(verifyDownload(SECRET, ID, expires, sig, NOW)).toBe(true);
    expect(verifyDownload(SECRET, ID, expires, sig, NOW + 3599_000)).toBe(true);
    expect(verifyDownload(SECRET, ID, expires, sig, NOW + 3600_000)).toBe(false);
  });

  it('reject any tampering', () => {
    const { expires, sig } = parts(signDownloadUrl('http://x', SECRET, ID, NOW));
    expect(verifyDownload(SECRET, '0123456789abcdef01234568', expires, sig, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, String(Number(expires) + 60), sig, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, expires, `${sig.slice(0, -1)}A`, NOW)).toBe(false);
    expect(verifyDownload('other-secret', ID, expires, sig, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, undefined, sig, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, expires, undefined, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, '1e12', sig, NOW)).toBe(false);
    expect(verifyDownload(SECRET, ID, expires, '', NOW)).toBe(false);
  });
});

describe('loadSigningSecret', () => {
  it('prefers SIGNING_SECRET, else generates one and keeps it in the data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verimark-secret-'));
    try {
      expect(loadSigningSecret(dir, 'configured')).toBe('configured');
      const first = loadSigningSecret(dir, null);
      expect(first.length).toBeGreaterThanOrEqual(40);
      expect(loadSigningSecret(dir, null)).toBe(first);
      expect(readFileSync(join(dir, 'signing-secret'), 'utf8').trim()).toBe(first);
      expect(statSync(join(dir, 'signing-secret')).mode & 0o077).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
