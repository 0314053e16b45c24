/**
 * CSV formula injection: a lead list whose cells start with `=`, `+`, `-`, `@`, TAB or CR, and
 * values the service writes itself (`mx_host` from DNS, `suggestion` from the local part), must
 * come back as text a spreadsheet will not run.
 */

import { RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';

const svc = useService();
const DANGEROUS = /^[=+\-@\t\r]/;

const HEADER = ['Name', 'Email', '=HYPERLINK("http://evil.test")', 'Score'];
const ROWS = [
  ['=1+1', `=1+1@gmial.com`, '+SUM(A1:A9)', '-5'],
  ['@SUM(1)', `ann@${D.formulaMx}`, '\t=cmd', '\r=2'],
  ['-2+3', `bob@${D.rejecting}`, `=cmd|' /C calc'!A0`, '+'],
  ['Plain', `carol@${D.rejecting}`, "'=already quoted", '5'],
];

describe('a file full of formulas', () => {
  it('comes back with every formula cell quoted with a leading apostrophe, added columns too', async () => {
    const csv = Papa.unparse([HEADER, ...ROWS], { newline: '\r\n' });
    const reply = await svc.api.upload(csv);
    expect(reply.status).toBe(200);
    const status = await svc.api.waitForFile(reply.body.data.file_id);
    expect(status.status).toBe('completed');
    const text = await (await fetch(status.download_url)).text();
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;

    const dangerous = rows.flat().filter((cell) => DANGEROUS.test(cell));
    console.log(`cells a spreadsheet would run: ${dangerous.length} of ${rows.flat().length}`);
    expect(dangerous).toEqual([]);

    const quoted = (cell: string) => (DANGEROUS.test(cell) ? `'${cell}` : cell);
    expect(rows[0]).toEqual([...HEADER.map(quoted), ...RESULT_COLUMNS]);
    expect(rows.slice(1).map((r) => r.slice(0, HEADER.length))).toEqual(ROWS.map((r) => r.map(quoted)));
    const col = (name: (typeof RESULT_COLUMNS)[number]) => HEADER.length + RESULT_COLUMNS.indexOf(name);
    expect(rows[1]?.[col('suggestion')]).toBe("'=1+1@gmail.com");
    expect(rows[2]?.[col('mx_host')]).toBe(`'=mx.${D.formulaMx}`);
    expect(rows[4]?.[2]).toBe("'=already quoted");
  });
});
