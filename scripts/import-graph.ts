// The extension's import graph, read with the TypeScript parser: which module imports which, and
// whether an import carries values (it stays in the built script) or only types (the build erases it).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Repository-relative path of the imported module. */
  to: string;
  /** False for `import type`, `export type … from` and imports whose every name is a type. */
  value: boolean;
}

/** Module path (repository-relative, `/`-separated) → what it imports from inside the repository. */
export type ImportGraph = Map<string, ImportEdge[]>;

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

const SKIPPED = new Set(['node_modules', 'dist', '.output', '.wxt', '.data']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(full).isDirectory()) return tsFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** A specifier's file, or undefined for packages (`@verimark/contract`, `preact`, …). */
function resolve(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('@/') || specifier.startsWith('~/'))
    base = path.join(root, specifier.slice(2));
  else return undefined;
  if (/\.tsx?$/.test(base) && existsSync(base)) return base;
  const found = EXTENSIONS.map((ext) => base + ext).find((candidate) => existsSync(candidate));
  return found;
}

/** What a module imports: each specifier as written, and whether it carries values. */
export function importsOf(source: ts.SourceFile): { specifier: string; value: boolean }[] {
  const out: { specifier: string; value: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, value: !typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      out.push({ specifier: node.moduleSpecifier.text, value: !typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ specifier: node.arguments[0].text, value: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

export function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The graph of every .ts/.tsx file under `dirs` (relative to `root`), tests included. */
export function importGraph(root: string, dirs: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  for (const dir of dirs) {
    for (const file of tsFiles(path.join(root, dir))) {
      const source = parse(file);
      const edges: ImportEdge[] = [];
      for (const { specifier, value } of importsOf(source)) {
        const target = resolve(root, file, specifier);
        if (target !== undefined) edges.push({ to: rel(target), value });
      }
      graph.set(rel(file), edges);
    }
  }
  return graph;
}

/** Every module reachable from `start` through imports that carry values (`start` included). */
export function valueReach(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of graph.get(file) ?? []) if (edge.value) stack.push(edge.to);
  }
  return seen;
}

/** Groups of modules that import one another in a circle (Tarjan's strongly connected components). */
export function cycles(graph: ImportGraph, carries: (edge: ImportEdge) => boolean): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const edge of (graph.get(file) ?? []).filter(carries)) {
      if (!index.has(edge.to)) {
        connect(edge.to);
        low.set(file, Math.min(low.get(file)!, low.get(edge.to)!));
      } else if (onStack.has(edge.to)) {
        low.set(file, Math.min(low.get(file)!, index.get(edge.to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const selfLoop = (graph.get(file) ?? []).some((edge) => carries(edge) && edge.to === file);
    if (group.length > 1 || selfLoop) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

/**
 * The graph between groups of modules: `groupOf` names each module's group (e.g. its folder), or
 * null to leave the module out; an edge between two groups for each import across them.
 */
export function groupGraph(graph: ImportGraph, groupOf: (file: string) => string | null): ImportGraph {
  const groups: ImportGraph = new Map();
  for (const [file, edges] of graph) {
    const from = groupOf(file);
    if (from === null) continue;
    const out = groups.get(from) ?? [];
    groups.set(from, out);
    for (const edge of edges) {
      const to = groupOf(edge.to);
      if (to === null || to === from || out.some((e) => e.to === to && e.value === edge.value)) continue;
      out.push({ to, value: edge.value });
    }
  }
  return groups;
}
