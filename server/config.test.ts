/**
 * Configuration checks: SMTP_PROXY's form and the start-up warnings about the HELO name.
 */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, heloWarnings, isFqdn, loadConfig } from './config';

describe('SMTP egress settings', () => {
  it("defaults SMTP_HELO to the machine's host name and SMTP_FROM to verify@ it", () => {
    const config = loadConfig({});
    expect(config.engine.heloName).toBe(hostname());
    expect(config.engine.mailFrom).toBe(`verify@${hostname()}`);
    expect(config.engine.smtpProxy).toBeNull();
  });

  it('accepts a socks5 SMTP_PROXY and refuses anything else', () => {
    expect(loadConfig({ SMTP_PROXY: 'socks5://u:p@127.0.0.1:1080' }).engine.smtpProxy).toBe(
      'socks5://u:p@127.0.0.1:1080',
    );
    expect(() => loadConfig({ SMTP_PROXY: 'http://127.0.0.1:8080' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_PROXY: 'socks5://127.0.0.1' })).toThrow(ConfigError);
  });
});

describe('HELO warnings', () => {
  const warn = (helo: string, host = '127.0.0.1') =>
    heloWarnings({ host, engine: { ...loadConfig({}).engine, heloName: helo } });

  it('says nothing for a fully qualified name', () => {
    expect(warn('mail.example.com', '0.0.0.0')).toEqual([]);
  });

  it('warns about a bare host name or an IP address', () => {
    expect(warn('vm')).toEqual([expect.stringContaining('not a fully qualified')]);
    expect(warn('192.0.2.7')).toEqual([expect.stringContaining('not a fully qualified')]);
  });

  it('warns about localhost when the service listens beyond loopback', () => {
    expect(warn('localhost', '0.0.0.0')).toEqual([
      expect.stringContaining('"localhost" while HOST is 0.0.0.0'),
    ]);
  });

  it('knows a fully qualified name', () => {
    expect(isFqdn('mx1.example.org')).toBe(true);
    expect(isFqdn('mx1.example.org.')).toBe(true);
    expect(isFqdn('localhost')).toBe(false);
    expect(isFqdn('bad_name.example.org')).toBe(false);
  });
});

describe('RETENTION_DAYS', () => {
  it('defaults to 30 days, takes a whole number (0 keeps everything) and refuses anything else', () => {
    expect(loadConfig({}).retentionDays).toBe(30);
    expect(loadConfig({ RETENTION_DAYS: '7' }).retentionDays).toBe(7);
    expect(loadConfig({ RETENTION_DAYS: '0' }).retentionDays).toBe(0);
    expect(() => loadConfig({ RETENTION_DAYS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ RETENTION_DAYS: 'forever' })).toThrow(ConfigError);
  });
});

describe('open-internet settings', () => {
  it('defaults VERIFY_DEADLINE_MS to 60 s and MAX_MX_HOSTS to 5, and reads them', () => {
    expect(loadConfig({}).engine).toMatchObject({ verifyDeadlineMs: 60_000, maxMxHosts: 5 });
    const set = loadConfig({ VERIFY_DEADLINE_MS: '2500', MAX_MX_HOSTS: '2' }).engine;
    expect(set).toMatchObject({ verifyDeadlineMs: 2500, maxMxHosts: 2 });
    expect(() => loadConfig({ MAX_MX_HOSTS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ VERIFY_DEADLINE_MS: 'soon' })).toThrow(ConfigError);
  });

  it('trusts no proxy unless TRUST_PROXY names them', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    }
  });

  it('refuses TRUST_PROXY=true and hop counts, saying what to write instead', () => {
    for (const bad of ['true', 'TRUE', '1', '2']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(
        /refused: .*X-Forwarded-For; write the reverse proxy's own addresses instead: TRUST_PROXY=127\.0\.0\.1/,
      );
    }
  });
});
