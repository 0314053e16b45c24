/**
 * Host permissions asked from the options page. `permissions.request` needs a user gesture, so
 * it is called first thing in click handlers (enabled sites: components/site-toggle/enable-site.ts). In the test build loopback origins are granted
 * by the manifest and the request is skipped (it never resolves in a headless browser).
 */
import { browser } from 'wxt/browser';
import { isLoopbackHost, originPattern } from '@/lib/api/service-url';
import { isTestBuild } from '@/lib/storage/build';

export function needsPrompt(hostname: string, testBuild = isTestBuild()): boolean {
  return !(testBuild && isLoopbackHost(hostname));
}

export async function requestOrigins(hostname: string, origins: string[]): Promise<boolean> {
  if (!needsPrompt(hostname)) return true;
  try {
    return await browser.permissions.request({ origins });
  } catch (err) {
    console.warn('[verimark] permission request failed', err);
    return false;
  }
}

/** Asks for the service's origin (the commercial service may not send CORS headers). */
export function requestServiceOrigin(origin: string): Promise<boolean> {
  return requestOrigins(new URL(origin).hostname, [originPattern(origin)]);
}
