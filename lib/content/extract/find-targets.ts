/**
 * The elements of a subtree that match TARGET_SELECTOR, found without matching that selector list
 * against every element. In Chromium, on the benchmark's page, a querySelectorAll of one simple
 * selector takes the engine's fast paths, a list of several is far slower, and the whole target
 * list with its webmail hooks in descendant combinators (`div[name="to"] input`,
 * `[role="group"][id$="_TO"] span`) slower still (docs/benchmarks.md, marking at load). So every
 * stand-alone selector is one query of its own, and the scoped hooks are looked for only inside
 * the compose fields' wrappers found first (or everywhere in `root` when a wrapper is above it).
 * Same elements as `root.querySelectorAll(TARGET_SELECTOR)`, in document order
 * (find-targets.test.ts).
 */
import { RECIPIENT_ALONE, RECIPIENT_SCOPED } from '@/lib/content/webmail/recipients';
import { ELEMENT_SELECTORS, TARGET_SELECTOR } from './targets';

type Root = Document | ShadowRoot | Element;

// None of these selectors has a comma inside it (the test compares with the whole list).
const list = (selectors: string) => selectors.split(',');
const ALONE = [...list(ELEMENT_SELECTORS.input), ELEMENT_SELECTORS.mailto, ...list(RECIPIENT_ALONE)];
const SCOPED = RECIPIENT_SCOPED.map(([wrapper, inner]) => [list(wrapper), list(inner)] as const);

/** Two lists in document order, merged in document order (without duplicates). */
function merge(a: Element[], b: Element[]): Element[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: Element[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Element;
    const y = b[j] as Element;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x.compareDocumentPosition(y) & 4) {
      out.push(x); // y follows x
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  for (; i < a.length; i++) out.push(a[i] as Element);
  for (; j < b.length; j++) out.push(b[j] as Element);
  return out;
}

/** Every match of each selector under `root`, one query each, merged in document order. */
function queryEach(root: Root, selectors: readonly string[], into: Element[]): Element[] {
  let found = into;
  for (const selector of selectors) {
    const part = root.querySelectorAll(selector);
    if (part.length > 0) found = merge(found, [...part]);
  }
  return found;
}

/**
 * Below this many elements a subtree (rows a page just added) is asked with the whole selector
 * list at once: dozens of queries per small subtree cost more than one list query on it.
 */
export const SMALL_SUBTREE = 400;

/** True for an element subtree of fewer than SMALL_SUBTREE elements. */
export function isSmall(root: Node): boolean {
  return root.nodeType === 1 && (root as Element).getElementsByTagName('*').length < SMALL_SUBTREE;
}

/** Every descendant of `root` (not `root` itself) that is a target by its selector. */
export function findTargets(root: Root, small = isSmall(root)): Element[] {
  if (small) return [...root.querySelectorAll(TARGET_SELECTOR)];
  let found = queryEach(root, ALONE, []);
  for (const [wrapper, inner] of SCOPED) {
    const element = root.nodeType === 1 ? (root as Element) : null;
    if (element?.parentElement?.closest(wrapper.join(','))) {
      found = queryEach(root, inner, found);
      continue;
    }
    const wrappers = queryEach(root, wrapper, []);
    if (element?.matches(wrapper.join(','))) wrappers.unshift(element);
    for (const w of wrappers) found = queryEach(w, inner, found);
  }
  return found;
}
