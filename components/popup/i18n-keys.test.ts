/** Every string the popup asks for exists in _locales/en, and placeholders are declared. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_STATES, MODES, REASONS, VERDICTS } from '@/lib/api/contract';
import messages from '@/public/_locales/en/messages.json';
import { CHECK_KEYS } from './verify/verdict-text';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const catalog = messages as Record<string, Entry>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [path] : [];
  });
}

const literalKeys = sources(__dirname).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_]+)'/g)].map((m) => m[1] ?? ''),
);

const templated = [
  ...CHECK_KEYS.map((k) => `popup_check_${k}`),
  ...VERDICTS.map((k) => `popup_count_${k}`),
  ...MODES.map((k) => `popup_mode_${k}`),
  ...['uploading', 'queued', 'processing', 'completed', 'failed'].map((k) => `popup_phase_${k}`),
  ...['empty', 'binary', 'encoding', 'too_large', 'no_header', 'no_rows', 'failed'].map(
    (k) => `popup_preflight_${k}`,
  ),
  ...REASONS.map((k) => `popup_reason_${k}`),
  ...FILE_STATES.map((k) => `popup_state_${k}`),
  ...[...VERDICTS, 'pending', 'invalid', 'error'].map((k) => `popup_status_${k}`),
];

describe('popup strings', () => {
  it('finds the literal keys in the sources', () => {
    expect(literalKeys.length).toBeGreaterThan(40);
  });

  it.each([...new Set([...literalKeys, ...templated])])('%s is in _locales/en', (key) => {
    expect(catalog[key]?.message).toBeTruthy();
  });

  it('declares a placeholder for every $NAME$ in popup messages', () => {
    for (const [key, entry] of Object.entries(catalog)) {
      if (!key.startsWith('popup_')) continue;
      for (const [, name] of entry.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)) {
        expect(entry.placeholders?.[(name ?? '').toLowerCase()], `${key}: $${name}$`).toBeDefined();
      }
    }
  });
});
