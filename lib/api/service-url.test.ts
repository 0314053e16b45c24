import { describe, expect, it } from 'vitest';
import { checkServiceUrl, originPattern } from './service-url';

describe('checkServiceUrl', () => {
  it('accepts https and strips the trailing slash, query and hash', () => {
    expect(checkServiceUrl(' https://Verify.Example.com/api/?x=1#h ')).toEqual({
      ok: true,
      url: 'https://verify.example.com/api',
      origin: 'https://verify.example.com',
      loopback: false,
    });
  });
  for (const url of ['http://localhost:8787', 'http://127.0.0.1:8787/', 'http://[::1]:8787']) {
    it(`accepts plain http to loopback: ${url}`, () =>
      expect(checkServiceUrl(url)).toMatchObject({ ok: true, loopback: true }));
  }
  for (const url of [
    'http://verify.example.com',
    'http://10.0.0.5',
    'ftp://example.com',
    'nonsense',
    '',
    'https://u:p@x.com',
  ]) {
    it(`refuses ${JSON.stringify(url)}`, () => expect(checkServiceUrl(url).ok).toBe(false));
  }
  it('builds the host permission pattern of an origin', () => {
    expect(originPattern('http://127.0.0.1:8787')).toBe('http://127.0.0.1/*');
  });
});
