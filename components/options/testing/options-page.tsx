/** Test support: a fresh options page in the document for each test, and its controls found by their text. */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '@/components/options/options-app';

/** Lets pending promises and timers of the page run. */
export const flush = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

interface OptionsPage {
  root: HTMLElement;
}

/** Renders the page before each test (after `setup`, with a reset fake browser) and removes it after. */
export function useOptionsPage(setup: () => void = () => undefined): OptionsPage {
  const page = {} as OptionsPage;
  beforeEach(async () => {
    fakeBrowser.reset();
    setup();
    page.root = document.createElement('div');
    document.body.append(page.root);
    await act(() => render(<OptionsApp />, page.root));
    await flush();
  });
  afterEach(() => {
    render(null, page.root);
    page.root.remove();
    vi.restoreAllMocks();
  });
  return page;
}

/** The button whose text is `text`. */
export function buttonIn(root: ParentNode, text: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find((item) => item.textContent === text);
  if (!found) throw new Error(`no button ${text}`);
  return found;
}

/** The control a <label for> names, as getByLabel would find it. */
export function labelledIn(root: ParentNode, text: string): HTMLInputElement {
  const label = [...root.querySelectorAll('label')].find((item) => item.textContent === text);
  const control = label ? root.querySelector<HTMLInputElement>(`#${label.htmlFor}`) : null;
  if (!control) throw new Error(`no control labelled ${text}`);
  return control;
}
