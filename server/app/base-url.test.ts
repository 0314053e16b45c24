/** Signed download URLs are built from the configuration, never from a (forgeable) Host header. */
import { request } from 'node:http';
import { API_KEY_HEADER, PATHS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';

// Listening on every interface without PUBLIC_BASE_URL: the start-up warns about it.
const svc = useService({ env: { HOST: '0.0.0.0' } });

/** POST /verify/bulk/status with a forged Host header (fetch would not send one). */
function statusWithHost(fileId: string, host: string): Promise<{ data: { download_url: string } }> {
  const url = new URL(svc.service.baseUrl + PATHS.bulkStatus);
  const body = JSON.stringify({ file_id: fileId });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', [API_KEY_HEADER]: svc.service.apiKey },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
        });
        res.on('end', () => resolve(JSON.parse(text) as { data: { download_url: string } }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('download URLs under a forged Host header', () => {
  it('point at the configured address, whatever Host the request names', async () => {
    const reply = await svc.api.upload(`Email\nann@${D.rejecting}\n`);
    const fileId = reply.body.data.file_id;
    expect((await svc.api.waitForFile(fileId)).status).toBe('completed');
    const forged = await statusWithHost(fileId, 'evil.example:666');
    console.log(`download_url under Host: evil.example:666 → ${forged.data.download_url}`);
    expect(forged.data.download_url.startsWith(`${svc.service.baseUrl}/downloads/${fileId}.csv?`)).toBe(true);
    expect((await fetch(forged.data.download_url)).status).toBe(200);
  });

  it('warns at start-up that PUBLIC_BASE_URL is unset on a non-loopback HOST', () => {
    expect(svc.service.output()).toMatch(/PUBLIC_BASE_URL is not set while HOST is 0\.0\.0\.0/);
  });
});
