/**
 * Delete in the popup's Files list, in Chromium: against the real service, by keyboard (the
 * question, Escape, "Deleted — Undo", Undo) and sent by the background after the popup closed and
 * its service worker was stopped; against a service without the route, no Delete and no error.
 * Each state is screenshotted in light and dark and checked with axe-core.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../lib/api/testing/scripted-server';
import { Api } from '../../server/testing/api';
import { bigResults, serviceScript } from './testing/big-results';
import { useExtension } from './testing/extension-suite';
import { screenshotBothThemes as look, openPopup, selectTab } from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium });
let scripted: Awaited<ReturnType<typeof startScriptedServer>> | undefined;
afterAll(() => scripted?.close());

/** The row of `name` in the Files list: its state and the accessible names of its buttons. */
function row(page: Page, name: string) {
  return page.evaluate((fileName) => {
    const li = [...document.querySelectorAll('[data-testid=file-row]')].find(
      (item) => item.querySelector('.file-name')?.textContent === fileName,
    );
    if (!li) return null;
    return {
      state: li.getAttribute('data-state'),
      text: (li.textContent ?? '').replace(/\s+/g, ' ').trim(),
      notice: (li.querySelector('.deleted-undo')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      buttons: [...li.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent),
    };
  }, name);
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
  });

function waitForRow(page: Page, name: string, check: (r: Awaited<ReturnType<typeof row>>) => boolean) {
  return waitFor(async () => (check(await row(page, name)) ? true : undefined), 20_000, `row ${name}`);
}

describe('Delete in the Files list (Chromium)', () => {
  it('with the real service: asked, undoable, and sent by the background with the popup closed', async () => {
    const api = new Api(e2e.service.baseUrl, e2e.service.apiKey);
    const ids: Record<string, string> = {};
    for (const name of ['keep-me.csv', 'delete-me.csv']) {
      const sent = await api.upload('Email\nalice@deliverable.test\n', { fileName: name }, name);
      ids[name] = sent.body.data.file_id;
      await api.waitForFile(ids[name]);
    }
    const page = await openPopup(e2e.session);
    await selectTab(page, 'Files');
    await waitForRow(page, 'delete-me.csv', (r) => r?.buttons.includes('Delete delete-me.csv') === true);

    await page.focus('[aria-label="Delete delete-me.csv"]');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await focused(page)) === 'Cancel' || undefined, 5_000, 'Cancel focused');
    expect((await row(page, 'delete-me.csv'))?.text).toContain(
      'Delete “delete-me.csv” and its results from the service?',
    );
    await look(page, 'files-delete-question');
    await page.keyboard.press('Escape');
    await waitFor(
      async () => (await focused(page)) === 'Delete delete-me.csv' || undefined,
      5_000,
      'Delete focused again',
    );

    await page.keyboard.press('Enter');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    expect(await focused(page)).toBe('Delete file');
    await page.keyboard.press('Enter');
    await waitForRow(page, 'delete-me.csv', (r) => r?.state === 'deleted');
    expect((await row(page, 'delete-me.csv'))?.notice).toBe('Deleted — Undo');
    await waitFor(
      async () => (await focused(page)) === 'Undo deleting delete-me.csv' || undefined,
      5_000,
      'Undo focused',
    );
    await look(page, 'files-deleted-undo');

    await page.keyboard.press('Enter');
    await waitForRow(page, 'delete-me.csv', (r) => r?.state === 'completed');
    // Focus comes back to Delete once the row is drawn again (a frame later).
    await waitFor(
      async () => (await focused(page)) === 'Delete delete-me.csv' || undefined,
      5_000,
      'Delete focused after Undo',
    );
    // Past the undo window: an undone delete is never sent.
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    expect(await api.fileRecord(ids['delete-me.csv'] ?? '')).toBeDefined();

    await page.click('[aria-label="Delete delete-me.csv"]');
    await page.click('[data-testid=file-delete-confirm]');
    await waitForRow(page, 'delete-me.csv', (r) => r?.state === 'deleted');
    await page.close();
    await e2e.session.stopServiceWorker?.();
    await waitFor(
      async () => ((await api.fileRecord(ids['delete-me.csv'] ?? '')) === undefined ? true : undefined),
      // The alarm wakes the stopped worker; a send that fails then is tried again a minute later.
      150_000,
      'the delete, sent by the background',
    );
    expect(await api.fileRecord(ids['keep-me.csv'] ?? '')).toBeDefined();

    const again = await openPopup(e2e.session);
    await selectTab(again, 'Files');
    await waitForRow(again, 'keep-me.csv', (r) => r?.state === 'completed');
    expect(await row(again, 'delete-me.csv')).toBeNull();
    await again.close();
  }, 240_000);

  it('with a service without the route: no Delete, and no error', async () => {
    scripted = await startScriptedServer(serviceScript(bigResults()));
    await e2e.session.configure(scripted.url, 'vm_e2e_no_delete_key');
    const page = await openPopup(e2e.session);
    await selectTab(page, 'Files');
    await waitForRow(page, 'big.csv', (r) => r?.state === 'completed');
    await waitFor(
      async () => scripted?.requests.some((r) => r.method === 'DELETE') || undefined,
      10_000,
      'the probe',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await row(page, 'big.csv'))?.buttons).not.toContain('Delete big.csv');
    expect(await page.$('[role=alert]')).toBeNull();
    await look(page, 'files-no-delete');
    await page.close();
  });
});
