/**
 * The one typed message protocol between the extension's contexts and the background.
 * Handlers live in lib/background; every handler checks its sender (lib/background/core/authorize.ts):
 * content scripts may call only the messages listed in CONTENT_SCRIPT_MESSAGES.
 */

import type { FileList, FileRecord, Mode } from '@verimark/contract';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { ApiErrorKind } from '../api/errors';
import type { CheckRefusal } from '../storage/pending-checks';
import type { Settings } from '../storage/settings';
import type { PageStatus } from './page-messages';

/** A verdict as the extension shows it, whatever service produced it. */
export type MarkStatus =
  | 'pending'
  | 'deliverable'
  | 'undeliverable'
  | 'risky'
  | 'unknown'
  | 'invalid'
  | 'error';

export interface VerdictView {
  /** The normalized address (trimmed, domain lowercased, IDN as punycode). */
  email: string;
  status: MarkStatus;
  /** Machine reason (e.g. `rejected_email`), or null when the service gave none. */
  reason: string | null;
  checks: Record<string, boolean | null>;
  mxHost: string | null;
  suggestion: string | null;
  /** The mail provider the service recognised by MX host (e.g. `google`), when it tells. */
  provider?: string | null;
  /** When the verdict was obtained (ms since epoch). */
  verifiedAt: number;
  /** True when served from the cache without spending a credit. */
  cached: boolean;
  /** Fields of the service's result the client does not know, shown raw. */
  extra: Record<string, unknown>;
  /** For status `error`: a human message. */
  error?: string;
}

/** The stored settings as the UI sees them, plus what it may know of the key. */
export interface SettingsView extends Settings {
  /** True when a key is stored; the key itself never leaves the background. */
  hasApiKey: boolean;
  /** A fingerprint of the stored key (`vm_…2xs`), or '' when none is stored. */
  apiKeyHint: string;
  /**
   * The origin a stored key was saved for when it is not the service URL's: that key is not sent
   * to the service URL (hasApiKey is false) until it is typed again or confirmed there.
   */
  apiKeyElsewhere: string | null;
}

/** A change to the settings: any stored field, and the key. */
export interface SettingsPatch extends Partial<Settings> {
  /** A new key; an empty string clears it. */
  apiKey?: string;
  /** The service URL's origin changed: the user confirmed sending the stored key there. */
  useSavedKeyHere?: boolean;
}

/** The balance of the key (`GET /account`, our service only: null where the service has no such endpoint). */
export interface AccountView {
  credits: number;
  expiresAt: string | null;
  label: string | null;
}

export type ConnectionResult =
  | { ok: true; account?: AccountView | null }
  | {
      ok: false;
      kind:
        | 'invalid_key'
        | 'key_needed'
        | 'payment_required'
        | 'rate_limited'
        | 'unreachable'
        | 'bad_url'
        | 'server';
      message: string;
    };

export interface BulkJobView {
  /** Local id, stable from the moment the upload is requested. */
  id: string;
  fileId: string | null;
  fileName: string;
  phase: 'uploading' | 'queued' | 'processing' | 'completed' | 'failed';
  /** 0..1 when known. */
  progress: number | null;
  /** A human message when the job failed. */
  error: string | null;
  /** The kind of failure (e.g. `payment_required`), when it came from the service or the network. */
  errorKind?: ApiErrorKind | null;
  /** Rows verified so far and rows in the file, once the service's file record tells them. */
  done?: number | null;
  total?: number | null;
  createdAt: number;
}

/** The result subsets offered under "More download options". */
export const SUBSETS = ['deliverable', 'deliverable_and_risky', 'undeliverable'] as const;
export type Subset = (typeof SUBSETS)[number];

/** The first rows of a results CSV: the address and its verdict. */
export interface ResultPreview {
  rows: { email: string; status: string; reason: string }[];
}

/** What a content script is told about its site. */
export interface ContentConfig {
  enabled: boolean;
  autoVerifyBudget: number;
  /** The send guard runs on this site (Gmail/Outlook compose; docs/design.md §5). */
  sendGuard: boolean;
  /** The send guard also warns for `risky` recipients. */
  sendGuardRisky: boolean;
  /**
   * The badges' words in the extension's language, read by the background, so marking never calls
   * `i18n.getMessage` in the page (lib/shared/badge-words.ts).
   */
  badgeWords?: BadgeWords;
}

/** A badge's screen-reader label (`\u0001`: the status word, `\u0002`: the addresses) and each status's word. */
export interface BadgeWords {
  label: string;
  statuses: Partial<Record<PageStatus, string>>;
}

/** A single check kept while the service could not be reached (sent when it answers again). */
export interface PendingCheckView {
  email: string;
  mode: Mode;
  queuedAt: number;
  /** Sent once the service was back, and refused (nothing was paid): why, for the popup's words. */
  refused?: CheckRefusal;
}

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

// Pure: the content script imports this module's constants and speaks the protocol itself (lib/content/wire.ts).
export const { sendMessage, onMessage, removeAllListeners } =
  /* @__PURE__ */ defineExtensionMessaging<ProtocolMap>();
