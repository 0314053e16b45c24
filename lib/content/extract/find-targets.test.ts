// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTargets } from './find-targets';
import { TARGET_SELECTOR } from './targets';

function load(name: string): void {
  const path = join(__dirname, '../../../test/e2e/fixtures/content', name);
  // Test fixture only: a stored capture parsed here, never page data in the extension.
  document.documentElement.innerHTML = readFileSync(path, 'utf8');
}

const SYNTHETIC = `
  <a id="m" href="mailto:a@x.test">a</a><input id="e" type="email">
  <div name="to" id="to"><div data-hovercard-id="b@x.test" id="chip"><span>B</span></div><input id="typing"></div>
  <div name="cc"><div name="bcc"><textarea id="nested"></textarea></div></div>
  <div role="group" id="well_TO"><span id="pill" title="c@x.test">C</span><b aria-label="d@x.test" id="b"></b></div>
  <div role="group" id="x_BCC"><p><span id="deep">e@x.test</span></p></div>
  <span email="f@x.test" id="sender"></span><span class="_EType_RECIPIENT_ENTITY" id="entity"></span>
  <div id="plain"><span>none</span><input id="other"></div>`;

describe('findTargets', () => {
  for (const name of [
    'gmail-compose.html',
    'gmail-chip.html',
    'outlook-compose.html',
    'crm.html',
    'mixed.html',
  ]) {
    it(`finds what querySelectorAll(TARGET_SELECTOR) finds, in order (${name})`, () => {
      load(name);
      const expected = [...document.querySelectorAll(TARGET_SELECTOR)];
      expect(expected.length).toBeGreaterThan(0);
      expect(findTargets(document)).toEqual(expected);
    });
  }

  it('covers every kind of hook, nested wrappers once, and subtrees inside or around a wrapper', () => {
    document.body.innerHTML = SYNTHETIC;
    const ids = (els: Element[]) => els.map((el) => el.id);
    expect(ids(findTargets(document))).toEqual(ids([...document.querySelectorAll(TARGET_SELECTOR)]));
    expect(ids(findTargets(document))).toEqual([
      'm',
      'e',
      'chip',
      'typing',
      'nested',
      'pill',
      'b',
      'deep',
      'sender',
      'entity',
    ]);
    // Subtrees that are the wrapper (an Outlook group, a Gmail chip's field).
    const inside = document.getElementById('well_TO') as Element;
    expect(ids(findTargets(inside))).toEqual(['pill', 'b']);
    // A subtree inside a wrapper (the wrapper is above it), asked one selector at a time.
    const deep = document.getElementById('deep')?.parentElement as Element;
    expect(ids(findTargets(deep, false))).toEqual(['deep']);
    const chip = document.getElementById('chip') as Element;
    expect(ids(findTargets(chip))).toEqual(ids([...chip.querySelectorAll(TARGET_SELECTOR)]));
    expect(ids(findTargets(document.getElementById('plain') as Element))).toEqual([]);
  });
});
