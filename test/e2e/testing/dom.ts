/**
 * Finding controls the way a user does: by their label or button text (docs/design.md §5), in both
 * Chromium (CDP) and Firefox (BiDi). Works through page.evaluate, which both protocols support.
 * Functions sent to the page declare no named inner functions: under tsx (npm start) esbuild
 * would wrap them in a `__name` helper that does not exist in the page.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { retryTransient, waitFor } from './process-guard';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The form control labelled `label` (a <label>, aria-label or aria-labelledby). */
export async function control(page: Page, label: string, ms = 15_000): Promise<ElementHandle<Control>> {
  return waitFor(
    async () => {
      const handle = await page.evaluateHandle((text) => {
        for (const el of document.querySelectorAll<Control>('input, select, textarea')) {
          const names = [el.getAttribute('aria-label'), ...Array.from(el.labels ?? [], (l) => l.textContent)];
          const by = el.getAttribute('aria-labelledby');
          if (by)
            names.push(
              by
                .split(/\s+/)
                .map((id) => document.getElementById(id)?.textContent ?? '')
                .join(' '),
            );
          if (names.some((n) => (n ?? '').replace(/\s+/g, ' ').trim() === text)) return el;
        }
        // A <label> whose text starts with the label (e.g. "API key (kept in the background)").
        for (const l of document.querySelectorAll('label')) {
          const own = (l.textContent ?? '').replace(/\s+/g, ' ').trim();
          if (own.startsWith(text) && l.control) return l.control as Control;
        }
        return null;
      }, label);
      const el = handle.asElement() as ElementHandle<Control> | null;
      if (!el) await handle.dispose();
      return el ?? undefined;
    },
    ms,
    `a control labelled "${label}"`,
  );
}

/** The button whose text (or aria-label) is `text`. */
export async function button(
  page: Page,
  text: string,
  ms = 15_000,
): Promise<ElementHandle<HTMLButtonElement>> {
  return waitFor(
    async () => {
      const handle = await page.evaluateHandle((want) => {
        // Visible push buttons only: a tab or menu item of the same name is not the button.
        const buttons = Array.from(
          document.querySelectorAll<HTMLElement>('button, input[type="submit"], input[type="button"]'),
        ).filter((b) => !b.matches('[role="tab"], [role="menuitem"]') && b.getClientRects().length > 0);
        return (
          buttons.find((b) =>
            [b.getAttribute('aria-label'), b.textContent].some(
              (n) => (n ?? '').replace(/\s+/g, ' ').trim() === want,
            ),
          ) ??
          buttons.find((b) => b instanceof HTMLInputElement && b.value === want) ??
          null
        );
      }, text);
      const el = handle.asElement() as ElementHandle<HTMLButtonElement> | null;
      if (!el) await handle.dispose();
      return el ?? undefined;
    },
    ms,
    `a button "${text}"`,
  );
}

/** Replaces the value of a text field: cleared (with an input event), then typed key by key. */
export function fill(page: Page, label: string, value: string): Promise<void> {
  return retryTransient(async () => {
    const field = await control(page, label);
    await field.evaluate((el) => {
      el.focus();
      el.value = '';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    if (value !== '') await field.type(value);
  }, `filling "${label}"`);
}

/** Picks an option of the select labelled `label` by its value or visible text. */
export function choose(page: Page, label: string, option: string): Promise<void> {
  return retryTransient(async () => {
    const field = await control(page, label);
    const value = await field.evaluate((el, want) => {
      if (!(el instanceof HTMLSelectElement)) throw new Error('not a <select>');
      const match = Array.from(el.options).find((o) => o.value === want || o.text.trim() === want);
      if (!match)
        throw new Error(`no option ${want} in ${Array.from(el.options, (o) => o.value).join(', ')}`);
      return match.value;
    }, option);
    await field.select(value);
  }, `choosing "${option}" in "${label}"`);
}

/** Clicks the button `text` once it is enabled. */
export function click(page: Page, text: string): Promise<void> {
  return retryTransient(async () => {
    const target = await button(page, text);
    await waitFor(() => target.evaluate((b) => !b.disabled), 15_000, `the button "${text}" to be enabled`);
    await target.click();
  }, `clicking "${text}"`);
}

/** The page's visible text, whitespace collapsed. */
function pageText(page: Page): Promise<string> {
  return page.evaluate(() => (document.body?.textContent ?? '').replace(/\s+/g, ' '));
}

/** Waits until the page's text matches `pattern`; returns the whole text. */
export function waitForText(page: Page, pattern: RegExp, ms = 30_000): Promise<string> {
  return waitFor(
    async () => {
      const text = await pageText(page);
      return pattern.test(text) ? text : undefined;
    },
    ms,
    `text matching ${pattern}`,
  );
}
