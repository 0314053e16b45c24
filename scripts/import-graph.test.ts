import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cycles,
  groupGraph,
  type ImportGraph,
  importGraph,
  importsOf,
  parse,
  valueReach,
} from './import-graph';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const graph = importGraph(ROOT, ['lib', 'components', 'entrypoints', 'contract/src', 'server']);
const isTest = (file: string) => /\.test\.tsx?$|\/testing\//.test(file);
const MARKING = 'entrypoints/content/index.ts';
const ON_DEMAND = 'entrypoints/popover.ts';

describe('the import graph walker', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'verimark-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('a.ts', "import { b } from './b';\nimport type { C } from '@/c';\nexport const a = b;\n");
  write('b.ts', "import { a } from './a';\nexport const b = 1;\nexport const ab = a;\n");
  write('c.ts', "import { type A, type B } from './d';\nexport type C = A | B;\n");
  write('d.ts', "import type { C } from './c';\nexport type A = C;\nexport type B = 1;\n");
  write('e.ts', "export { b } from './b';\nexport type { C } from './c';\nimport('./f');\n");
  write('f.ts', 'export const f = 1;\n');
  const small = importGraph(dir, ['.']);

  it('tells imports that carry values from those that carry only types', () => {
    expect(small.get('a.ts')).toEqual([
      { to: 'b.ts', value: true },
      { to: 'c.ts', value: false },
    ]);
    expect(small.get('c.ts')).toEqual([{ to: 'd.ts', value: false }]);
    expect(small.get('e.ts')).toEqual([
      { to: 'b.ts', value: true },
      { to: 'c.ts', value: false },
      { to: 'f.ts', value: true },
    ]);
  });

  it('finds cycles between folders', () => {
    const files: ImportGraph = new Map([
      ['x/a.ts', [{ to: 'y/b.ts', value: false }]],
      ['y/b.ts', []],
      ['y/c.ts', [{ to: 'x/a.ts', value: true }]],
      ['z/d.ts', [{ to: 'x/a.ts', value: true }]],
    ]);
    const folders = groupGraph(files, (file) => path.posix.dirname(file));
    expect(cycles(folders, () => true)).toEqual([['x', 'y']]);
    expect(
      cycles(
        groupGraph(files, (file) => (file === 'y/c.ts' ? null : path.posix.dirname(file))),
        () => true,
      ),
    ).toEqual([]);
  });

  it('finds value cycles apart from type-only ones', () => {
    expect(cycles(small, (edge) => edge.value)).toEqual([['a.ts', 'b.ts']]);
    expect(cycles(small, () => true)).toEqual(expect.arrayContaining([['c.ts', 'd.ts']]));
    expect([...valueReach(small, 'e.ts')].sort()).toEqual(['a.ts', 'b.ts', 'e.ts', 'f.ts']);
  });
});

describe("the extension's rooms", () => {
  it('has no import cycle that carries values, and no cycle of types across folders', () => {
    expect(cycles(graph, (edge) => edge.value)).toEqual([]);
    const acrossFolders = cycles(graph, () => true).filter(
      (group) => new Set(group.map((file) => path.posix.dirname(file))).size > 1,
    );
    expect(acrossFolders).toEqual([]);
  });

  it('keeps lib/shared free of every context: it imports only lib/shared and packages', () => {
    const outside = [...graph]
      .filter(([file]) => file.startsWith('lib/shared/') && !isTest(file))
      .flatMap(([file, edges]) =>
        edges.filter((edge) => !edge.to.startsWith('lib/shared/')).map((edge) => `${file} → ${edge.to}`),
      );
    expect(outside).toEqual([]);
  });

  it('gives the message protocols view types from a module that imports only the contract', () => {
    const specifiers = importsOf(parse(path.join(ROOT, 'lib/shared/views.ts'))).map((i) => i.specifier);
    expect(specifiers.every((specifier) => specifier === '@verimark/contract')).toBe(true);
    for (const protocol of ['lib/shared/messages.ts', 'lib/shared/page-messages.ts']) {
      expect(graph.get(protocol)?.map((edge) => edge.to)).toEqual(['lib/shared/views.ts']);
    }
  });

  it('lets the marking script import only types from lib/on-demand/', () => {
    const valueImports = [...graph]
      .filter(([file]) => !file.startsWith('lib/on-demand/') && file !== ON_DEMAND && !isTest(file))
      .flatMap(([file, edges]) =>
        edges
          .filter((edge) => edge.value && edge.to.startsWith('lib/on-demand/'))
          .map((edge) => `${file} → ${edge.to}`),
      );
    expect(valueImports).toEqual([]);
    expect([...valueReach(graph, MARKING)].filter((file) => file.startsWith('lib/on-demand/'))).toEqual([]);
  });

  it('keeps in lib/on-demand/ exactly the modules only the on-demand script (popover.js) carries', () => {
    const marking = valueReach(graph, MARKING);
    const onDemandOnly = [...valueReach(graph, ON_DEMAND)].filter(
      (file) => !marking.has(file) && file !== ON_DEMAND,
    );
    const housed = [...graph.keys()].filter((file) => file.startsWith('lib/on-demand/') && !isTest(file));
    expect(onDemandOnly.sort()).toEqual(housed.sort());
  });

  it('keeps in lib/content/ only modules the marking script carries', () => {
    const marking = valueReach(graph, MARKING);
    // WXT's content-script context is swapped for this one by the build (scripts/page-scripts-browser.ts), not by an import.
    const byAlias = 'lib/content/extension/context.ts';
    const notCarried = [...graph.keys()].filter(
      (file) => file.startsWith('lib/content/') && !isTest(file) && !marking.has(file) && file !== byAlias,
    );
    expect(notCarried).toEqual([]);
  });
});

/**
 * The service's folder of a module (docs/development.md, "Where things live"): `server/app/`,
 * `server/store/` (with `sqlite/` and `postgres/`), …; a module at server/'s top (`config.ts`,
 * `main.ts`, …) stands alone. Tests and `testing/` helpers, which may reach anywhere, are left out.
 */
function serviceFolder(file: string): string | null {
  if (!file.startsWith('server/') || isTest(file)) return null;
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file;
}

describe("the service's folders", () => {
  it('depend on one another in one direction only: no cycle between server/ folders, types included', () => {
    const folders = groupGraph(graph, serviceFolder);
    expect([...folders.keys()]).toEqual(
      expect.arrayContaining(['server/app/', 'server/csv/', 'server/jobs/']),
    );
    expect(cycles(folders, () => true)).toEqual([]);
  });
});
