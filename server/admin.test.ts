/**
 * `npm run service:admin`: key commands (create, add credits, revoke, expiry) and their usage
 * errors, against a real database.
 */
import { ERRORS, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, balanceOf } from './testing/api';
import { lastLine, type RunningService, startService } from './testing/service';

let service: RunningService;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

describe('npm run service:admin', () => {
  it('create-key prints the new key alone on its last line; it works at once', async () => {
    const out = await service.admin(['create-key', '--credits', '42', '--label', 'ops team']);
    const key = lastLine(out);
    expect(key).toMatch(/^vm_[\w-]{43}$/);
    const api = new Api(service.baseUrl, key);
    expect((await api.get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status).toBe(200);
    expect(await balanceOf(service, api)).toBe(42);
    expect(await service.admin(['list-keys'])).toContain('label="ops team"');
  });

  it('add-credits prints the new balance; revoke-key disables the key', async () => {
    const key = lastLine(await service.admin(['create-key', '--credits', '1']));
    expect(lastLine(await service.admin(['add-credits', key, '--credits', '9']))).toBe('10');
    const api = new Api(service.baseUrl, key);
    expect(await balanceOf(service, api)).toBe(10);
    const revokedId = lastLine(await service.admin(['revoke-key', key]));
    expect(revokedId).toMatch(/^[0-9a-f]{24}$/);
    expect(await api.post(PATHS.single, { email: 'a@b.test' })).toMatchObject({
      status: 401,
      body: { error: 401, message: ERRORS.invalidKey },
    });
  });

  it('--expires sets the subscription end', async () => {
    const future = lastLine(await service.admin(['create-key', '--credits', '1', '--expires', '2999-01-01']));
    expect((await new Api(service.baseUrl, future).get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status).toBe(
      200,
    );
    const past = lastLine(
      await service.admin(['create-key', '--credits', '1', '--expires', '2001-01-01T00:00:00Z']),
    );
    expect((await new Api(service.baseUrl, past).get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status).toBe(
      402,
    );
  });

  it('refuses bad arguments with a usage message', async () => {
    await expect(service.admin(['create-key'])).rejects.toThrow(/--credits/);
    await expect(service.admin(['create-key', '--credits', '-3'])).rejects.toThrow(/Usage/);
    await expect(service.admin(['create-key', '--credits', '1', '--expires', 'soon'])).rejects.toThrow(/ISO/);
    await expect(service.admin(['add-credits', 'vm_unknown', '--credits', '1'])).rejects.toThrow(
      /No such key/,
    );
    await expect(service.admin(['frobnicate'])).rejects.toThrow(/Unknown command/);
  });
});
