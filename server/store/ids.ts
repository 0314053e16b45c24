import { createHash, randomBytes } from 'node:crypto';

/** A 24-hex-digit identifier (the shape of the commercial service's `_id`s). */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A new API key: `vm_` and 32 random bytes in base64url. */
export function newApiKey(): string {
  return `vm_${randomBytes(32).toString('base64url')}`;
}

/** Keys are high-entropy random strings, so a plain SHA-256 is a sound one-way store. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
