/**
 * scripts/test.mjs says in its opening comment which steps `npm test` runs and in which order;
 * this checks that the code runs them in that order, so the comment cannot drift from it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SOURCE = readFileSync(new URL('./test.mjs', import.meta.url), 'utf8');

/** Each step: how the opening comment names it, and the call that runs it in the code. */
const STEPS: [header: string, code: string][] = [
  ['browsers', 'await browsers()'],
  ['lint', "step('lint'"],
  ['build:test', "step('build:test'"],
  ['typecheck', "step('typecheck'"],
  ['web-ext lint of the Firefox build', 'webExtLint()'],
  ['store checks', 'await storeChecks()'],
  ['every Vitest project', 'await vitest('],
  ['Node 22', "step('node 22'"],
  ['Dockerfile and compose stack', 'await containerCheck()'],
];

/** Where each needle first appears in `text` after the previous one, or -1 once one is missing. */
function inOrder(text: string, needles: string[]): number[] {
  let from = 0;
  return needles.map((needle) => {
    const at = from < 0 ? -1 : text.indexOf(needle, from);
    from = at < 0 ? -1 : at + needle.length;
    return at;
  });
}

describe("scripts/test.mjs's opening comment", () => {
  const header = /^#![^\n]*\n((?:\/\/[^\n]*\n)+)/.exec(SOURCE)?.[1] ?? '';
  const body = SOURCE.slice(SOURCE.indexOf('\nawait browsers()'));

  it('names every step in the order the code runs them', () => {
    expect(header.length).toBeGreaterThan(0);
    const flat = header.replace(/\n\/\/\s*/g, ' ');
    expect(
      inOrder(
        flat,
        STEPS.map(([name]) => name),
      ),
    ).not.toContain(-1);
    expect(
      inOrder(
        body,
        STEPS.map(([, call]) => call),
      ),
    ).not.toContain(-1);
  });

  it('would tell two steps swapped', () => {
    expect(inOrder('a → c → b', ['a', 'b', 'c'])).toContain(-1);
    expect(inOrder('a → b → c', ['a', 'b', 'c'])).not.toContain(-1);
  });
});
