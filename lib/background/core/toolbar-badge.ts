/** The toolbar badge shows how many jobs are running. */
import { browser } from 'wxt/browser';
import { getJobs, isRunning } from '@/lib/storage/jobs';

function actionApi() {
  // MV3 has `action`; Firefox MV2 has `browserAction`.
  const api = browser as unknown as { action?: typeof browser.action; browserAction?: typeof browser.action };
  return api.action ?? api.browserAction;
}

export function badgeText(running: number): string {
  if (running <= 0) return '';
  return running > 99 ? '99+' : String(running);
}

export async function updateBadge(): Promise<number> {
  const running = (await getJobs()).filter(isRunning).length;
  const action = actionApi();
  if (action) {
    await action.setBadgeText({ text: badgeText(running) });
    await action.setBadgeBackgroundColor?.({ color: '#2563eb' });
  }
  return running;
}
