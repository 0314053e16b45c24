/**
 * Routes beyond the contract that a service answered 404 (e.g. `GET /account` of the commercial
 * service), by origin: not asked again until the browser restarts. In session storage, so an MV3
 * worker's restart keeps the memo and a browser restart (or a new service) asks once more.
 * Routes a service was seen to answer are remembered the same way (`isRouteOffered`), so a probe
 * is sent once per service and session.
 */
import { storage } from 'wxt/utils/storage';

const missingItem = storage.defineItem<string[]>('session:missingRoutes', { fallback: [] });
const offeredItem = storage.defineItem<string[]>('session:offeredRoutes', { fallback: [] });

const entry = (origin: string, path: string) => `${origin} ${path}`;

export async function isRouteMissing(origin: string, path: string): Promise<boolean> {
  return (await missingItem.getValue()).includes(entry(origin, path));
}

export async function markRouteMissing(origin: string, path: string): Promise<void> {
  const all = await missingItem.getValue();
  if (!all.includes(entry(origin, path))) await missingItem.setValue([...all, entry(origin, path)]);
}

export async function isRouteOffered(origin: string, path: string): Promise<boolean> {
  return (await offeredItem.getValue()).includes(entry(origin, path));
}

export async function markRouteOffered(origin: string, path: string): Promise<void> {
  const all = await offeredItem.getValue();
  if (!all.includes(entry(origin, path))) await offeredItem.setValue([...all, entry(origin, path)]);
}
