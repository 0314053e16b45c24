import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { bulkJob, useFakeService } from '@/lib/background/testing/setup';
import { addJob } from '@/lib/storage/jobs';
import { onNotificationClicked } from './notification-click';
import { finishBulkJob } from './notify';

const env = useFakeService(() => ({
  bulkStatuses: [{ status: 'completed', download_url: '/downloads/file-1.csv?expires=1&signature=abc' }],
}));
let download: ReturnType<typeof vi.spyOn>;
let create: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 7);
  create = vi.spyOn(fakeBrowser.tabs, 'create');
});

afterEach(() => {
  vi.restoreAllMocks();
});

const popupPage = () => fakeBrowser.runtime.getURL('/popup.html');

describe('a notification’s click', () => {
  it('on a finished file: downloads its results, and the notification goes', async () => {
    await addJob(bulkJob({ id: 'j1', fileName: 'leads.csv' }));
    await finishBulkJob('j1', { phase: 'completed', progress: 1 });
    expect(Object.keys(await fakeBrowser.notifications.getAll())).toEqual(['bulk-j1']);
    await onNotificationClicked('bulk-j1');
    expect(download).toHaveBeenCalledWith({
      url: `${env.server.url}/downloads/file-1.csv?expires=1&signature=abc`,
      filename: 'leads-verified.csv',
    });
    expect(create).not.toHaveBeenCalled();
    expect(await fakeBrowser.notifications.getAll()).toEqual({});
  });

  it('on a failed file or a verdict: opens the popup (the page in a tab where openPopup is refused)', async () => {
    await addJob(bulkJob({ id: 'j2', phase: 'failed', error: 'boom' }));
    await onNotificationClicked('bulk-j2');
    await onNotificationClicked('verdict-ann@example.com-1');
    expect(download).not.toHaveBeenCalled();
    expect(create.mock.calls).toEqual([[{ url: popupPage() }], [{ url: popupPage() }]]);
  });

  it('opens the toolbar popup itself where the browser allows it', async () => {
    const openPopup = vi.spyOn(fakeBrowser.action, 'openPopup').mockImplementation(async () => undefined);
    await onNotificationClicked('verdict-ann@example.com-1');
    expect(openPopup).toHaveBeenCalledOnce();
    expect(create).not.toHaveBeenCalled();
  });

  it('falls back to the popup when the file’s download cannot start', async () => {
    env.service.state.bulkStatuses = [{ status: 'completed', download_url: '' }];
    await addJob(bulkJob({ id: 'j3', phase: 'completed' }));
    await onNotificationClicked('bulk-j3');
    expect(create).toHaveBeenCalledWith({ url: popupPage() });
  });
});
