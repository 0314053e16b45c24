/**
 * The API key, in extension-origin IndexedDB: never in storage.local, never sent to a content
 * script. The key is stored with the origin of the service it was saved for, and is handed out
 * only for that origin (docs/design.md §5): a changed service URL never receives the old key.
 *
 * Versions: 1 kept the key alone (a string); 2 keeps `{ version, key, origin }`. Version 1 is
 * read as bound to the origin of the service URL saved beside it, the one it was used with.
 */
import { del, get, set } from 'idb-keyval';
import { checkServiceUrl } from '@/lib/api/service-url';
import { idbStore } from './idb';
import { getSettings } from './settings';

const KEY = 'apiKey';
export const API_KEY_VERSION = 2;

export interface SavedKey {
  key: string;
  /** The service origin the key was saved for; '' when it was saved before any service URL. */
  origin: string;
}

interface StoredKeyV2 extends SavedKey {
  version: 2;
}

/** The origin of a service URL, or '' when it is not a usable one. */
export function originOfUrl(serviceUrl: string): string {
  const check = checkServiceUrl(serviceUrl);
  return check.ok ? check.origin : '';
}

/** Version 1 (the key as a string) → 2, bound to the origin of `serviceUrl`. Anything else: no key. */
export function migrateKeyV1(old: unknown, serviceUrl: string): StoredKeyV2 | null {
  if (typeof old !== 'string' || old.trim() === '') return null;
  return { version: 2, key: old.trim(), origin: originOfUrl(serviceUrl) };
}

function readV2(value: unknown): StoredKeyV2 | null {
  if (typeof value !== 'object' || value === null) return null;
  const { version, key, origin } = value as Record<string, unknown>;
  if (version !== 2 || typeof key !== 'string' || key === '' || typeof origin !== 'string') return null;
  return { version, key, origin };
}

/** The stored key and its origin (migrated from version 1 on first read), or null. */
export async function getSavedKey(): Promise<SavedKey | null> {
  const stored = await get<unknown>(KEY, idbStore('secrets'));
  if (stored === undefined) return null;
  if (typeof stored === 'string') {
    const migrated = migrateKeyV1(stored, (await getSettings()).serviceUrl);
    if (migrated) await set(KEY, migrated, idbStore('secrets'));
    else await del(KEY, idbStore('secrets'));
    return migrated && { key: migrated.key, origin: migrated.origin };
  }
  const current = readV2(stored);
  return current && { key: current.key, origin: current.origin };
}

/** The key, whatever origin it is bound to ('' when none): for checks that never send it. */
export async function getApiKey(): Promise<string> {
  return (await getSavedKey())?.key ?? '';
}

/** The key if it was saved for `origin`, else ''. */
export async function getApiKeyFor(origin: string): Promise<string> {
  const saved = await getSavedKey();
  return saved && origin !== '' && saved.origin === origin ? saved.key : '';
}

/** Stores `apiKey` for `origin` (trimmed); an empty key forgets the stored one. */
export async function setApiKey(apiKey: string, origin: string): Promise<void> {
  const trimmed = apiKey.trim();
  if (trimmed === '') await del(KEY, idbStore('secrets'));
  else
    await set(
      KEY,
      { version: API_KEY_VERSION, key: trimmed, origin } satisfies StoredKeyV2,
      idbStore('secrets'),
    );
}

/** Binds the stored key to `origin` (the user confirmed using it there); false when none is stored. */
export async function bindApiKey(origin: string): Promise<boolean> {
  const saved = await getSavedKey();
  if (!saved) return false;
  await setApiKey(saved.key, origin);
  return true;
}
