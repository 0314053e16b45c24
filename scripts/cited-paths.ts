// Paths of repository files that comments and documents cite (`server/store/retention.ts`, or
// `badge/sheet.ts` for lib/content/badge/sheet.ts), found so that a test can check each exists: the
// comments of source files (read with the TypeScript scanner, so strings and code are left
// aside), the `#` comments of YAML, shell and Dockerfiles, and the whole text of Markdown.
import path from 'node:path';
import ts from 'typescript';

/** A path as cited: at least one `/`, a file name with a known extension, not part of a URL or an absolute path. */
const CITED_FILE =
  /(?<![\w.@/~$%-])((?:\.\.?\/)*(?:[A-Za-z0-9_][\w.-]*\/)*[A-Za-z0-9_][\w.-]*\.(?:tsx?|mts|mjs|cjs|js|json|md|ya?ml|html|css|sh|png|svg))(?![\w/-])/g;
/** A bare TypeScript or script file name (`poll-alarm.ts`): it must name some file in the repository. */
const CITED_NAME = /(?<![\w.@/~$%-])([A-Za-z0-9_][\w-]*(?:\.[\w-]+)*\.(?:tsx?|mts|mjs))(?![\w/.-])/g;
/**
 * Folders of what a build or a run makes, not sources (the service's `dist/`, the extension's
 * `.output/<browser>/` with its `chunks/` and `content-scripts/`): their paths are not in the tree.
 */
const MADE =
  /(?:^|\/)(?:dist|\.output|\.wxt|chrome-mv3|firefox-mv2|chunks|content-scripts|test-results|node_modules|\.data)(?:\/|$)/;

export interface Citation {
  /** As written, e.g. `./import-graph.ts` or `badge/sheet.ts`. */
  cited: string;
  /** Whether it has a `/` (a path) or is a bare file name. */
  kind: 'path' | 'name';
}

/**
 * The text of every comment of a TypeScript or JavaScript source, token by token with the
 * TypeScript scanner (a full parse of every file costs seconds): a template literal's text is
 * scanned again as template text after each `}` that closes one of its expressions, and a `/`
 * where a value may start is scanned again as a regular expression.
 */
export function sourceComments(text: string, fileName: string): string[] {
  const variant = /\.[jt]sx$/.test(fileName) ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, variant, text);
  const out: string[] = [];
  /** Open braces per template expression we are in (a `}` at depth 0 ends the expression). */
  const templates: number[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      out.push(scanner.getTokenText());
      continue;
    }
    if (token === ts.SyntaxKind.NewLineTrivia || token === ts.SyntaxKind.WhitespaceTrivia) continue;
    if (
      (token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) &&
      startsValue(previous)
    ) {
      token = scanner.reScanSlashToken();
    } else if (token === ts.SyntaxKind.TemplateHead) {
      templates.push(0);
    } else if (token === ts.SyntaxKind.OpenBraceToken && templates.length > 0) {
      templates.push((templates.pop() ?? 0) + 1);
    } else if (token === ts.SyntaxKind.CloseBraceToken && templates.length > 0) {
      const depth = templates.pop() ?? 0;
      if (depth === 0) {
        token = scanner.reScanTemplateToken(false);
        if (token !== ts.SyntaxKind.TemplateTail) templates.push(0);
      } else {
        templates.push(depth - 1);
      }
    }
    previous = token;
  }
  return out;
}

/** Whether a `/` after this token starts a value (a regular expression) rather than dividing. */
function startsValue(previous: ts.SyntaxKind): boolean {
  return !(
    previous === ts.SyntaxKind.Identifier ||
    previous === ts.SyntaxKind.NumericLiteral ||
    previous === ts.SyntaxKind.StringLiteral ||
    previous === ts.SyntaxKind.CloseParenToken ||
    previous === ts.SyntaxKind.CloseBracketToken ||
    previous === ts.SyntaxKind.CloseBraceToken ||
    previous === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
    previous === ts.SyntaxKind.TemplateTail ||
    previous === ts.SyntaxKind.RegularExpressionLiteral ||
    previous === ts.SyntaxKind.ThisKeyword ||
    previous === ts.SyntaxKind.PlusPlusToken ||
    previous === ts.SyntaxKind.MinusMinusToken
  );
}

/** `#` comments of a YAML, shell or Dockerfile text. */
export function hashComments(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /(?:^|\s)#(?!!)(.*)$/.exec(line)?.[1] ?? '')
    .filter(Boolean);
}

/** The paths and bare script names a text cites, leaving out what builds and runs make. */
export function citations(text: string): Citation[] {
  const paths = [...text.matchAll(CITED_FILE)].map((m) => m[1] ?? '').filter((p) => p.includes('/'));
  const names = [...text.matchAll(CITED_NAME)].map((m) => m[1] ?? '');
  return [
    ...paths.filter((p) => !MADE.test(p)).map((cited) => ({ cited, kind: 'path' as const })),
    ...names.map((cited) => ({ cited, kind: 'name' as const })),
  ];
}

/**
 * Whether a citation from `file` names something in `tree` (repository-relative paths of files,
 * `/`-separated): relative to the citing file's folder, to the repository's root, or as
 * the tail of a tracked path (`badge/sheet.ts` for `lib/content/badge/sheet.ts`); a bare name as
 * the name of any tracked file.
 */
export function resolves(citation: Citation, file: string, tree: Tree): boolean {
  const { cited } = citation;
  if (citation.kind === 'name') return tree.tails.has(cited);
  const fromFile = path.posix.normalize(path.posix.join(path.posix.dirname(file), cited));
  if (tree.files.has(fromFile) || tree.files.has(path.posix.normalize(cited))) return true;
  return !cited.startsWith('.') && tree.tails.has(cited);
}

/** The repository's files, and every tail of their paths (`sheet.ts`, `badge/sheet.ts`, …). */
export interface Tree {
  files: ReadonlySet<string>;
  tails: ReadonlySet<string>;
}

export function treeOf(files: Iterable<string>): Tree {
  const all = new Set(files);
  const tails = new Set<string>();
  for (const file of all) {
    const parts = file.split('/');
    for (let i = 0; i < parts.length; i++) tails.add(parts.slice(i).join('/'));
  }
  return { files: all, tails };
}
