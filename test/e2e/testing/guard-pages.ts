/**
 * Helpers of the send-guard suites: the Gmail-like and Outlook-like compose pages
 * (fixtures/content/guard-*.html), what their own send handler recorded (`window.sent`), and the
 * guard's dialog read through the accessibility tree (its shadow root is closed).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, SerializedAXNode } from 'puppeteer-core';
import { finalStatuses } from './content-pages';
import { ROOT } from './paths';
import { waitFor } from './process-guard';

/** A compose page: guard-gmail.html, guard-outlook.html, or one in another language (guard-gmail-de.html). */
export type Webmail = 'gmail' | 'outlook' | `${'gmail' | 'outlook'}-${'de' | 'fr' | 'es'}`;

const isGmail = (site: Webmail) => site.startsWith('gmail');

export interface SentRecord {
  via: string;
  trusted: boolean;
  to: string[];
}

const idOf = (site: Webmail, address: string) =>
  `${isGmail(site) ? 'chip' : 'pill'}-${address.replace(/[^a-z0-9]/gi, '-')}`;

/** Opens the compose page with these recipients and waits until each shows a final verdict. */
export async function openCompose(
  page: Page,
  origin: string,
  site: Webmail,
  recipients: { to?: string[]; cc?: string[] },
  expected?: Record<string, string>,
  /** More of the page's query (e.g. `lang`). */
  params: Record<string, string> = {},
): Promise<void> {
  const query = new URLSearchParams(params);
  for (const [field, list] of Object.entries(recipients)) query.set(field, list.join(','));
  await page.goto(`${origin}/guard-${site}.html?${query}`, { waitUntil: 'load' });
  const all = [...(recipients.to ?? []), ...(recipients.cc ?? [])];
  const shown = await finalStatuses(
    page,
    all.map((a) => idOf(site, a)),
    30_000,
  );
  if (expected) {
    const want = Object.fromEntries(Object.entries(expected).map(([a, s]) => [idOf(site, a), s]));
    if (JSON.stringify(shown) !== JSON.stringify(want))
      throw new Error(`marks ${JSON.stringify(shown)}, expected ${JSON.stringify(want)}`);
  }
}

/** Adds a recipient the way autocomplete does (the page's own code), without waiting for its mark. */
export function addRecipient(page: Page, site: Webmail, field: string, address: string): Promise<void> {
  return page.evaluate(
    (s, f, a) => {
      const w = window as unknown as Record<string, (field: string, address: string) => void>;
      w[s ? 'addChip' : 'addPill']?.(f, a);
    },
    isGmail(site),
    field,
    address,
  );
}

export function sentLog(page: Page): Promise<SentRecord[]> {
  return page.evaluate(() => (window as unknown as { sent: SentRecord[] }).sent);
}

/** The text of the guard's alertdialog (every accessible name in it), or null when none is open. */
export async function guardDialog(page: Page): Promise<string | null> {
  const tree = await page.accessibility.snapshot({ interestingOnly: false });
  let found: SerializedAXNode | null = null;
  const walk = (node: SerializedAXNode | null | undefined) => {
    if (!node || found) return;
    if (node.role === 'alertdialog') found = node;
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  if (!found) return null;
  const texts: string[] = [];
  const collect = (node: SerializedAXNode) => {
    if (node.name) texts.push(node.name);
    for (const child of node.children ?? []) collect(child);
  };
  collect(found);
  return texts.join('\n');
}

export function waitForDialog(page: Page, pattern: RegExp, ms = 15_000): Promise<string> {
  return waitFor(
    async () => {
      const text = await guardDialog(page);
      return text !== null && pattern.test(text) ? text : undefined;
    },
    ms,
    `the send guard dialog matching ${pattern}`,
  );
}

export function waitForSends(page: Page, count: number, ms = 15_000): Promise<SentRecord[]> {
  return waitFor(
    async () => {
      const sent = await sentLog(page);
      return sent.length >= count ? sent : undefined;
    },
    ms,
    `${count} send(s) recorded by the page`,
  );
}

/** True when no guard dialog host is in the page. */
export function noDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => document.querySelector('verimark-send-guard') === null);
}

export const GUARD_SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(GUARD_SCREENSHOTS, { recursive: true });
  const file = path.join(GUARD_SCREENSHOTS, `${name}.png`) as `${string}.png`;
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  await page.screenshot({ path: file, captureBeyondViewport: false });
  return file;
}
