/** The context menu "Verify email address" for selected text and mailto links; the verdict shows as a notification. */
import { browser } from 'wxt/browser';
import { fromMessageError } from '@/lib/api/errors';
import { notify, notifyVerdict } from '@/lib/background/core/notify';
import { errorText } from '@/lib/shared/error-text';
import { addressesInText } from '@/lib/shared/extract/address-list';
import { mailtoRecipients } from '@/lib/shared/extract/mailto';
import { t } from '@/lib/shared/i18n';
import { verifyEmail } from './verify';

export const MENU_ID = 'verimark-verify';

export async function createContextMenu(): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({
    id: MENU_ID,
    title: t('bg_context_menu_verify'),
    contexts: ['selection', 'link'],
  });
}

/** The address in a mailto link or a selection, or null (parsed as the content script parses pages). */
export function addressFrom(info: { linkUrl?: string; selectionText?: string }): string | null {
  const recipient = info.linkUrl ? mailtoRecipients(info.linkUrl)[0] : undefined;
  return recipient ?? addressesInText(info.selectionText ?? '')[0] ?? null;
}

export async function onMenuClick(info: {
  menuItemId: string | number;
  linkUrl?: string;
  selectionText?: string;
}) {
  if (info.menuItemId !== MENU_ID) return;
  const email = addressFrom(info);
  if (!email) {
    await notify(`verdict-none-${Date.now()}`, t('extName'), t('bg_no_address'));
    return;
  }
  try {
    await notifyVerdict(await verifyEmail({ email }));
  } catch (err) {
    await notify(`verdict-error-${Date.now()}`, email, errorText(fromMessageError(err)));
  }
}
