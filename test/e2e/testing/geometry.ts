/**
 * Geometry checks of the marks, run inside the page: which badge boxes cover text or controls of
 * the page they do not belong to. A badge belongs to the element before it (an element target)
 * or, for plain text, to the element it sits in.
 */
import type { Page } from 'puppeteer-core';

export interface Overlap {
  badge: string;
  covers: string;
}

export function badgeOverlaps(page: Page): Promise<Overlap[]> {
  return page.evaluate(() => {
    const own = (node: Node) => node.nodeType === 1 && (node as Element).localName.startsWith('verimark-');
    const inOwn = (node: Node | null): boolean => {
      for (let n = node; n; n = n.parentNode) if (own(n)) return true;
      return false;
    };
    const boxes: { rect: DOMRect; node: Node; label: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || inOwn(node)) continue;
      const parent = node.parentElement;
      if (!parent || parent.closest('script,style')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) boxes.push({ rect, node, label: node.textContent.trim() });
    }
    for (const el of document.querySelectorAll('input,button,select,textarea')) {
      boxes.push({ rect: el.getBoundingClientRect(), node: el, label: `<${el.localName}#${el.id}>` });
    }
    const out: { badge: string; covers: string }[] = [];
    for (const badge of document.querySelectorAll('verimark-badge')) {
      const prev = badge.previousSibling;
      const owner =
        prev?.nodeType === 1 && (prev as Element).hasAttribute('data-verimark-status')
          ? (prev as Element)
          : badge.parentElement;
      const b = badge.getBoundingClientRect();
      for (const { rect, node, label } of boxes) {
        if (owner?.contains(node)) continue;
        const x = Math.min(b.right, rect.right) - Math.max(b.left, rect.left);
        const y = Math.min(b.bottom, rect.bottom) - Math.max(b.top, rect.top);
        if (x > 0.5 && y > 0.5) out.push({ badge: badge.getAttribute('aria-label') ?? '', covers: label });
      }
    }
    return out;
  });
}

/**
 * Table cells whose box (page coordinates, width, height) differs from what the page recorded
 * before any mark was drawn (`window.cellBoxesBefore`, written by the fixture at DOMContentLoaded).
 */
export function changedCells(page: Page): Promise<{ cell: number; before: string; after: string }[]> {
  return page.evaluate(() => {
    const before = (window as unknown as { cellBoxesBefore?: string[] }).cellBoxesBefore;
    if (!before) throw new Error('the page recorded no cell boxes');
    const after = [...document.querySelectorAll('td,th')].map((c) => {
      const r = c.getBoundingClientRect();
      return [r.x + scrollX, r.y + scrollY, r.width, r.height]
        .map((v) => Math.round(v * 100) / 100)
        .join(',');
    });
    if (after.length !== before.length)
      throw new Error(`${before.length} cells before, ${after.length} after`);
    return after
      .map((box, cell) => ({ cell, before: before[cell] ?? '', after: box }))
      .filter((c) => c.before !== c.after);
  });
}

/** The box of the open popover (found through the accessibility tree: it lives in a closed shadow root). */
export async function openDialogBox(page: Page) {
  const dialog = await page.waitForSelector('::-p-aria([role="dialog"])', { timeout: 10_000 });
  if (!dialog) throw new Error('no dialog');
  const box = await dialog.boundingBox();
  if (!box) throw new Error('dialog has no box');
  return { dialog, box };
}
