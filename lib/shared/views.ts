/**
 * What the extension's contexts show one another: verdicts, settings, jobs, a page's addresses, as
 * the message protocols (messages.ts, page-messages.ts) carry them. Imports nothing but the wire
 * contract's types, so every context — content script, popup, background, storage — may use it.
 */
import type { Mode } from '@verimark/contract';

/** The kinds of the API client's errors (lib/api/errors.ts); they cross the message boundary as they are. */
export const API_ERROR_KINDS = [
  'invalid_key', // 401
  'payment_required', // 402 (subscription or insufficient credits)
  'rate_limited', // 429, with retryAfterSeconds
  'bad_request', // 400, with the service's message
  'not_found', // 404
  'too_large', // 413
  'network', // fetch failed: offline, DNS, refused, CORS
  'server', // 5xx or a response that does not match the contract
  'not_configured', // no service URL or API key set
] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/** Why the service refused a kept check when it was sent (nothing was paid). */
export interface CheckRefusal {
  kind: ApiErrorKind;
  status: number | null;
  message: string;
}

/** The stored settings (lib/storage/settings.ts keeps them, versioned). */
export interface Settings {
  serviceUrl: string;
  defaultMode: Mode;
  /** Lifetime of a definitive verdict in the cache. */
  cacheTtlHours: number;
  /** Host names where the content script marks addresses (e.g. `crm.example.com`). */
  enabledSites: string[];
  /** Addresses the content script may verify automatically per page. */
  autoVerifyBudget: number;
  /** Enabled sites where the send guard is switched off (it is on wherever marking is on). */
  sendGuardOffSites: string[];
  /** The send guard also warns for `risky` recipients. */
  sendGuardRisky: boolean;
  /** Credits content scripts may spend without a click per day, across all tabs (docs/design.md §5). */
  dailyAutoCap: number;
  /** Senders of received webmail are verified on sight (off: they wait for a click; docs/design.md §5). */
  sendersOnSight: boolean;
}

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

/** A file delete the person confirmed and may still undo until `dueAt` (ms since epoch). */
export interface FileDeleteView {
  fileId: string;
  dueAt: number;
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
  /** Senders of received webmail are verified on sight (the option; bodies always wait for a click). */
  sendersOnSight?: boolean;
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

/** The values of `data-verimark-status` (docs/design.md, observable contract). */
export type PageStatus = MarkStatus | 'unverified';

export interface PageAddress {
  /** Normalized address. */
  email: string;
  status: PageStatus;
  /** The service's reason code, when there is a verdict. */
  reason: string | null;
}
