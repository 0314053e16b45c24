import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { inlineInto } from './inline-stylesheets';

const asset = (fileName: string, source: string): Rollup.OutputAsset => ({
  type: 'asset',
  fileName,
  source,
  name: undefined,
  names: [],
  originalFileName: null,
  originalFileNames: [],
  needsCodeReference: false,
});

function bundleOf(...items: Rollup.OutputAsset[]): Rollup.OutputBundle {
  return Object.fromEntries(items.map((item) => [item.fileName, item]));
}

const PAGE = 'entrypoints/popup/index.html';
const page = (head: string) => `<!DOCTYPE html><html><head>${head}</head><body><p>x</p></body></html>`;

describe('inlineStylesheets', () => {
  it('writes a linked stylesheet into the page and drops the file', () => {
    const bundle = bundleOf(
      asset(PAGE, page('<link rel="stylesheet" crossorigin href="/assets/popup-1.css">')),
      asset('assets/popup-1.css', 'body{color:red}\n'),
    );
    expect(inlineInto(bundle, PAGE)).toEqual(['assets/popup-1.css']);
    expect(bundle[PAGE]).toMatchObject({ source: page('<style>body{color:red}</style>') });
    expect(bundle['assets/popup-1.css']).toBeUndefined();
  });

  it('keeps the file when another page links it, and leaves other pages and links alone', () => {
    const other = page('<link rel="stylesheet" href="/assets/shared.css">');
    const bundle = bundleOf(
      asset(PAGE, page('<link rel="stylesheet" href="/assets/shared.css"><link rel="icon" href="/i.png">')),
      asset('options.html', other),
      asset('assets/shared.css', 'p{margin:0}'),
    );
    inlineInto(bundle, PAGE);
    expect(bundle[PAGE]).toMatchObject({
      source: page('<style>p{margin:0}</style><link rel="icon" href="/i.png">'),
    });
    expect(bundle['options.html']).toMatchObject({ source: other });
    expect(bundle['assets/shared.css']).toBeDefined();
  });

  it('cannot be closed early by the CSS text', () => {
    const bundle = bundleOf(
      asset(PAGE, page('<link rel="stylesheet" href="/a.css">')),
      asset('a.css', 'a::after{content:"</style><script>"}'),
    );
    inlineInto(bundle, PAGE);
    expect(bundle[PAGE]).toMatchObject({
      source: page('<style>a::after{content:"<\\/style><script>"}</style>'),
    });
  });

  it('leaves a page whose stylesheet is not in the bundle as it is', () => {
    const html = page('<link rel="stylesheet" href="https://example.com/x.css">');
    const bundle = bundleOf(asset(PAGE, html));
    expect(inlineInto(bundle, PAGE)).toEqual([]);
    expect(bundle[PAGE]).toMatchObject({ source: html });
  });
});
