import { MAX_UPLOAD_BYTES } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { preflight } from './preflight';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('preflight', () => {
  it('summarizes a CSV: headers, preview, credits per column and the email column', () => {
    const csv = 'Name,Work address,Phone\nAda,ada@example.com,1\nBob,,2\nCy,cy@example.org,\n\n';
    const result = preflight(utf8(csv));
    expect(result).toEqual({
      ok: true,
      headers: ['Name', 'Work address', 'Phone'],
      preview: [
        ['Ada', 'ada@example.com', '1'],
        ['Bob', '', '2'],
        ['Cy', 'cy@example.org', ''],
      ],
      rowCount: 3,
      nonEmpty: [3, 2, 2],
      emailLike: [0, 2, 0],
      sampledNonEmpty: [3, 2, 2],
      emailColumn: 1,
    });
  });

  it('strips a UTF-8 BOM so the first header is Email', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Email,Name\na@example.com,A\n')]);
    const result = preflight(bytes);
    expect(result.ok && result.headers[0]).toBe('Email');
    expect(result.ok && result.emailColumn).toBe(0);
  });

  it('handles quoted fields with commas and newlines', () => {
    const result = preflight(utf8('"Name, full",email\n"Lovelace,\nAda",ada@example.com\n'));
    expect(result.ok && result.nonEmpty).toEqual([1, 1]);
    expect(result.ok && result.emailColumn).toBe(1);
  });

  it.each([
    ['an empty file', new Uint8Array(), 'empty'],
    ['whitespace only', utf8('  \n\n '), 'empty'],
    ['a header without rows', utf8('Email,Name\n'), 'no_rows'],
    ['a file without a header', utf8('ada@example.com,Ada\nbob@example.com,Bob\n'), 'no_header'],
    ['binary content', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]), 'binary'],
    [
      'Windows-1252 text',
      new Uint8Array([...utf8('Name,Email\nJos'), 0xe9, ...utf8(',j@example.com\n')]),
      'encoding',
    ],
    ['UTF-16 text', new Uint8Array([0xff, 0xfe, 0x45, 0x00, 0x6d, 0x00]), 'encoding'],
  ])('refuses %s', (_name, bytes, error) => {
    expect(preflight(bytes)).toEqual({ ok: false, error });
  });

  it('refuses a file over 25MB', () => {
    expect(preflight(new Uint8Array(MAX_UPLOAD_BYTES + 1))).toEqual({ ok: false, error: 'too_large' });
  });
});
