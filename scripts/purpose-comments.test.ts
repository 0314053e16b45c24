/**
 * Every file of the service (server/, sources, tests and test helpers alike) opens with a comment
 * saying what it is for, as the rest of the house does (docs/development.md, "House style"): the
 * first thing in it, after a `#!` line, is a comment of a few words at least.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Fewer words than this is a label, not a purpose. */
const MIN_WORDS = 4;

/** The opening comment of a source (after a `#!` line), or null when it opens with code. */
function openingComment(text: string): string | null {
  const body = text.replace(/^#![^\n]*\n/, '').trimStart();
  const block = /^\/\*([\s\S]*?)\*\//.exec(body);
  if (block) return block[1] ?? '';
  const lines = /^(?:\/\/[^\n]*(?:\n|$))+/.exec(body);
  return lines ? lines[0].replace(/^\/\/ ?/gm, '') : null;
}

function hasPurpose(text: string): boolean {
  const comment = openingComment(text);
  return (
    comment !== null &&
    comment
      .replace(/[*\s]+/g, ' ')
      .trim()
      .split(' ').length >= MIN_WORDS
  );
}

function serviceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return serviceFiles(full);
    return /\.(ts|mjs)$/.test(name) ? [full] : [];
  });
}

describe('purpose comments', () => {
  it('are the first thing in a file, after a #! line', () => {
    expect(hasPurpose('/**\n * What this module is for.\n */\nimport x from "y";')).toBe(true);
    expect(hasPurpose('#!/usr/bin/env node\n// Builds the service into dist/.\nimport a from "b";')).toBe(
      true,
    );
    expect(hasPurpose('import x from "y";\n/** What this module is for. */\nexport const z = x;')).toBe(
      false,
    );
    expect(hasPurpose('/** Todo. */\nexport {};')).toBe(false);
  });

  it('open every file of the service', () => {
    const files = serviceFiles(join(ROOT, 'server'));
    expect(files.length).toBeGreaterThan(100);
    const without = files
      .filter((file) => !hasPurpose(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(without).toEqual([]);
  });
});
