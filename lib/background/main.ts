/**
 * Wires the background: listeners are registered synchronously (an MV3 worker woken by an
 * event must find them), then persisted work is resumed on every start of the worker.
 */
import { browser } from 'wxt/browser';
import { pruneJobs } from '@/lib/storage/jobs';
import { DELETE_ALARM, sendDueFileDeletes } from './bulk/file-delete';
import { pollBulkJobs } from './bulk/poll';
import { recoverInterruptedUploads, sweepAbandonedUploads } from './bulk/upload';
import { onNotificationClicked } from './core/notification-click';
import { ensurePollAlarm, markBulkPolled, POLL_ALARM } from './core/poll-alarm';
import { registerHandlers } from './core/router';
import { updateBadge } from './core/toolbar-badge';
import { startSiteSync } from './sites/content-scripts';
import { onCommand } from './verify/commands';
import { forgetTab } from './verify/content-found';
import { createContextMenu, onMenuClick } from './verify/context-menu';
import { forgetAllowance } from './verify/page-allowance';
import { sendPendingChecks } from './verify/pending-checks';
import { resumeSingleJobs } from './verify/verify';

const warn = (what: string) => (err: unknown) => console.warn(`[verimark] ${what}`, err);

/** One polling round: re-attach single tasks, send checks kept offline, poll bulk files, re-arm or clear the alarm. */
async function tick(): Promise<void> {
  await recoverInterruptedUploads().catch(warn('interrupted uploads'));
  await resumeSingleJobs().catch(warn('resume tasks'));
  await sendPendingChecks({ force: true });
  markBulkPolled();
  await pollBulkJobs().catch(warn('poll files'));
  await ensurePollAlarm();
}

export function onAlarm(alarm: { name: string }): void {
  if (alarm.name === POLL_ALARM) tick().catch(warn('alarm'));
  if (alarm.name === DELETE_ALARM) sendDueFileDeletes().catch(warn('file deletes'));
}

/** Resumes persisted work; runs on every worker start (after a stop or a browser restart). */
export async function resume(): Promise<void> {
  await sweepAbandonedUploads().catch(warn('sweep staged uploads'));
  await pruneJobs();
  // Deletes whose undo window ended while the worker was stopped go now.
  await sendDueFileDeletes().catch(warn('file deletes'));
  await updateBadge();
  await tick();
}

/**
 * After an install, an update or a browser start: the menu is created again and polling re-armed
 * (the browser may drop alarms on an update or a restart; `resume` also runs on every start).
 */
function rearm(): void {
  createContextMenu().catch(warn('context menu'));
  ensurePollAlarm().catch(warn('alarm'));
}

/**
 * Wires what an optional API offers, only where the browser has it: Firefox for Android has no
 * context menus or keyboard commands, and a browser may lack notifications. Start-up never depends
 * on one: a missing or failing API is skipped and everything else is still wired.
 */
function optional(what: string, wire: () => void): void {
  try {
    wire();
  } catch (err) {
    warn(what)(err);
  }
}

export function startBackground(): void {
  registerHandlers();
  browser.alarms.onAlarm.addListener(onAlarm);
  browser.runtime.onInstalled.addListener((details) => {
    rearm();
    if (details.reason === 'install') browser.runtime.openOptionsPage().catch(warn('options page'));
  });
  browser.runtime.onStartup.addListener(rearm);
  browser.tabs.onRemoved.addListener((tabId) => {
    forgetTab(tabId).catch(warn('found addresses'));
    forgetAllowance(tabId).catch(warn('page allowance'));
  });
  optional('context menu', () =>
    browser.contextMenus.onClicked.addListener((info) => {
      onMenuClick(info).catch(warn('context menu click'));
    }),
  );
  optional('notifications', () =>
    browser.notifications.onClicked.addListener((id) => {
      onNotificationClicked(id).catch(warn('notification click'));
    }),
  );
  optional('commands', () =>
    browser.commands.onCommand.addListener((command, tab) => {
      onCommand(command, tab).catch(warn('command'));
    }),
  );
  // Runtime content-script registration for `enabledSites` (lib/background/sites/content-scripts.ts).
  optional('content script registration', startSiteSync);
  resume().catch(warn('resume'));
}
