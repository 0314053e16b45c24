/**
 * GET /verify/bulk/files: paging newest first, one key's files only, literal search, the bounds of
 * page and pageSize.
 */
import { ERRORS, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiWithNewKey } from '../testing/api';
import { type RunningService, startService } from '../testing/service';

let service: RunningService;
let owner: Api;
let other: Api;
const NAMES = [
  'alpha.csv',
  'Beta Leads.csv',
  'gamma_100%.csv',
  'delta.csv',
  'BETA leads (old).csv',
  'epsilon.csv',
  'zeta_x.csv',
];

beforeAll(async () => {
  service = await startService();
  owner = await apiWithNewKey(service, 100);
  other = await apiWithNewKey(service, 100);
  // Uploaded one after the other, so newest first is the reverse of NAMES.
  for (const name of NAMES) {
    const reply = await owner.upload('Email\nnot-an-address\n', { fileName: name });
    expect(reply.status).toBe(200);
  }
  expect((await other.upload('Email\nnot-an-address\n', { fileName: 'other key.csv' })).status).toBe(200);
});
afterAll(() => service?.stop());

describe('GET /verify/bulk/files', () => {
  it('pages newest first with totals, and a page past the end is empty', async () => {
    const first = await owner.listFiles('page=1&pageSize=3');
    expect(first.status).toBe(200);
    expect(first.body.message).toEqual({
      status: 'success',
      statusCode: 200,
      description: 'Bulk files fetched successfully',
    });
    expect(first.body.data).toMatchObject({ totalCount: 7, page: 1, pageSize: 3 });
    const names: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const reply = await owner.listFiles(`page=${page}&pageSize=3`);
      names.push(...reply.body.data.files.map((f) => f.file_name));
    }
    expect(names).toEqual([...NAMES].reverse());
    const past = await owner.listFiles('page=4&pageSize=3');
    expect(past.body.data).toEqual({ files: [], totalCount: 7, page: 4, pageSize: 3 });
  });

  it('lists only the files of the key that asks', async () => {
    const theirs = await other.listFiles('page=1&pageSize=100');
    expect(theirs.body.data.files.map((f) => f.file_name)).toEqual(['other key.csv']);
    const mine = await owner.listFiles('page=1&pageSize=100&search=other');
    expect(mine.body.data).toMatchObject({ files: [], totalCount: 0 });
  });

  it('searches a literal, case-insensitive substring of the name', async () => {
    const search = async (term: string) => {
      const reply = await owner.listFiles(`page=1&pageSize=100&search=${encodeURIComponent(term)}`);
      expect(reply.body.data.totalCount).toBe(reply.body.data.files.length);
      return reply.body.data.files.map((f) => f.file_name);
    };
    expect(await search('beta leads')).toEqual(['BETA leads (old).csv', 'Beta Leads.csv']);
    expect(await search('%')).toEqual(['gamma_100%.csv']);
    expect(await search('_')).toEqual(['zeta_x.csv', 'gamma_100%.csv']);
    expect(await search('a_1')).toEqual(['gamma_100%.csv']);
    expect(await search('(old)')).toEqual(['BETA leads (old).csv']);
    expect(await search('nothing like it')).toEqual([]);
    expect(await search('')).toHaveLength(7);
  });

  it.each([
    '',
    'page=1',
    'pageSize=10',
    'page=0&pageSize=10',
    'page=-1&pageSize=10',
    'page=1.5&pageSize=10',
    'page=abc&pageSize=10',
    'page=1&pageSize=0',
    'page=1&pageSize=101',
    'page=1&pageSize=1e2',
    'page=1&pageSize=',
    'page=1&page=2&pageSize=10',
    'page=1&pageSize=10&search=a&search=b',
  ])('400 Invalid query parameters for ?%s', async (query) => {
    const reply = await owner.get(`${PATHS.bulkFiles}?${query}`);
    expect(reply).toMatchObject({ status: 400, body: { error: 400, message: ERRORS.invalidQuery } });
  });

  it('accepts the bounds', async () => {
    expect((await owner.listFiles('page=1&pageSize=100')).status).toBe(200);
    expect((await owner.listFiles('page=1&pageSize=1')).body.data.files).toHaveLength(1);
  });
});
