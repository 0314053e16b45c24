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
