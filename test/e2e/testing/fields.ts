/**
 * Helpers of the form-field mark suites (content-fields*.test.ts): the CRM-like "Edit contact"
 * panel (fixtures/content/edit-contact.html), where each field's mark sits, and what of the page
 * moved since it first drew itself (`window.boxesBefore`, written by the page at DOMContentLoaded).
 */
import type { Page } from 'puppeteer-core';
import { finalStatuses } from './content-pages';
import { waitFor } from './process-guard';

export const FIELDS = ['work', 'home', 'other', 'narrow'];
const TOLERANCE = 2;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type FieldMarks = Record<string, { field: Box; badge: Box | null; endPadding: number }>;

/** Each field's box, its end padding, and the box of the badge right after it (page coordinates). */
export function fieldMarks(page: Page): Promise<FieldMarks> {
  return page.evaluate((ids) => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return {
        left: r.left + scrollX,
        top: r.top + scrollY,
        right: r.right + scrollX,
        bottom: r.bottom + scrollY,
      };
    };
    const out: Record<string, { field: Box; badge: Box | null; endPadding: number }> = {};
    for (const id of ids) {
      const field = document.getElementById(id) as HTMLElement;
      const next = field.nextElementSibling;
      out[id] = {
        field: box(field),
        badge: next?.localName === 'verimark-badge' ? box(next) : null,
        endPadding: Number.parseFloat(getComputedStyle(field).paddingRight),
      };
    }
    return out;
  }, FIELDS);
}

/** Boxes (x, y, width, height in page coordinates) of the page's labels, hints, buttons and fields that moved since it first drew them. */
export function moved(page: Page): Promise<string[]> {
  return page.evaluate((tolerance) => {
    const before = (window as unknown as { boxesBefore?: Record<string, number[]> }).boxesBefore;
    if (!before) throw new Error('the page recorded no boxes');
    const out: string[] = [];
    for (const el of document.querySelectorAll('label,.hint,button,input,#owner')) {
      const key = el.id || `${el.localName}-${(el as HTMLLabelElement).htmlFor}`;
      const r = el.getBoundingClientRect();
      const now = [r.x + scrollX, r.y + scrollY, r.width, r.height];
      const was = before[key] ?? [];
      if (
        now.some(
          (v, i) => Math.abs(v - (was[i] ?? Number.NaN)) > tolerance || Number.isNaN(was[i] ?? Number.NaN),
        )
      )
        out.push(`${key}: ${was.map(Math.round).join(',')} -> ${now.map(Math.round).join(',')}`);
    }
    return out;
  }, TOLERANCE);
}

export function inside(inner: Box, outer: Box): boolean {
  return (
    inner.left >= outer.left - 0.5 &&
    inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 &&
    inner.bottom <= outer.bottom + 0.5
  );
}

/** Opens the panel (in `theme`, else the browser's) and waits until every field's mark sits settled inside its field. */
export async function openForm(page: Page, origin: string, theme?: 'light' | 'dark', height = 640) {
  if (theme) await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
  await page.setViewport({ width: 900, height });
  await page.goto(`${origin}/edit-contact.html`, { waitUntil: 'load' });
  await finalStatuses(page, [...FIELDS, 'owner-link']);
  // Every field's badge drawn and placed inside its field (two reads alike).
  let last = '';
  return waitFor(
    async () => {
      const marks = await fieldMarks(page);
      const read = JSON.stringify(marks);
      const settled = read === last && Object.values(marks).every((m) => m.badge && inside(m.badge, m.field));
      last = read;
      return settled ? marks : undefined;
    },
    10_000,
    'the field marks to settle inside their fields',
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${last}`);
  });
}
