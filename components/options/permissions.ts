/**
 * The service's host permission, asked from the options page. `permissions.request` needs a user
 * gesture, so it is called first thing in click handlers (enabled sites:
 * components/site-toggle/enable-site.ts). In the test build loopback origins are granted by the
 * manifest and the request is skipped (it never resolves in a headless browser).
 */
import { browser } from 'wxt/browser';
import { originPattern } from '@/lib/api/service-url';
import { needsPermissionPrompt } from '@/lib/shared/site-patterns';

/** Asks for the service's origin (the commercial service may not send CORS headers). */
export async function requestServiceOrigin(origin: string): Promise<boolean> {
  if (!needsPermissionPrompt(new URL(origin).hostname)) return true;
  try {
    return await browser.permissions.request({ origins: [originPattern(origin)] });
  } catch (err) {
    console.warn('[verimark] permission request failed', err);
    return false;
  }
}
