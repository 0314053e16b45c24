/**
 * The documents stand on their own in a clone: every relative link in README.md and docs/*.md
 * resolves to a file inside the repository, every file path cited in a comment or a document
 * names a file that exists (scripts/cited-paths.ts), and no tracked file points at a folder
 * outside it (such as the one the design documents once lived in; docs/design.md §6).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citations, hashComments, resolves, sourceComments, treeOf } from './cited-paths';

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

  it.each(documents())(
    '%s links only to files inside the repository',
    (doc) => {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const broken = linkTargets(text)
        .filter(isRelative)
        .filter((target) => {
          const path = resolve(ROOT, dirname(doc), decodeURIComponent(target.split('#')[0] ?? ''));
          return relative(ROOT, path).startsWith('..') || !existsSync(path);
        });
      expect(broken).toEqual([]);
    },
    60_000,
  );
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

/** The repository's files as they are in this checkout: tracked and new (not ignored), not deleted. */
function checkoutFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file && existsSync(join(ROOT, file)));
}

/** The texts of a file that may cite paths: its comments, or all of a Markdown document. */
function citingTexts(file: string, text: string): string[] {
  if (/\.(tsx?|mts|mjs|cjs|js)$/.test(file)) return sourceComments(text, file);
  // SOURCES.md files name the upstream files fixtures were copied from, in other repositories.
  if (file.endsWith('.md')) return file.endsWith('/SOURCES.md') ? [] : [text];
  if (/\.(ya?ml|sh)$|(^|\/)Dockerfile$/.test(file)) return hashComments(text);
  return [];
}

describe('paths cited in comments and documents', () => {
  const tree = treeOf(['lib/content/badge/sheet.ts', 'server/doctor.ts', 'server/store/sqlite/db.ts']);

  it('finds paths in comments only, not in strings, templates or regular expressions', () => {
    const code = [
      "const url = 'see lib/gone/a.ts';",
      'const t = `x %{`lib/gone/b.ts`} lib/gone/c.ts %{1}`; // the doctor (server/doctor.ts)',
      'const r = /lib\\/gone\\/d.ts/; /* badge/sheet.ts and server/admin-doctor.ts */',
      'const half = 1 / 2; // ./db.ts',
    ]
      .join('\n')
      .replaceAll('%{', '$' + '{');
    const cited = sourceComments(code, 'server/store/sqlite/x.ts').flatMap((c) => citations(c));
    expect(cited.map((c) => c.cited)).toEqual([
      'server/doctor.ts',
      'badge/sheet.ts',
      'server/admin-doctor.ts',
      './db.ts',
    ]);
    expect(cited.map((c) => resolves(c, 'server/store/sqlite/x.ts', tree))).toEqual([
      true,
      true,
      false,
      true,
    ]);
  });

  it('leaves URLs, absolute paths and build output aside, and checks bare script names', () => {
    const text =
      'https://x.test/lib/a.ts /opt/verimark/main.js server/dist/main.js .output/chrome-mv3/popup.html `db.ts` `gone.ts`';
    expect(citations(text).map((c) => c.cited)).toEqual(['db.ts', 'gone.ts']);
    expect(citations(text).map((c) => resolves(c, 'README.md', tree))).toEqual([true, false]);
    expect(hashComments('FROM x\n# see server/doctor.ts\nRUN echo # lib/x.ts')).toEqual([
      ' see server/doctor.ts',
      ' lib/x.ts',
    ]);
  });

  it('name files that exist, in every source comment and document', () => {
    const files = checkoutFiles();
    const checkout = treeOf(files);
    const broken = files.flatMap((file) =>
      citingTexts(file, readFileSync(join(ROOT, file), 'utf8')).flatMap((text) =>
        citations(text)
          .filter((c) => !resolves(c, file, checkout))
          .map((c) => `${file}: ${c.cited}`),
      ),
    );
    expect(broken).toEqual([]);
  }, 60_000);
});
