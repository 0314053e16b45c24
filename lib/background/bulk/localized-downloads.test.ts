/**
 * What reaches the person from a download speaks their language: the saved file names
 * (`<name>-geprüft.csv`, `<name>-délivrables.csv`) and the failures of a subset built in Chrome's
 * offscreen document, which has no i18n and so sends only what went wrong, worded here.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useFakeService } from '@/lib/background/testing/setup';
import { useLocale } from '@/lib/testing/catalog';
import { downloadResults } from './downloads';
import { downloadSubset, subsetError } from './results-download';
import { subsetBlob } from './subset-blob';

const env = useFakeService();
const RESULTS = 'Email,verification_status\r\nada@x.test,deliverable\r\nbob@x.test,risky\r\n';
let undo: () => void = () => {};
afterEach(() => undo());

/** The fake service, plus the signed results URL answering `status` (200: the results CSV). */
function serveResults(status: number) {
  env.service.state.bulkStatuses = [
    { status: 'completed', download_url: '/downloads/file-1.csv?expires=1&signature=a' },
  ];
  const service = env.service.script;
  env.server.setScript((req) =>
    req.path.startsWith('/downloads/')
      ? { status, headers: { 'content-type': 'text/csv' }, text: status === 200 ? RESULTS : 'broken' }
      : service(req),
  );
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('download file names', () => {
  it('are written in the UI language: results and every subset', async () => {
    serveResults(200);
    const download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 7);
    const names = async (lang: 'en' | 'de' | 'fr' | 'es') => {
      undo();
      undo = useLocale(lang);
      download.mockClear();
      await downloadResults({ fileId: 'file-1', fileName: 'leads.csv' });
      for (const subset of ['deliverable', 'deliverable_and_risky', 'undeliverable'] as const) {
        await downloadSubset({ fileId: 'file-1', fileName: 'leads.csv', subset });
      }
      return download.mock.calls.map(([options]) => options.filename);
    };
    expect(await names('en')).toEqual([
      'leads-verified.csv',
      'leads-deliverable.csv',
      'leads-deliverable-and-risky.csv',
      'leads-undeliverable.csv',
    ]);
    expect(await names('de')).toEqual([
      'leads-geprüft.csv',
      'leads-zustellbar.csv',
      'leads-zustellbar-und-riskant.csv',
      'leads-unzustellbar.csv',
    ]);
    expect(await names('fr')).toEqual([
      'leads-vérifié.csv',
      'leads-délivrables.csv',
      'leads-délivrables-et-risquées.csv',
      'leads-non-délivrables.csv',
    ]);
    expect(await names('es')).toEqual([
      'leads-verificado.csv',
      'leads-entregables.csv',
      'leads-entregables-y-riesgosas.csv',
      'leads-no-entregables.csv',
    ]);
  });
});

describe("the offscreen document's failures", () => {
  it('carry what went wrong, no English sentence; the background words them in the UI language', async () => {
    serveResults(500);
    const http = await subsetBlob(`${env.server.url}/downloads/file-1.csv`, 'deliverable');
    expect(http).toEqual({ ok: false, kind: 'http', detail: '500' });
    const port = await closedPort();
    const unreachable = await subsetBlob(`http://127.0.0.1:${port}/downloads/x.csv`, 'deliverable');
    expect(unreachable).toMatchObject({ ok: false, kind: 'unreachable' });

    undo = useLocale('de');
    expect(http.ok ? null : subsetError(http).message).toBe(
      'Die Ergebnisse konnten nicht gelesen werden (HTTP 500)',
    );
    expect(unreachable.ok ? null : subsetError(unreachable).message).toMatch(
      /^Der Dienst ist nicht erreichbar \(/,
    );
    undo();
    undo = useLocale('es');
    expect(http.ok ? null : subsetError(http)).toMatchObject({
      kind: 'server',
      message: 'No se pudieron leer los resultados (HTTP 500)',
    });
    expect(unreachable.ok ? null : subsetError(unreachable)).toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/^No se puede contactar con el servicio \(/),
    });
  });

  it('reach the popup in its language through a subset download', async () => {
    serveResults(502);
    undo = useLocale('fr');
    await expect(
      downloadSubset({ fileId: 'file-1', fileName: 'leads.csv', subset: 'undeliverable' }),
    ).rejects.toMatchObject({
      message: 'Les résultats n’ont pas pu être lus (HTTP 502)',
    });
  });
});
