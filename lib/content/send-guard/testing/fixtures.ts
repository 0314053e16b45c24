/**
 * Compose markup for the guard's unit tests: the captures of real Gmail markup and the e2e compose
 * pages, all in test/e2e/fixtures/content (sources in SOURCES.md there), loaded into the test document.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const E2E = '../../../../test/e2e/fixtures/content';
const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');

/** The <body> of an HTML file, without its scripts (tests drive the markup themselves). */
function body(html: string): string {
  const inner = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html;
  return inner.replace(/<script[\s\S]*?<\/script>/gi, '');
}

export const GMAIL_CHIP_2021 = () => body(read(`${E2E}/gmail-chip.html`));
export const GMAIL_COMPOSE_2020 = () => body(read(`${E2E}/gmail-compose.html`));
export const OUTLOOK_WRITTEN = () => body(read(`${E2E}/outlook-compose.html`));
export const GMAIL_LIKE = () => body(read(`${E2E}/guard-gmail.html`));
export const OUTLOOK_LIKE = () => body(read(`${E2E}/guard-outlook.html`));
/** The same pages in Gmail's and Outlook's German, French and Spanish interfaces. */
export const LANGUAGES = ['de', 'fr', 'es'] as const;
export const GMAIL_IN = (lang: string) => body(read(`${E2E}/guard-gmail-${lang}.html`));
export const OUTLOOK_IN = (lang: string) => body(read(`${E2E}/guard-outlook-${lang}.html`));

/** Puts markup into the test document (test code only: the extension never parses HTML strings). */
export function load(doc: Document, html: string): void {
  doc.body.innerHTML = html;
}
