/**
 * Routes beyond the contract that a service answered 404 (e.g. `GET /account` of the commercial
 * service), by origin: not asked again until the browser restarts. In session storage, so an MV3
 * worker's restart keeps the memo and a browser restart (or a new service) asks once more.
 */
import { storage } from 'wxt/utils/storage';

const missingItem = storage.defineItem<string[]>('session:missingRoutes', { fallback: [] });

const entry = (origin: string, path: string) => `${origin} ${path}`;

export async function isRouteMissing(origin: string, path: string): Promise<boolean> {
  return (await missingItem.getValue()).includes(entry(origin, path));
}

export async function markRouteMissing(origin: string, path: string): Promise<void> {
  const all = await missingItem.getValue();
  if (!all.includes(entry(origin, path))) await missingItem.setValue([...all, entry(origin, path)]);
}
