/**
 * Marks on form fields, in real Chromium against the real service: on a CRM-like "Edit contact"
 * panel of fixed height, each email field's mark sits inside the field's end (as password
 * managers put theirs), so the labels, hints and buttons stay where the page drew them and Save
 * stays inside its panel; the field keeps its size and its text is not under the mark (the mark
 * is in the field's end padding); the mark follows the field when the page scrolls; its popover
 * opens by click and by keyboard. A mark after a link keeps its own small space beside it.
 * Light and dark screenshots. A mailto: link or field whose text is not exactly one address is
 * `invalid`, and no address read out of it is verified.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { finalStatuses, rcptCount } from './testing/content-pages';
import { type Box, fieldMarks, inside, moved, openForm } from './testing/fields';
import { badgeOverlaps } from './testing/geometry';
import { ROOT } from './testing/paths';
import { popoverSaying } from './testing/popover';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 100);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
async function popoverClosed() {
  await env.page.keyboard.press('Escape');
  await waitFor(async () => !(await env.page.$('::-p-aria([role="dialog"])')), 5_000, 'the popover to close');
}

describe('marks on form fields in Chromium', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`sit inside the field's end and move nothing on the form (${theme})`, async () => {
      const marks = await openForm(env.page, env.fixtures.origin, theme);
      expect(await moved(env.page)).toEqual([]);
      const panel = await env.page.$eval('#panel', (el) => el.getBoundingClientRect().bottom);
      const save = await env.page.$eval('#save', (el) => el.getBoundingClientRect().bottom);
      expect(save, 'Save stays inside its panel').toBeLessThanOrEqual(panel);
      for (const id of ['work', 'home', 'other']) {
        const { field, badge, endPadding } = marks[id] ?? { badge: null, field: null, endPadding: 0 };
        // The field's text ends before the mark: the mark lies in the field's end padding.
        expect(
          badge && field && badge.left >= field.right - endPadding,
          `${id}: mark in the end padding`,
        ).toBe(true);
      }
      // A link's mark keeps its own small space beside it, on its line.
      const link = await env.page.$eval('#owner-link', (el) => {
        const a = el.getBoundingClientRect();
        const b = el.nextElementSibling?.getBoundingClientRect();
        return b ? { gap: b.left - a.right, sameLine: b.top < a.bottom && b.bottom > a.top } : null;
      });
      expect(link?.sameLine).toBe(true);
      expect(link?.gap).toBeGreaterThanOrEqual(1);
      expect(await badgeOverlaps(env.page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await env.page.screenshot({ path: path.join(SHOTS, `fields-${theme}.png`) });
    });
  }

  it('the mark follows its field when the page scrolls', async () => {
    await openForm(env.page, env.fixtures.origin, 'light', 300);
    await env.page.evaluate(() => window.scrollBy(0, 120));
    await waitFor(
      async () => Object.values(await fieldMarks(env.page)).every((m) => m.badge && inside(m.badge, m.field)),
      5_000,
      'the marks to stay inside their fields after scrolling',
    );
  });

  it('the popover opens from a field mark by click and by keyboard', async () => {
    await openForm(env.page, env.fixtures.origin, 'light');
    const marks = await fieldMarks(env.page);
    const badge = marks.home?.badge;
    if (!badge) throw new Error('no mark on the home field');
    await env.page.mouse.click(badge.left + 7, badge.top + 7);
    await popoverSaying(env.page, /lead4@rejecting\.test/);
    mkdirSync(SHOTS, { recursive: true });
    await env.page.screenshot({ path: path.join(SHOTS, 'fields-popover-light.png') });
    await popoverClosed();
    // Tab from the field reaches its mark; Enter opens the popover.
    await env.page.focus('#work');
    await env.page.keyboard.press('Tab');
    expect(await env.page.evaluate(() => document.activeElement?.localName)).toBe('verimark-badge');
    await env.page.keyboard.press('Enter');
    await popoverSaying(env.page, /info@deliverable\.test/);
    await popoverClosed();
    expect(await env.page.evaluate(() => document.activeElement?.previousElementSibling?.id)).toBe('work');
  });

  it('a mailto: link or field that is not exactly one address is invalid; no address read out of it is verified', async () => {
    await env.page.setViewport({ width: 900, height: 640 });
    await env.page.goto(`${env.fixtures.origin}/strict.html`, { waitUntil: 'load' });
    await env.page.type('#field', 'gina smith@deliverable.test');
    await env.page.keyboard.press('Enter');
    const statuses = await finalStatuses(env.page, ['spaced', 'encoded', 'good', 'field']);
    expect(statuses).toEqual({
      spaced: 'invalid',
      encoded: 'invalid',
      good: 'deliverable',
      field: 'invalid',
    });
    const commands = env.net.allCommands();
    expect(rcptCount(commands, 'info@deliverable.test')).toBeGreaterThanOrEqual(1);
    for (const other of ['smith@deliverable.test', 'boss@deliverable.test'])
      expect(rcptCount(commands, other), other).toBe(0);
  });

  it('right-to-left fields, textareas and fields in a scrolling dialog body: the mark is at the field end, shown only while its place is in view', async () => {
    await env.page.setViewport({ width: 900, height: 640 });
    await env.page.goto(`${env.fixtures.origin}/fields-more.html`, { waitUntil: 'load' });
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5', 'rtl', 'notes'];
    await finalStatuses(env.page, ids);
    /** Per field: its box, its badge's box, and whether the badge is shown. */
    const read = () =>
      env.page.evaluate((list) => {
        const out: Record<string, { field: Box; badge: Box; shown: boolean }> = {};
        for (const id of list) {
          const field = document.getElementById(id) as HTMLElement;
          const badge = field.nextElementSibling as HTMLElement;
          const f = field.getBoundingClientRect();
          const b = badge.getBoundingClientRect();
          out[id] = {
            field: { left: f.left, top: f.top, right: f.right, bottom: f.bottom },
            badge: { left: b.left, top: b.top, right: b.right, bottom: b.bottom },
            shown: badge.localName === 'verimark-badge' && getComputedStyle(badge).visibility === 'visible',
          };
        }
        return out;
      }, ids);
    const scroller = await env.page.$eval('#scroll', (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    const check = async (when: string) => {
      const marks = await read();
      for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) {
        const m = marks[id];
        if (!m) throw new Error(`no ${id}`);
        const inView = m.badge.top >= scroller.top && m.badge.bottom <= scroller.bottom;
        const fieldInView = m.field.top + 7 >= scroller.top && m.field.bottom - 7 <= scroller.bottom;
        // A mark shows only inside the scrolling body, and then inside its field.
        if (m.shown) expect(inView && inside(m.badge, m.field), `${when}: ${id}`).toBe(true);
        if (fieldInView) expect(m.shown, `${when}: ${id} shown`).toBe(true);
      }
      return marks;
    };
    await waitFor(
      async () => Object.values(await read()).every((m) => m.shown || m.field.top > scroller.bottom - 20),
      10_000,
      'the marks to be placed',
    );
    const before = await check('before scrolling');
    expect(before.d1?.shown && !before.d5?.shown).toBe(true);
    await env.page.$eval('#scroll', (el) => el.scrollBy(0, 200));
    let after = before;
    await waitFor(
      async () => {
        after = await read();
        return !after.d1?.shown && after.d5?.shown;
      },
      5_000,
      'the marks to follow the scrolled body',
    );
    await check('after scrolling');
    // Right to left: the field's end is its left side. A textarea: beside its first line.
    const { rtl, notes } = after;
    expect(rtl && inside(rtl.badge, rtl.field) && rtl.badge.left - rtl.field.left < 10).toBe(true);
    expect(notes && inside(notes.badge, notes.field) && notes.field.right - notes.badge.right < 10).toBe(
      true,
    );
    mkdirSync(SHOTS, { recursive: true });
    await env.page.screenshot({ path: path.join(SHOTS, 'fields-more-light.png') });
    expect(notes && notes.badge.top - notes.field.top < 16, JSON.stringify(notes)).toBe(true);
  });
});
