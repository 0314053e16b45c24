/**
 * `npm run service:admin -- <command>`: manages API keys in the service's database (DATABASE_URL,
 * else DATA_DIR's SQLite).
 *   create-key --credits N [--expires ISO] [--label L]   prints the new key alone on its last line
 *   add-credits <key|id> --credits N                      prints the new balance on its last line
 *   list-keys                                             one line per key
 *   revoke-key <key|id>                                   prints the revoked key's id on its last line
 *   doctor                                                can this machine verify? exit 1 when not
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { formatLine, runDoctor } from './doctor';
import { openStore } from './store/open';
import type { KeyRecord, KeyStore } from './store/store';

const USAGE = `Usage: npm run service:admin -- <command>
  create-key --credits N [--expires ISO-8601] [--label LABEL]
  add-credits <key|id> --credits N
  list-keys
  revoke-key <key|id>
  doctor`;

class UsageError extends Error {}

function credits(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value))
    throw new UsageError('--credits must be a whole number ≥ 0');
  return Number(value);
}

function expiry(value: string | undefined): string | null {
  if (value === undefined) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new UsageError('--expires must be an ISO 8601 date');
  return new Date(at).toISOString();
}

function describe(k: KeyRecord): string {
  const state = k.revoked_at
    ? `revoked ${k.revoked_at}`
    : k.expires_at
      ? `expires ${k.expires_at}`
      : 'no expiry';
  return `${k.id}  ${k.key_prefix}…  credits=${k.credits}  ${state}  label=${JSON.stringify(k.label)}`;
}

async function run(argv: string[], keys: KeyStore): Promise<string[]> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { credits: { type: 'string' }, expires: { type: 'string' }, label: { type: 'string' } },
  });
  const [command, target] = positionals;
  const findKey = async (): Promise<KeyRecord> => {
    const found = target ? await keys.find(target) : null;
    if (!found) throw new UsageError(`No such key: ${target ?? '(none given)'}`);
    return found;
  };
  switch (command) {
    case 'create-key': {
      const { key, record } = await keys.create({
        credits: credits(values.credits),
        expiresAt: expiry(values.expires),
        label: values.label ?? '',
      });
      return [`Created ${describe(record)}`, key];
    }
    case 'add-credits': {
      const record = await findKey();
      await keys.give(record.id, credits(values.credits));
      const after = (await keys.get(record.id)) ?? record;
      return [describe(after), String(after.credits)];
    }
    case 'list-keys':
      return (await keys.list()).map(describe);
    case 'revoke-key': {
      const record = await findKey();
      await keys.revoke(record.id);
      return [`Revoked ${describe((await keys.get(record.id)) ?? record)}`, record.id];
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  }
}

async function doctor(): Promise<void> {
  const config = loadConfig();
  const report = await runDoctor(config.engine, config.host);
  for (const l of report.lines) console.log(formatLine(l));
  console.log(
    report.ok
      ? 'This machine can verify addresses.'
      : 'This machine cannot verify addresses until the FAIL lines are fixed.',
  );
  process.exitCode = report.ok ? 0 : 1;
}

if (process.argv[2] === 'doctor') {
  await doctor();
} else {
  const store = await openStore(loadConfig());
  try {
    for (const line of await run(process.argv.slice(2), store.keys)) console.log(line);
  } catch (err) {
    if (!(err instanceof UsageError || (err instanceof TypeError && 'code' in err))) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } finally {
    await store.close();
  }
}
