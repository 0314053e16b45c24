/**
 * One rulebook in bulk too (docs/design.md §3): a CSV cell is judged exactly as
 * `POST /verify/single` judges the same text. The shared address cases and a syntax corpus go
 * through both, against the real service, and every address must get the same verdict.
 */

import { ADDRESS_CASES } from '@verimark/contract/testing/address-cases';
import pLimit from 'p-limit';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';
import { SYNTAX_CORPUS } from '../testing/syntax-corpus';

const svc = useService({ env: { RATE_LIMIT_PER_MIN: '100000' } });
const MODE = 'non_catch_all';

/** Every non-blank input of both tables, once; `/verify/single` takes up to 1,024 characters. */
const CORPUS = [...new Set([...ADDRESS_CASES.map((c) => c.input), ...SYNTAX_CORPUS])].filter(
  (input) => input.trim() !== '' && input.length <= 1024,
);

describe('bulk and single judge every address alike', () => {
  it('holds cells with CR, LF or NUL around the address, and emoji domains', () => {
    expect(CORPUS).toContain('test@iana.org\r\n');
    expect(CORPUS.some((a) => a.includes('\u0000'))).toBe(true);
    expect(CORPUS).toContain('test@😆😆😆.org');
    expect(CORPUS.length).toBeGreaterThan(400);
  });

  it('gives the same verdict through a CSV upload as through /verify/single', async () => {
    const limit = pLimit(16);
    const single = await Promise.all(
      CORPUS.map((email) =>
        limit(async () => {
          const r = await svc.api.verifyNow(email, MODE);
          return `${r.status}/${r.reason}`;
        }),
      ),
    );

    const csv = Papa.unparse([['Id', 'Email'], ...CORPUS.map((email, i) => [String(i), email])], {
      newline: '\r\n',
    });
    const upload = await svc.api.upload(csv, { mode: MODE });
    expect(upload.status).toBe(200);
    const status = await svc.api.waitForFile(upload.body.data.file_id, 120_000);
    expect(status.status).toBe('completed');
    const text = await (await fetch(status.download_url)).text();
    const [header = [], ...rows] = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    const at = (name: string) => header.indexOf(name);
    const bulk = new Map(
      rows.map((r) => [
        Number(r[at('Id')]),
        `${r[at('verification_status')]}/${r[at('verification_reason')]}`,
      ]),
    );

    const differ = CORPUS.flatMap((email, i) =>
      bulk.get(i) === single[i] ? [] : [{ email, single: single[i], bulk: bulk.get(i) }],
    );
    console.log(`${differ.length} of ${CORPUS.length} addresses judged differently`);
    expect(differ).toEqual([]);
    expect(single.filter((v) => v === 'undeliverable/invalid_syntax').length).toBeGreaterThan(100);
    expect(single.some((v) => v === 'deliverable/accepted_email')).toBe(true);
    expect(single[CORPUS.indexOf('test@😆😆😆.org')]).not.toBe('undeliverable/invalid_syntax');
  }, 240_000);
});
