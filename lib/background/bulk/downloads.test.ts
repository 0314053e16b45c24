import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useFakeService } from '@/lib/background/testing/setup';
import { checkResultsLink, downloadResults, MAX_BASE_BYTES, resultFileName } from './downloads';

const env = useFakeService();
const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('resultFileName', () => {
  it.each([
    ['contacts.csv', 'contacts-verified.csv'],
    ['Q3 leads.CSV', 'Q3 leads-verified.csv'],
    ['leads.csv.csv', 'leads-verified.csv'],
    ['leads.csv. ', 'leads-verified.csv'],
    ['leads .csv', 'leads-verified.csv'],
    ['export.txt', 'export-verified.csv'],
    ['export.xlsx', 'export.xlsx-verified.csv'],
    ['.hidden.csv', 'hidden-verified.csv'],
    ['...', 'results-verified.csv'],
    ['', 'results-verified.csv'],
    ['.csv', 'results-verified.csv'],
    ['../../etc/passwd', '_.._etc_passwd-verified.csv'],
    ['C:\\Users\\me\\leads.csv', 'C_Users_me_leads-verified.csv'],
    ['a:b*c?d"e<f>g|h.csv', 'a_b_c_d_e_f_g_h-verified.csv'],
    ['~$leads.csv', '$leads-verified.csv'],
    ['draft~2 (50%).csv', 'draft~2 (50_)-verified.csv'],
    ['con.csv', 'con-verified.csv'],
    ['con.2024.csv', '_con.2024-verified.csv'],
    ['LPT1.leads.csv', '_LPT1.leads-verified.csv'],
    ['tab\there\nnew\u0000line.csv', 'tab_here_new_line-verified.csv'],
    ['invoice\u202Evsc.exe', 'invoice_vsc.exe-verified.csv'],
    ['Kunden München.csv', 'Kunden München-verified.csv'],
  ])('%j → %j', (input, expected) => {
    expect(resultFileName(input)).toBe(expected);
  });

  it('caps a long name in UTF-8 bytes without splitting a character', () => {
    const ascii = resultFileName(`${'a'.repeat(400)}.csv`);
    expect(ascii).toBe(`${'a'.repeat(MAX_BASE_BYTES)}-verified.csv`);
    const wide = resultFileName(`${'名'.repeat(200)}.csv`);
    // 3 bytes each: 40 fit in 120 bytes.
    expect(wide).toBe(`${'名'.repeat(40)}-verified.csv`);
    const emoji = resultFileName('😀'.repeat(100));
    expect(emoji).toBe(`${'😀'.repeat(30)}-verified.csv`);
    expect(bytes(emoji)).toBeLessThanOrEqual(255);
  });

  it('leaves no dot or space where the cap cut', () => {
    expect(resultFileName(`${'a'.repeat(MAX_BASE_BYTES - 2)} .csv.csv`)).toBe(
      `${'a'.repeat(MAX_BASE_BYTES - 2)}-verified.csv`,
    );
    expect(resultFileName(`${'b'.repeat(MAX_BASE_BYTES - 4)}.csv.more`)).toBe(
      `${'b'.repeat(MAX_BASE_BYTES - 4)}-verified.csv`,
    );
  });
});

describe('downloadResults', () => {
  it('resolves a relative signed URL against the service and asks for the safe name', async () => {
    env.service.state.bulkStatuses = [
      { status: 'completed', download_url: '/downloads/file-1.csv?expires=1&signature=abc' },
    ];
    const download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 7);
    await downloadResults({ fileId: 'file-1', fileName: 'sales/Q3: leads.csv' });
    expect(download).toHaveBeenCalledWith({
      url: `${env.server.url}/downloads/file-1.csv?expires=1&signature=abc`,
      filename: 'sales_Q3_ leads-verified.csv',
    });
  });

  it('reports a refused download as a network error', async () => {
    env.service.state.bulkStatuses = [
      { status: 'completed', download_url: `${env.server.url}/downloads/file-1.csv?expires=1&signature=a` },
    ];
    vi.spyOn(fakeBrowser.downloads, 'download').mockRejectedValue(new Error('Invalid filename'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(downloadResults({ fileId: 'file-1', fileName: 'a.csv' })).rejects.toMatchObject({
      kind: 'network',
    });
  });
});

describe('checkResultsLink', () => {
  it('takes https links, and http links only from a plain-http service to its own host', () => {
    expect(checkResultsLink('https://cdn.example/r.csv?s=1', 'https://api.example/v1')).toBe(
      'https://cdn.example/r.csv?s=1',
    );
    expect(checkResultsLink('/downloads/f.csv', 'https://api.example')).toBe(
      'https://api.example/downloads/f.csv',
    );
    expect(checkResultsLink('http://127.0.0.1:8787/downloads/f.csv', 'http://127.0.0.1:8787')).toBe(
      'http://127.0.0.1:8787/downloads/f.csv',
    );
    expect(checkResultsLink('/downloads/f.csv', 'http://10.0.0.5:8787/')).toBe(
      'http://10.0.0.5:8787/downloads/f.csv',
    );
  });

  it.each([
    ['http://api.example/downloads/f.csv', 'https://api.example'],
    ['http://elsewhere.example/f.csv', 'http://api.example'],
    ['http://127.0.0.1:9999/f.csv', 'http://127.0.0.1:8787'],
    ['ftp://api.example/f.csv', 'https://api.example'],
    ['javascript:alert(1)', 'https://api.example'],
    ['data:text/csv,a', 'https://api.example'],
  ])('refuses %s from %s with a clear error', (link, service) => {
    expect(() => checkResultsLink(link, service)).toThrow(/HTTPS/);
  });

  it('downloads nothing when the service gives an http link to another host', async () => {
    // The service is plain http on 127.0.0.1; a link to another host is refused.
    const elsewhere = env.server.url.replace('127.0.0.1', 'localhost');
    env.service.state.bulkStatuses = [{ status: 'completed', download_url: `${elsewhere}/downloads/f.csv` }];
    const download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 7);
    download.mockClear();
    await expect(downloadResults({ fileId: 'file-1', fileName: 'a.csv' })).rejects.toMatchObject({
      kind: 'server',
      message: expect.stringContaining('HTTPS'),
    });
    expect(download).not.toHaveBeenCalled();
  });
});
