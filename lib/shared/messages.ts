/**
 * The one typed message protocol between the extension's contexts and the background.
 * Handlers live in lib/background; every handler checks its sender (lib/background/core/authorize.ts):
 * content scripts may call only the messages listed in CONTENT_SCRIPT_MESSAGES.
 */

import type { FileList, FileRecord, Mode } from '@verimark/contract';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type {
  AccountView,
  BulkJobView,
  ConnectionResult,
  ContentConfig,
  FileDeleteView,
  PendingCheckView,
  ResultPreview,
  SettingsPatch,
  SettingsView,
  Subset,
  VerdictView,
} from './views';

export interface ProtocolMap {
  // --- allowed from content scripts ---
  /** Verify (or return the cached verdict of) one address. Charges at most once per address at a time. */
  /**
   * `clicked` (content scripts): the user asked for this address by a trusted click, so it is
   * not counted against the daily cap on credits spent without a click.
   */
  verifyEmail(data: { email: string; mode?: Mode; force?: boolean; clicked?: boolean }): VerdictView;
  /**
   * Cached verdicts only: never calls the service. Missing addresses map to null; for a content
   * script so do addresses it did not register and those past its tab's allowance. At most LOOKUP_MAX.
   * `found`: a content script registers them as found on its page first, in the same message (only
   * found addresses get verdicts, cached or paid: lib/background/verify/content-found.ts).
   */
  lookupCached(data: { emails: string[]; found?: boolean }): Record<string, VerdictView | null>;
  /** Whether marking is enabled for the sender's site, its per-page auto-verify budget and send guard. */
  contentConfig(): ContentConfig;
  /** Injects the popover's script into the sender's frame (first badge opened on a page). */
  loadPopover(): { loaded: boolean };

  // --- extension pages only (popup, options) ---
  getSettings(): SettingsView;
  saveSettings(data: SettingsPatch): SettingsView;
  /** "Forget API key" in the options: the stored key is removed. */
  forgetApiKey(): SettingsView;
  /** "Clear cached verdicts" in the options: returns how many verdicts were removed. */
  clearVerdictCache(): { cleared: number };
  /** Tests `serviceUrl` with `apiKey`; without a key, only the saved URL with the saved key. */
  testConnection(data: { serviceUrl?: string; apiKey?: string }): ConnectionResult;
  recentLookups(data: { limit: number }): VerdictView[];
  /** Start an upload of a CSV the caller stored in IndexedDB under `blobKey`. */
  startBulkUpload(data: { blobKey: string; fileName: string; emailColumn: string; mode: Mode }): BulkJobView;
  listJobs(): BulkJobView[];
  listFiles(data: { page: number; pageSize: number; search?: string }): FileList;
  downloadResults(data: { fileId: string; fileName: string }): { downloadId: number | null; url: string };
  /** Streams the results CSV and saves only the rows of `subset` as `<name>-<subset>.csv`. */
  downloadSubset(data: { fileId: string; fileName: string; subset: Subset }): {
    downloadId: number | null;
    rows: number;
  };
  /** The first `limit` rows of a completed file's results. */
  previewResults(data: { fileId: string; limit: number }): ResultPreview;
  /** The service's record of one file (counts, credits), or null when the list does not show it. */
  getFile(data: { fileId: string; fileName: string }): FileRecord | null;
  /** Whether the service deletes files (`DELETE /verify/bulk/files/{id}`; asked once per service and session). */
  fileDeleteOffered(): { offered: boolean };
  /**
   * "Delete" confirmed on a file: sent by the background once the undo window ends, even if the
   * popup has closed. Returns the deletes still waiting.
   */
  deleteFile(data: { fileId: string; fileName: string }): FileDeleteView[];
  /** "Undo" within the window: the delete is not sent. `undone` is false once it was. */
  undoDeleteFile(data: { fileId: string }): { undone: boolean };
  /** Deletes still within their undo window (or waiting to be sent again). */
  fileDeletes(): FileDeleteView[];
  /** Removes a finished upload from the popup's list. */
  dismissJob(data: { id: string }): void;
  /** The key's balance, or null when the service does not tell it (404). */
  getAccount(): AccountView | null;
  /** The popup says it is open: poll faster until it closes. */
  popupHeartbeat(): void;
  /** "Check this page": mark the addresses of this tab once (activeTab), even on a site not enabled. */
  checkThisPage(data: { tabId: number }): { injected: boolean };
  /**
   * "Verify all on this page", confirmed in the popup: the tab's content script may verify each
   * listed address its top frame found once past its per-tab cap. Returns how many were granted.
   */
  allowPageVerify(data: { tabId: number; emails: string[] }): { allowed: number };
  /** Single checks asked here that the service could not be reached for, kept and sent when it answers again. */
  pendingChecks(data?: { sendNow?: boolean }): PendingCheckView[];
  /** "Retry" on a kept check the service refused: sent again now. */
  retryPendingCheck(data: { email: string; mode: Mode }): void;
  /** "Dismiss" on a kept check: forgotten, never sent. */
  dismissPendingCheck(data: { email: string; mode: Mode }): void;
}

export const CONTENT_SCRIPT_MESSAGES = [
  'verifyEmail',
  'lookupCached',
  'contentConfig',
  'loadPopover',
] as const satisfies readonly (keyof ProtocolMap)[];

/** The most addresses one `lookupCached` message may carry (bigger sets go in parts). */
export const LOOKUP_MAX = 100;

/** Set by "Check this page" (scripting.executeScript) before the content script itself is injected. */
export const CHECK_ONCE_FLAG = '__verimarkCheckOnce';

// Pure: the content script imports this module's constants and speaks the protocol itself (lib/content/extension/wire.ts).
export const { sendMessage, onMessage, removeAllListeners } =
  /* @__PURE__ */ defineExtensionMessaging<ProtocolMap>();
