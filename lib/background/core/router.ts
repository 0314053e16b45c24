/**
 * The background's message handlers, registered in one place. Every message is authorized
 * against its sender first (authorize.ts). To add a handler: add its entry to `handlers`.
 */

import { MODES, type Mode } from '@verimark/contract';
import type { GetDataType, GetReturnType } from '@webext-core/messaging';
import { ApiError, fromMessageError } from '@/lib/api/errors';
import { downloadResults } from '@/lib/background/bulk/downloads';
import {
  fileDeleteOffered,
  listFileDeletes,
  scheduleFileDelete,
  undoFileDelete,
} from '@/lib/background/bulk/file-delete';
import { getFile } from '@/lib/background/bulk/file-record';
import { pollBulkJobs } from '@/lib/background/bulk/poll';
import { downloadSubset, previewResults } from '@/lib/background/bulk/results-download';
import { startBulkUpload } from '@/lib/background/bulk/upload';
import { getAccount } from '@/lib/background/settings/account';
import {
  contentConfig,
  getSettingsView,
  saveSettings,
  testConnection,
} from '@/lib/background/settings/settings-handlers';
import { checkThisPage, loadPopover } from '@/lib/background/sites/check-page';
import { checkAddressList } from '@/lib/background/verify/content-found';
import { lookupForContentScript, verifyForContentScript } from '@/lib/background/verify/content-verify';
import { allowPageVerify } from '@/lib/background/verify/page-allowance';
import {
  dismissPendingCheck,
  listPendingChecks,
  retryPendingCheck,
  sendPendingChecks,
} from '@/lib/background/verify/pending-checks';
import { lookupCached, verifyEmail } from '@/lib/background/verify/verify';
import { t } from '@/lib/shared/i18n';
import { onMessage, type ProtocolMap } from '@/lib/shared/messages';
import { SUBSETS } from '@/lib/shared/views';
import { setApiKey } from '@/lib/storage/api-key';
import { type BulkJob, dismissJob, getJobs, toBulkView } from '@/lib/storage/jobs';
import { clearVerdicts, getRecent } from '@/lib/storage/verdict-cache';
import { authorize, type SenderInfo, senderKind } from './authorize';
import { onPopupHeartbeat } from './poll-alarm';
import { getClient } from './service';

type Type = keyof ProtocolMap;

/** A kept check named by a popup message (email and mode), read defensively. */
function checkId(data: unknown): { email: string; mode: Mode } {
  const { email, mode } = (data ?? {}) as { email?: unknown; mode?: unknown };
  const known = MODES.find((m) => m === mode);
  if (typeof email !== 'string' || known === undefined) {
    throw new ApiError('bad_request', 'A kept check is named by its address and mode');
  }
  return { email, mode: known };
}
type Handler<K extends Type> = (
  data: GetDataType<ProtocolMap[K]>,
  sender: SenderInfo,
) => Promise<GetReturnType<ProtocolMap[K]>> | GetReturnType<ProtocolMap[K]>;

export const handlers: { [K in Type]: Handler<K> } = {
  verifyEmail: (data, sender) =>
    senderKind(sender) === 'content_script'
      ? verifyForContentScript(data, sender)
      : verifyEmail(data, { keepOffline: true }),
  lookupCached: (data, sender) =>
    senderKind(sender) === 'content_script'
      ? lookupForContentScript(data, sender)
      : lookupCached(checkAddressList(data?.emails)),
  contentConfig: (_data, sender) => contentConfig(sender.url),
  loadPopover: (_data, sender) => loadPopover(sender),
  getSettings: () => getSettingsView(),
  saveSettings: (data) => saveSettings(data),
  forgetApiKey: async () => {
    await setApiKey('', '');
    return getSettingsView();
  },
  clearVerdictCache: async () => ({ cleared: await clearVerdicts() }),
  testConnection: (data) => testConnection(data ?? {}),
  recentLookups: (data) => getRecent(data.limit),
  startBulkUpload: async (data) => (await startBulkUpload(data)).view,
  listJobs: async () =>
    (await getJobs())
      .filter((job): job is BulkJob => job.kind === 'bulk')
      .map(toBulkView)
      .reverse(),
  listFiles: async (data) => (await getClient()).listFiles(data),
  downloadResults: (data) => downloadResults(data),
  downloadSubset: (data) => {
    if (!SUBSETS.includes(data?.subset)) throw new ApiError('bad_request', t('bg_unknown_subset'));
    return downloadSubset(data);
  },
  previewResults: (data) => previewResults(data),
  getFile: (data) => getFile(data),
  fileDeleteOffered: () => fileDeleteOffered(),
  deleteFile: (data) => scheduleFileDelete(data),
  undoDeleteFile: (data) => undoFileDelete(data),
  fileDeletes: () => listFileDeletes(),
  dismissJob: (data) => dismissJob(data.id),
  getAccount: () => getAccount(),
  checkThisPage: (data) => checkThisPage(data.tabId),
  allowPageVerify: (data) => allowPageVerify(data),
  popupHeartbeat: () => {
    onPopupHeartbeat(pollBulkJobs);
    void sendPendingChecks();
  },
  pendingChecks: async (data) => {
    // The popup saw the service answer again: send now rather than at the next backoff step.
    if (data?.sendNow === true) void sendPendingChecks({ force: true });
    return (await listPendingChecks()).map(({ force: _force, ...view }) => view);
  },
  retryPendingCheck: (data) => retryPendingCheck(checkId(data)),
  dismissPendingCheck: (data) => dismissPendingCheck(checkId(data)),
};

/**
 * Authorizes and runs the handler. Every failure leaves as an ApiError, whose fields the messaging
 * library carries to the sender (`fromMessageError` rebuilds it there).
 */
export async function dispatch<K extends Type>(
  type: K,
  data: GetDataType<ProtocolMap[K]>,
  sender: SenderInfo | undefined,
): Promise<GetReturnType<ProtocolMap[K]>> {
  try {
    authorize(type, sender);
    const handler = handlers[type] as Handler<K>;
    return await handler(data, sender ?? {});
  } catch (err) {
    throw fromMessageError(err);
  }
}

function register<K extends Type>(type: K): void {
  onMessage(type, (message) => dispatch(type, message.data, message.sender));
}

export function registerHandlers(): void {
  for (const type of Object.keys(handlers) as Type[]) register(type);
}
