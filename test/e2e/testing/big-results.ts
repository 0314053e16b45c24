/**
 * A service of the commercial shape for end-to-end runs, on a scripted server on loopback: no
 * GET /account (404), flags sent as strings, and one completed file whose results CSV is about
 * 25 MB (the service's upload limit).
 */
import { DESCRIPTIONS, PATHS } from '@verimark/contract';
import {
  fail,
  ok,
  type RecordedRequest,
  type ScriptedResponse,
} from '../../../lib/api/testing/scripted-server';

export const BIG_ROWS = 189_000;

/** A results CSV of about 25 MB: every third row deliverable; some cells quoted, with commas and line breaks. */
export function bigResults(): string {
  const header =
    'id,name,email,company,notes,verification_status,verification_reason,is_catch_all,is_disposable,is_role_account,is_free_provider,mx_host,suggestion';
  const lines = [header];
  const verdicts = ['deliverable', 'undeliverable', 'risky'];
  for (let i = 0; i < BIG_ROWS; i++) {
    const notes =
      i % 10 === 0 ? `"Met at fair, ""booth ${i}""\nfollow up"` : `plain note number ${i} for this contact`;
    const verdict = verdicts[i % 3];
    lines.push(
      `${i},Person ${i},person${i}@company${i % 97}.test,"Company ${i % 97}, Inc.",${notes},${verdict},accepted_email,false,false,false,false,mx${i % 5}.company.test,`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const fileRecord = {
  _id: 'file-big',
  file_name: 'big.csv',
  state: 'completed',
  type: 'api',
  service_name: 'verify',
  options: { credit_usage: BIG_ROWS, credit_refund: 0 },
  meta_data: { deliverable: BIG_ROWS / 3, undeliverable: BIG_ROWS / 3, unknown: 0, risky: BIG_ROWS / 3 },
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:05:00.000Z',
};

/** A service of the commercial shape: no GET /account; flags sent as strings. */
export function serviceScript(big: string) {
  let tasks = 0;
  return (req: RecordedRequest): ScriptedResponse => {
    switch (req.path) {
      case PATHS.bulkFiles:
        return ok(DESCRIPTIONS.bulkFiles, { files: [fileRecord], totalCount: 1, page: 1, pageSize: 10 });
      case PATHS.bulkStatus:
        return ok(DESCRIPTIONS.bulkStatus, { status: 'completed', download_url: '/downloads/big.csv' });
      case '/downloads/big.csv':
        return { text: big, headers: { 'content-type': 'text/csv' } };
      case PATHS.single:
        tasks += 1;
        return ok(DESCRIPTIONS.queued, { task_id: `task-${tasks}` });
      case PATHS.singleStatus:
        return ok(DESCRIPTIONS.singleStatus, {
          task_id: (req.json as { task_id: string }).task_id,
          processing_status: 'completed',
          email: 'gina@good.test',
          email_status: 'risky',
          is_catch_all: 'true',
          is_disposable: 'false',
          mx_host: 'mx1.good.test',
          provider: 'Private',
          score: 42,
          last_checked: null,
        });
      default:
        return fail(404, 'Not Found');
    }
  };
}
