/** The API key, in extension-origin IndexedDB: never in storage.local, never sent to a content script. */
import { del, get, set } from 'idb-keyval';
import { idbStore } from './idb';

const KEY = 'apiKey';

export async function getApiKey(): Promise<string> {
  const value = await get<string>(KEY, idbStore('secrets'));
  return typeof value === 'string' ? value : '';
}

export async function setApiKey(apiKey: string): Promise<void> {
  const trimmed = apiKey.trim();
  if (trimmed === '') await del(KEY, idbStore('secrets'));
  else await set(KEY, trimmed, idbStore('secrets'));
}
