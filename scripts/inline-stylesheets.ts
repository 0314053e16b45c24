/**
 * A Vite build plugin: the stylesheets a page links are written into the page as one <style>
 * element, so its first paint waits for no other file (a linked stylesheet blocks rendering until
 * it has been fetched). The file is dropped from the build unless something else still names it.
 * Used for the popup (wxt.config.ts): its CSS is small and read on every opening.
 */
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputAsset = Rollup.OutputAsset;

const LINK = /<link\b[^>]*\brel="stylesheet"[^>]*>/g;
const HREF = /\bhref="\/?([^"]+)"/;

/** CSS text safe inside <style>: nothing in it may close the element. */
function styleText(css: string): string {
  return css.replace(/<\/style/gi, '<\\/style');
}

function textOf(asset: OutputAsset): string {
  return typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
}

/**
 * Whether any other file of the bundle names `fileName`: a chunk's code (a dynamic import's CSS
 * is listed there) or another page. A chunk's `importedCss` alone is only what Vite wrote into
 * the pages' links.
 */
function namedElsewhere(bundle: OutputBundle, fileName: string, page: string): boolean {
  return Object.values(bundle).some((item) => {
    if (item.fileName === page || item.fileName === fileName) return false;
    if (item.type === 'chunk') return item.code.includes(fileName);
    return typeof item.source === 'string' && item.source.includes(fileName);
  });
}

/** Rewrites `page` in `bundle` (exported for tests); returns the inlined files' names. */
export function inlineInto(bundle: OutputBundle, page: string): string[] {
  const html = bundle[page];
  if (html?.type !== 'asset') return [];
  const inlined: string[] = [];
  html.source = textOf(html).replace(LINK, (tag) => {
    const fileName = HREF.exec(tag)?.[1];
    const css = fileName === undefined ? undefined : bundle[fileName];
    if (fileName === undefined || css?.type !== 'asset') return tag;
    inlined.push(fileName);
    return `<style>${styleText(textOf(css).trim())}</style>`;
  });
  for (const fileName of inlined) if (!namedElsewhere(bundle, fileName, page)) delete bundle[fileName];
  return inlined;
}

export function inlineStylesheets(pages: string[]): Plugin {
  return {
    name: 'verimark:inline-stylesheets',
    apply: 'build',
    // After Vite's HTML plugin has written the pages and their links.
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const page of pages) inlineInto(bundle, page);
    },
  };
}
