import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { filterResults, NoVerdictColumnError, previewRows } from './results-subset';

const RESULTS = [
  'Name,Email,Phone,verification_status,verification_reason,suggestion',
  'Ada,ada@deliverable.test,1,deliverable,accepted_email,',
  'Bob,bob@undeliverable.test,2,undeliverable,rejected_email,',
  '"Cy, Jr.",cy@risky.test,3,risky,catch_all,',
  "Dee,dee@unknown.test,'=1+1,unknown,smtp_timeout,",
  'Eve,eve@gmial.com,5,undeliverable,invalid_domain,eve@gmail.com',
].join('\r\n');

const rowsOf = async (source: string, subset: Parameters<typeof filterResults>[1]) => {
  const { parts, rows } = await filterResults(source, subset);
  const parsed = Papa.parse<string[]>(parts.join(''), { skipEmptyLines: 'greedy' }).data;
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
    const { parts } = await filterResults(other, 'deliverable');
    const text = parts.join('');
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

describe('previewRows', () => {
  it('gives the address, verdict and reason of the first rows', () => {
    expect(previewRows(RESULTS, 2).rows).toEqual([
      { email: 'ada@deliverable.test', status: 'deliverable', reason: 'accepted_email' },
      { email: 'bob@undeliverable.test', status: 'undeliverable', reason: 'rejected_email' },
    ]);
  });
});
