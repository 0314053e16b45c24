/**
 * `service:admin doctor` against the test network's real DNS and SMTP servers, and against a
 * resolver that answers NXDOMAIN for everything (as this machine's does).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLine, runDoctor } from './doctor';
import { engineConfigForFakeNet, type FakeNet, fakeNetEnv, startFakeNet } from './testing/fake-net';
import { type FakeDns, startFakeDns } from './testing/fake-net-dns';

let fakeNet: FakeNet;
let blind: FakeDns;
beforeAll(async () => {
  fakeNet = await startFakeNet();
  blind = await startFakeDns({});
});
afterAll(async () => {
  await fakeNet.stop();
  await blind.stop();
});

const text = (report: Awaited<ReturnType<typeof runDoctor>>) => report.lines.map(formatLine).join('\n');

describe('doctor', () => {
  it('is OK when DNS answers and the MX host greets 220', async () => {
    const report = await runDoctor({ ...engineConfigForFakeNet(fakeNet), heloName: 'probe.verimark.test' });
    expect(report.ok).toBe(true);
    expect(report.lines.map((l) => l.verdict)).toEqual(['OK', 'OK', 'OK', 'SKIP']);
    expect(text(report)).toMatch(/^OK {3}DNS: gmail\.com has MX records/m);
    expect(text(report)).toMatch(
      /^OK {3}SMTP: mx\.gmail\.com \(127\.0\.0\.1\) port \d+ answered 220, directly/m,
    );
  });

  it('says DNS is not usable (not that gmail.com does not exist) when everything is NXDOMAIN', async () => {
    const report = await runDoctor({ ...engineConfigForFakeNet(fakeNet), dnsServers: [blind.address] });
    expect(report.ok).toBe(false);
    const [dns, smtp] = report.lines;
    expect(dns).toMatchObject({ verdict: 'FAIL', text: expect.stringMatching(/^DNS is not usable/) });
    expect(dns?.text).toContain('set DNS_SERVERS');
    expect(smtp).toMatchObject({ verdict: 'SKIP' });
  });

  it('says port 25 looks blocked when the MX host cannot be reached, and names the proxy', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const direct = await runDoctor({ ...engineConfigForFakeNet(fakeNet), smtpPort: port });
    expect(direct.ok).toBe(false);
    expect(direct.lines[1]).toMatchObject({
      verdict: 'FAIL',
      text: expect.stringContaining('port 25 looks blocked'),
    });
    const proxied = await runDoctor({
      ...engineConfigForFakeNet(fakeNet),
      smtpProxy: `socks5://127.0.0.1:${port}`,
    });
    expect(proxied.lines[1]).toMatchObject({ verdict: 'FAIL', text: expect.stringContaining('SMTP_PROXY') });
  });

  it('warns about a HELO name that is not fully qualified', async () => {
    const report = await runDoctor({ ...engineConfigForFakeNet(fakeNet), heloName: 'vm' });
    expect(report.ok).toBe(true);
    expect(report.lines[2]).toMatchObject({
      verdict: 'WARN',
      text: expect.stringContaining('not a fully qualified'),
    });
  });

  it('npm run service:admin -- doctor prints one line per check and exits 1 when DNS is unusable', async () => {
    const env = {
      ...process.env,
      ...fakeNetEnv(fakeNet),
      DNS_SERVERS: blind.address,
      DATA_DIR: '/nonexistent-not-needed',
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'admin.ts'), 'doctor'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/^FAIL DNS is not usable/m);
    expect(out).not.toMatch(/gmail\.com does not exist/);
    expect(out).toContain('cannot verify addresses');
  }, 30_000);
});
