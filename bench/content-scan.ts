/**
 * Scan cost of the content script's extraction on a CRM-like page (500 rows, happy-dom)
 * against a bare querySelectorAll pass over the same page with the same selector.
 *
 *   npx tsx bench/content-scan.ts
 */

import { checkEmail } from '@verimark/contract/address';
import { Window } from 'happy-dom';
import { extractTarget, TARGET_SELECTOR } from '../lib/content/extract/targets';
import { scanTree } from '../lib/content/marking/scan';

// happy-dom's selector engine grows faster than linearly with the page (1,000 rows take minutes):
// 500 rows keep the run short; the real-browser benches measure big pages.
const ROWS = 500;
const RUNS = 5;

/**
 * The content script runs where the page's globals exist (NodeFilter for its text walker, Node,
 * Element…); in Node they come from happy-dom's window, installed before the first scan.
 */
function installGlobals(window: Window): void {
  for (const name of [
    'NodeFilter',
    'Node',
    'Element',
    'HTMLElement',
    'HTMLInputElement',
    'HTMLTextAreaElement',
    'HTMLAnchorElement',
    'ShadowRoot',
    'Text',
  ]) {
    if (!(name in globalThis)) {
      Object.defineProperty(globalThis, name, {
        value: (window as unknown as Record<string, unknown>)[name],
        configurable: true,
      });
    }
  }
}

function buildPage(): Document {
  const window = new Window();
  installGlobals(window);
  const doc = window.document as unknown as Document;
  const tbody = doc.createElement('tbody');
  for (let i = 0; i < ROWS; i++) {
    const tr = doc.createElement('tr');
    const cells = [String(i + 1), `Contact ${i + 1}`, '', `owner${i % 7}`, ''];
    for (const text of cells) {
      const td = doc.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    const link = doc.createElement('a');
    link.setAttribute(
      'href',
      `mailto:person${i}@example${i % 50}.test${i % 3 === 0 ? `?cc=boss${i % 11}@example.test` : ''}`,
    );
    link.textContent = `person${i}@example${i % 50}.test`;
    tr.children[2]?.append(link);
    const input = doc.createElement('input');
    input.setAttribute('name', i % 10 === 0 ? 'email' : 'note');
    input.setAttribute('value', i % 10 === 0 ? `edit${i}@example.test` : 'call back');
    tr.children[4]?.append(input);
    tbody.append(tr);
  }
  const table = doc.createElement('table');
  table.append(tbody);
  doc.body.append(table);
  return doc;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

let generation = 0;
/** happy-dom caches query results until the tree changes: change it before every sample. */
function touch(doc: Document): void {
  doc.body.setAttribute('data-run', String(generation++));
  const marker = doc.createElement('i');
  doc.body.append(marker);
  marker.remove();
}

function time(doc: Document, run: () => number): { ms: number; count: number } {
  const samples: number[] = [];
  let count = 0;
  run(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    touch(doc);
    const start = performance.now();
    count = run();
    samples.push(performance.now() - start);
  }
  return { ms: median(samples), count };
}

const doc = buildPage();
const floor = time(doc, () => doc.querySelectorAll(TARGET_SELECTOR).length);
const scan = time(doc, () => {
  let addresses = 0;
  scanTree(doc, {
    target(el) {
      for (const raw of extractTarget(el)?.emails ?? []) if (checkEmail(raw).email) addresses++;
    },
    text(_el, target) {
      for (const raw of target.emails) if (checkEmail(raw).email) addresses++;
    },
    shadowRoot() {},
    frame() {},
  });
  return addresses;
});

console.log(`page: ${ROWS} rows, ${doc.getElementsByTagName('*').length} elements (happy-dom)`);
console.log(`bare querySelectorAll(targets): ${floor.ms.toFixed(1)} ms, ${floor.count} elements`);
console.log(`full scan + extraction + syntax: ${scan.ms.toFixed(1)} ms, ${scan.count} addresses`);
console.log(`ratio scan / bare pass: ${(scan.ms / floor.ms).toFixed(2)}x`);
