/**
 * The documents stand on their own in a clone: every relative link in README.md and docs/*.md
 * resolves to a file inside the repository, and no tracked file points at a folder outside it
 * (such as the one the design documents once lived in; docs/design.md §6).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Markdown link targets: `[text](target)` and `[text](target "title")`, outside code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '``');
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

/** A target that names a file in this repository (not a URL, not an anchor of the same page). */
function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#');
}

function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs];
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

describe('relative links in README.md and docs/', () => {
  it('finds the links of a markdown text, leaving code and URLs aside', () => {
    const text =
      'See [a](docs/a.md#x), [b](<b c.md>), [u](https://x.test) and `[no](code.md)`.\n```\n[no](z.md)\n```';
    expect(linkTargets(text).filter(isRelative)).toEqual(['docs/a.md#x']);
  });

  it.each(documents())('%s links only to files inside the repository', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const broken = linkTargets(text)
      .filter(isRelative)
      .filter((target) => {
        const path = resolve(ROOT, dirname(doc), decodeURIComponent(target.split('#')[0] ?? ''));
        return relative(ROOT, path).startsWith('..') || !existsSync(path);
      });
    expect(broken).toEqual([]);
  });
});

/**
 * Any relative path through a folder named `shared` (spelled in pieces so this file does not match
 * itself): the outside folder the design documents once lived in. Code imports `lib/shared/` as
 * `@/lib/shared/…`, so no tracked file needs the relative spelling, and a plain
 * `git grep` for it stays empty.
 */
const UP_TO_SHARED = new RegExp(`(?:\\.\\./)+${'sha'}red\\b`, 'g');
function outsidePaths(text: string): string[] {
  return [...text.matchAll(UP_TO_SHARED)].map((m) => m[0]);
}

describe('tracked files', () => {
  it('finds a relative path through shared, however deep', () => {
    const up = '..' + '/';
    expect(outsidePaths(`see ${up}${'sha'}red/api-spec.md`)).toEqual([`${up}${'sha'}red`]);
    expect(outsidePaths(`from '${up.repeat(3)}${'sha'}red/x'`)).toEqual([`${up.repeat(3)}${'sha'}red`]);
    expect(outsidePaths("from '@/lib/shared/messages'")).toEqual([]);
  });

  it('name no path outside the repository and cite no outside design document', () => {
    // Spelled in pieces so that this file does not match itself.
    const outside = [['', 'work', 'shared'].join('/'), ['DESIGN', 'md'].join('.')];
    const offenders = trackedFiles()
      .filter((file) => existsSync(join(ROOT, file)) && !/\.(png|jpe?g|gif|ico|webp|woff2?|zip)$/i.test(file))
      .flatMap((file) => {
        const text = readFileSync(join(ROOT, file), 'utf8');
        const found = [...outside.filter((needle) => text.includes(needle)), ...outsidePaths(text)];
        return found.map((needle) => `${file}: ${needle}`);
      });
    expect(offenders).toEqual([]);
  });
});

/** The extension's code: every source file under these folders, tests and helpers included. */
const EXTENSION_CODE = ['lib', 'components', 'entrypoints', 'contract/src'];
const CITED_PATH =
  /(?<![\w@./-])((?:lib|components|entrypoints|contract|server|scripts|test|bench|docs|public)\/[\w.\-/]*[\w/])/g;

/** A file name cited alone (`poll-alarm.ts`), not as part of a path or a package name. */
const BARE_FILE = /(?<![\w@./-])([\w-]+\.(?:ts|tsx|mjs|md))\b/g;

/** The comments of a TypeScript text: line comments and block comments (a rough cut, without strings). */
function comments(source: string): string[] {
  const code = source.replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""');
  return [...code.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
}

/** Repository paths a comment cites (`lib/…`, `server/…`, `docs/…` and the like), without `#anchors`. */
function citedPaths(comment: string): string[] {
  return [...comment.matchAll(CITED_PATH)]
    .map((m) => (m[1] ?? '').replace(/[.]+$/, ''))
    .filter((cited) => !/[*{}<>]/.test(cited));
}

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe("paths cited in the extension's code comments", () => {
  it('finds the paths of a comment, leaving strings and package names aside', () => {
    const text = `const a = 'lib/not/a/comment.ts'; // see lib/api/http.ts and docs/design.md.\n/* @/lib/x.ts, server/app/ */`;
    expect(comments(text).flatMap(citedPaths)).toEqual(['lib/api/http.ts', 'docs/design.md', 'server/app/']);
  });

  it.each(EXTENSION_CODE)(
    '%s names only files that exist (a bare `name.ts` anywhere in the repository)',
    (folder) => {
      const names = new Set(trackedFiles().map((file) => file.split('/').pop()));
      const missing = sourceFiles(folder).flatMap((file) =>
        comments(readFileSync(join(ROOT, file), 'utf8'))
          .flatMap((comment) => [...comment.matchAll(BARE_FILE)].map((m) => m[1] ?? ''))
          .filter((name) => !names.has(name) && !existsSync(join(ROOT, dirname(file), name)))
          .map((name) => `${file}: ${name}`),
      );
      expect(missing).toEqual([]);
    },
  );

  it.each(EXTENSION_CODE)('%s cites only paths that exist', (folder) => {
    const missing = sourceFiles(folder).flatMap((file) =>
      comments(readFileSync(join(ROOT, file), 'utf8'))
        .flatMap(citedPaths)
        .filter((cited) => !existsSync(join(ROOT, cited)))
        .map((cited) => `${file}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });
});
