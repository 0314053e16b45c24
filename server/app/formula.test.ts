/**
 * CSV formula injection (docs/design.md §3): a lead list whose cells start with `=`, `+`, `-`,
 * `@`, TAB or CR and hold more than a number, and values the service writes itself (`mx_host`
 * from DNS, `suggestion` from the local part), come back as text a spreadsheet will not run;
 * phone numbers and negative numbers come back byte for byte; a cell holding `;` or TAB is
 * quoted, so Excel in a semicolon locale does not split it.
 */

import { RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';

const svc = useService();

const HEADER = ['Name', 'Email', '=HYPERLINK("http://evil.test")', 'Score'];
const ROWS = [
  ['=1+1', `=1+1@gmial.com`, '+SUM(A1:A9)', '-5'],
  ['@SUM(1)', `ann@${D.formulaMx}`, '\t=cmd', '\r=2'],
  ['-2+3', `bob@${D.rejecting}`, `=cmd|' /C calc'!A0`, '+'],
  ['Plain', `carol@${D.rejecting}`, "'=already quoted", '5'],
  ['+1 415 555 0101', `dan@${D.rejecting}`, "x;=2+5+cmd|' /C calc'!A0", '+44 (0)20 7946 0958'],
  ['=HYPERLINK("http://evil.test","click")', `eve@${D.rejecting}`, 'a\tb', '-3.25'],
];
/** What comes back in the original columns, cell for cell. */
const EXPECTED = [
  ["'=1+1", `'=1+1@gmial.com`, "'+SUM(A1:A9)", '-5'],
  ["'@SUM(1)", `ann@${D.formulaMx}`, "'\t=cmd", "'\r=2"],
  ['-2+3', `bob@${D.rejecting}`, `'=cmd|' /C calc'!A0`, '+'],
  ['Plain', `carol@${D.rejecting}`, "'=already quoted", '5'],
  ['+1 415 555 0101', `dan@${D.rejecting}`, "x;=2+5+cmd|' /C calc'!A0", '+44 (0)20 7946 0958'],
  [`'=HYPERLINK("http://evil.test","click")`, `eve@${D.rejecting}`, 'a\tb', '-3.25'],
];

describe('a file full of formulas', () => {
  it('comes back with formula cells neutralised, numbers as they were, ; and TAB cells quoted', async () => {
    const csv = Papa.unparse([HEADER, ...ROWS], { newline: '\r\n' });
    const reply = await svc.api.upload(csv);
    expect(reply.status).toBe(200);
    const status = await svc.api.waitForFile(reply.body.data.file_id);
    expect(status.status).toBe('completed');
    const text = await (await fetch(status.download_url)).text();
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true, delimiter: ',' }).data;

    expect(rows[0]).toEqual(['Name', 'Email', `'=HYPERLINK("http://evil.test")`, 'Score', ...RESULT_COLUMNS]);
    expect(rows.slice(1).map((r) => r.slice(0, HEADER.length))).toEqual(EXPECTED);
    const col = (name: (typeof RESULT_COLUMNS)[number]) => HEADER.length + RESULT_COLUMNS.indexOf(name);
    expect(rows[1]?.[col('suggestion')]).toBe("'=1+1@gmail.com");
    expect(rows[2]?.[col('mx_host')]).toBe(`'=mx.${D.formulaMx}`);

    // Byte for byte in the file itself: the phone number unquoted and unchanged, the cells with
    // `;` or TAB between quotes.
    const lines = text.split('\r\n');
    expect(lines[5]).toMatch(/^\+1 415 555 0101,dan@/);
    expect(lines[5]).toContain(`,"x;=2+5+cmd|' /C calc'!A0",+44 (0)20 7946 0958,`);
    expect(lines[6]).toContain(`,"a\tb",-3.25,`);
    expect(lines[2]).toContain(`,"'\t=cmd",`);
  });
});
