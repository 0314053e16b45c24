/** The context menu "Verify email address" for selected text and mailto links; the verdict shows as a notification. */
import { browser } from 'wxt/browser';
import { fromMessageError } from '../api/errors';
import { msg } from './i18n';
import { notify, notifyVerdict } from './notify';
import { verifyEmail } from './verify';

export const MENU_ID = 'verimark-verify';

export async function createContextMenu(): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({
    id: MENU_ID,
    title: msg('bg_context_menu_verify', 'Verify email address'),
    contexts: ['selection', 'link'],
  });
}

/** The address in a mailto link or a selection, or null. */
export function addressFrom(info: { linkUrl?: string; selectionText?: string }): string | null {
  if (info.linkUrl?.toLowerCase().startsWith('mailto:')) {
    const target = info.linkUrl.slice('mailto:'.length).split('?')[0] ?? '';
    let decoded = target;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      // Keep the raw text.
    }
    const first = decoded.split(',')[0]?.trim();
    if (first) return first;
  }
  const text = info.selectionText?.trim().replace(/^mailto:/i, '') ?? '';
  const match = /[^\s<>()[\],;:"']+@[^\s<>()[\],;:"']+/.exec(text);
  return match ? match[0].replace(/\.$/, '') : null;
}

export async function onMenuClick(info: {
  menuItemId: string | number;
  linkUrl?: string;
  selectionText?: string;
}) {
  if (info.menuItemId !== MENU_ID) return;
  const email = addressFrom(info);
  if (!email) {
    await notify(
      `verdict-none-${Date.now()}`,
      'Verimark',
      msg('bg_no_address', 'No email address in the selection'),
    );
    return;
  }
  try {
    await notifyVerdict(await verifyEmail({ email }));
  } catch (err) {
    await notify(`verdict-error-${Date.now()}`, email, fromMessageError(err).message);
  }
}
