import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvBlocks, filterResults, NoVerdictColumnError, previewRows } from './results-subset';

const RESULTS = [
  'Name,Email,Phone,verification_status,verification_reason,suggestion',
  'Ada,ada@deliverable.test,1,deliverable,accepted_email,',
  'Bob,bob@undeliverable.test,2,undeliverable,rejected_email,',
  '"Cy, Jr.",cy@risky.test,3,risky,catch_all,',
  "Dee,dee@unknown.test,'=1+1,unknown,smtp_timeout,",
  'Eve,eve@gmial.com,5,undeliverable,invalid_domain,eve@gmail.com',
].join('\r\n');

const rowsOf = async (source: string, subset: Parameters<typeof filterResults>[1]) => {
  const { blob, rows } = await filterResults(source, subset);
  const parsed = Papa.parse<string[]>(await blob.text(), { skipEmptyLines: 'greedy' }).data;
  return { rows, parsed };
};

describe('filterResults', () => {
  it('keeps the header and only the rows of the chosen verdicts, cells unchanged', async () => {
    const deliverable = await rowsOf(RESULTS, 'deliverable');
    expect(deliverable.rows).toBe(1);
    expect(deliverable.parsed.map((r) => r[0])).toEqual(['Name', 'Ada']);

    const withRisky = await rowsOf(RESULTS, 'deliverable_and_risky');
    expect(withRisky.parsed.map((r) => r[0])).toEqual(['Name', 'Ada', 'Cy, Jr.']);

    const undeliverable = await rowsOf(RESULTS, 'undeliverable');
    expect(undeliverable.parsed.map((r) => r[1])).toEqual([
      'Email',
      'bob@undeliverable.test',
      'eve@gmial.com',
    ]);
    expect(undeliverable.parsed[2]).toEqual([
      'Eve',
      'eve@gmial.com',
      '5',
      'undeliverable',
      'invalid_domain',
      'eve@gmail.com',
    ]);
  });

  it('reads another service’s words for the verdict (valid, invalid, catch-all)', async () => {
    const other = ['email,result', 'a@x.test,valid', 'b@x.test,invalid', 'c@x.test,catch-all'].join('\n');
    expect((await rowsOf(other, 'deliverable_and_risky')).parsed.map((r) => r[0])).toEqual([
      'email',
      'a@x.test',
      'c@x.test',
    ]);
  });

  it('streams a file larger than one chunk and counts every row', async () => {
    const lines = ['Email,verification_status'];
    for (let i = 0; i < 30_000; i++) lines.push(`user${i}@x.test,${i % 3 === 0 ? 'deliverable' : 'unknown'}`);
    const { rows, parsed } = await rowsOf(lines.join('\n'), 'deliverable');
    expect(rows).toBe(10_000);
    expect(parsed).toHaveLength(10_001);
    expect(parsed[10_000]).toEqual(['user29997@x.test', 'deliverable']);
  });

  it("writes cells by the service's formula rule: phones and negatives as they are, formulas neutralised, ; and TAB quoted", async () => {
    const other = [
      'email,phone,note,balance,status',
      `a@x.test,+1 415 555 0101,"=HYPERLINK(""http://evil.test"",""x"")",-5,valid`,
      `b@x.test,+44 (0)20 7946 0958,"x;=2+5+cmd|' /C calc'!A0",'=1+1,valid`,
      'c@x.test,"-2	=A1",@SUM(A1),-,valid',
    ].join('\r\n');
    const { blob } = await filterResults(other, 'deliverable');
    const text = await blob.text();
    const lines = text.split('\r\n');
    expect(lines[1]).toBe(`a@x.test,+1 415 555 0101,"'=HYPERLINK(""http://evil.test"",""x"")",-5,valid`);
    expect(lines[2]).toBe(`b@x.test,+44 (0)20 7946 0958,"x;=2+5+cmd|' /C calc'!A0",'=1+1,valid`);
    expect(lines[3]).toBe(`c@x.test,"'-2	=A1",'@SUM(A1),-,valid`);
  });

  it('refuses results without a verdict column', async () => {
    await expect(filterResults('Name,Email\nAda,a@x.test\n', 'deliverable')).rejects.toBeInstanceOf(
      NoVerdictColumnError,
    );
  });
});

/** A byte stream of `text` in pieces of `size` bytes (cutting through characters and records). */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function* pieces(list: string[]) {
  yield* list;
}

describe('streaming', () => {
  it('cuts blocks only at line feeds outside quotes', async () => {
    const blocks: string[] = [];
    for await (const block of csvBlocks(pieces(['a,"x\ny', '""z",1\nb,', '2\n', 'c,3']), 1))
      blocks.push(block);
    expect(blocks).toEqual(['a,"x\ny""z",1\n', 'b,2\n', 'c,3']);
  });

  it('reads a byte stream cut through characters and quoted line breaks, rows unchanged', async () => {
    const lines = ['\uFEFFName,Email,verification_status'];
    for (let i = 0; i < 20_000; i++) {
      const name = i % 7 === 0 ? `"Zoë ""${i}""\nsecond line"` : `Zoë ${i}`;
      lines.push(`${name},z${i}@x.test,${i % 4 === 0 ? 'deliverable' : 'risky'}`);
    }
    const text = `${lines.join('\r\n')}\r\n`;
    const { blob, rows } = await filterResults(streamOf(text, 4093), 'deliverable');
    expect(rows).toBe(5_000);
    const parsed = Papa.parse<string[]>(await blob.text(), { skipEmptyLines: 'greedy' }).data;
    expect(parsed[0]).toEqual(['Name', 'Email', 'verification_status']);
    expect(parsed).toHaveLength(5_001);
    expect(parsed[1]).toEqual(['Zoë "0"\nsecond line', 'z0@x.test', 'deliverable']);
    expect(parsed[2]).toEqual(['Zoë 4', 'z4@x.test', 'deliverable']);
    expect(parsed[5_000]?.[1]).toBe('z19996@x.test');
  });

  it('stops reading a stream without a verdict column', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode(`Name,Email\n${'Ada,a@x.test\n'.repeat(30_000)}`));
      },
    });
    await expect(filterResults(body, 'deliverable')).rejects.toBeInstanceOf(NoVerdictColumnError);
    expect(pulls).toBeLessThan(5);
  });
});

describe('previewRows', () => {
  it('gives the address, verdict and reason of the first rows', () => {
    expect(previewRows(RESULTS, 2).rows).toEqual([
      { email: 'ada@deliverable.test', status: 'deliverable', reason: 'accepted_email' },
      { email: 'bob@undeliverable.test', status: 'undeliverable', reason: 'rejected_email' },
    ]);
  });
});
