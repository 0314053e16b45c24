/**
 * The content benchmark's page: a CRM-like table of ~20,000 elements with one mailto target per
 * row, a long-task recorder, and `__churn()`, which appends 50 rows every 100 ms; `startCrmBench`
 * serves it and opens Chromium with the extension, as the content benchmark and its profiler use it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Page } from 'puppeteer-core';
import { launchChromiumSession } from '../../test/e2e/testing/chromium';
import { enableSites } from '../../test/e2e/testing/content-pages';
import type { ExtensionSession } from '../../test/e2e/testing/session';
import { BARE_MARK_STYLE } from './floor-extension';
import { afterInjectionMs, type TraceEvent, trace } from './trace';

export const ROWS = 1_000;
export const CHURN_MS = 5_000;
/** How long a traced load is watched after its load event. */
export const WINDOW_MS = 4_000;

/**
 * `premarked`: every target, the page's first rows and the rows it adds, comes with the bare pass's
 * mark written by the page itself (no extension at work): what the marks' own style, layout and
 * paint cost the page, which no marking script can go below.
 */
function crmPage(premarked: boolean): string {
  const status = premarked ? ' data-verimark-status="unverified"' : '';
  const mark = premarked ? `<verimark-bare style="${BARE_MARK_STYLE}"></verimark-bare>` : '';
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push(
      `<tr><td>${i + 1}</td><td><div class="who"><span>Contact</span> <b>${i + 1}</b></div></td>` +
        `<td><a class="t"${status} href="mailto:person${i}@example${i % 40}.test">person${i}@example${i % 40}.test</a>${mark}</td>` +
        `<td><span>owner${i % 7}</span></td><td><div><i>note</i> <span>call back</span></div></td>` +
        `<td><button type="button">Edit</button></td></tr>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
<style>body{font:14px sans-serif;margin:0}td{border:1px solid #ccc;padding:2px 6px;white-space:nowrap}</style>
<script>
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
</script></head><body><table id="t"><tbody>${rows.join('')}</tbody></table>
<script>
  let n = ${ROWS};
  const status = ${JSON.stringify(status)};
  const mark = ${JSON.stringify(mark)};
  window.__churn = () => {
    const body = document.querySelector('#t tbody');
    const id = setInterval(() => {
      const rows = [];
      for (let k = 0; k < 50; k++, n++) {
        const tr = document.createElement('tr');
        tr.innerHTML = '<td>' + n + '</td><td><div class="who"><span>Contact</span> <b>' + n + '</b></div></td>' +
          '<td><a class="t"' + status + ' href="mailto:late' + n + '@example.test">late' + n + '@example.test</a>' + mark + '</td>' +
          '<td><span>owner</span></td><td><div><i>note</i></div></td><td><button type="button">Edit</button></td>';
        rows.push(tr);
      }
      body.append(...rows);
    }, 100);
    return new Promise((r) => setTimeout(() => { clearInterval(id); r(); }, ${CHURN_MS}));
  };
</script></body></html>`;
}

export interface CrmBench {
  /** The page on an enabled site: marking on. */
  on: string;
  /** The same page on a site that is not enabled: the extension does no work there. */
  off: string;
  /** As `off`, with the page writing the bare pass's marks itself (crmPage's `premarked`). */
  premarked: string;
  session: ExtensionSession;
  close(): Promise<void>;
}

/**
 * Serves the CRM page on 127.0.0.1 and opens Chromium with the build:test extension, marking
 * enabled for 127.0.0.1 only, budget 0 (every target ends `unverified`; no service needed).
 */
export async function startCrmBench(): Promise<CrmBench> {
  const html = crmPage(false);
  const premarked = crmPage(true);
  const server = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/premarked' ? premarked : html),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    await new Promise((r) => server.close(r));
  };
  let session: ExtensionSession;
  try {
    session = await launchChromiumSession();
  } catch (err) {
    await close();
    throw err;
  }
  const bench: CrmBench = {
    on: `http://127.0.0.1:${port}/`,
    off: `http://localhost:${port}/`,
    premarked: `http://localhost:${port}/premarked`,
    session,
    async close() {
      await session.close();
      await close();
    },
  };
  try {
    await enableSites(session, {
      serviceUrl: 'http://127.0.0.1:9',
      apiKey: 'vm_bench_no_service',
      enabledSites: ['127.0.0.1'],
      autoVerifyBudget: 0,
    });
  } catch (err) {
    await bench.close();
    throw err;
  }
  return bench;
}

/**
 * One traced load of `url` in `page`, watched for WINDOW_MS (no polling inside the trace: the
 * targets are counted once at its end): its events, and the main-thread time from the content
 * script's first task on (bench/testing/trace.ts). Throws when `marked` and not every target was
 * marked by then, or when no content script ran.
 */
export async function tracedCrmLoad(
  page: Page,
  cdp: CDPSession,
  url: string,
  marked: boolean,
): Promise<{ events: TraceEvent[]; ms: number }> {
  const events = await trace(cdp, async () => {
    await page.goto(url, { waitUntil: 'load' });
    await new Promise((r) => setTimeout(r, WINDOW_MS));
  });
  const count = await page.evaluate(
    () => document.querySelectorAll('a.t[data-verimark-status="unverified"]').length,
  );
  if (marked && count < ROWS) throw new Error(`${count} of ${ROWS} targets marked within ${WINDOW_MS} ms`);
  const ms = afterInjectionMs(events);
  if (ms === null) throw new Error(`no content script ran on ${url}`);
  return { events, ms };
}
