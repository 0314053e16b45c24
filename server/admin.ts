/**
 * `npm run service:admin -- <command>`: manages API keys in the service's database (DATABASE_URL,
 * else DATA_DIR's SQLite).
 *   create-key --credits N [--expires ISO] [--label L]   prints the new key alone on its last line
 *   add-credits <key|id> --credits N                      prints the new balance on its last line
 *   list-keys                                             one line per key
 *   revoke-key <key|id>                                   prints the revoked key's id on its last line
 *   purge [--older-than DAYS]                             removes finished work older than DAYS
 *                                                         (default RETENTION_DAYS); prints the counts
 *   delete-file <id>                                      removes one file with its rows and results
 *   backup <path>                                         SQLite: an online backup to a new file,
 *                                                         0600, live rows only (VACUUM INTO)
 *                                                         (Postgres: says to use pg_dump, exit 2)
 *   doctor                                                can this machine verify? exit 1 when not
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type ServiceConfig } from './config';
import { formatLine, runDoctor } from './doctor';
import { openStore } from './store/open';
import { deleteFile, purgeOlderThan } from './store/retention';
import { BackupUnsupportedError, type KeyRecord, type Store } from './store/store';

const USAGE = `Usage: npm run service:admin -- <command>
  create-key --credits N [--expires ISO-8601] [--label LABEL]
  add-credits <key|id> --credits N
  list-keys
  revoke-key <key|id>
  purge [--older-than DAYS]      (default RETENTION_DAYS, 30)
  delete-file <file id>
  backup <path>                  (SQLite; for Postgres use pg_dump)
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

function days(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError('--older-than must be a whole number of days ≥ 0');
  return Number(value);
}

async function run(argv: string[], store: Store, config: ServiceConfig): Promise<string[]> {
  const { keys } = store;
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      credits: { type: 'string' },
      expires: { type: 'string' },
      label: { type: 'string' },
      'older-than': { type: 'string' },
    },
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
    case 'purge': {
      const olderThan = days(values['older-than'], config.retentionDays);
      const purged = await purgeOlderThan(store, config.dataDir, olderThan);
      return [
        `Removed ${purged.files} file(s) and ${purged.tasks} single task(s) finished more than ${olderThan} day(s) ago`,
      ];
    }
    case 'delete-file': {
      if (!target || !(await deleteFile(store, config.dataDir, target, null)))
        throw new UsageError(`No such file: ${target ?? '(none given)'}`);
      return [`Deleted file ${target} with its rows and results`];
    }
    case 'backup': {
      if (!target) throw new UsageError('backup needs the path of the new backup file');
      const path = resolve(target);
      if (existsSync(path)) throw new UsageError(`${path} exists already: give a new file`);
      if (store.kind === 'sqlite' && !existsSync(dirname(path)))
        throw new UsageError(`${dirname(path)} does not exist: make it first`);
      await store.backup(path);
      return [`Backed up the database to ${path}`];
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
  const config = loadConfig();
  const store = await openStore(config);
  try {
    for (const line of await run(process.argv.slice(2), store, config)) console.log(line);
  } catch (err) {
    if (err instanceof BackupUnsupportedError) {
      console.error(err.message);
    } else if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      console.error(`${err.message}\n\n${USAGE}`);
    } else {
      throw err;
    }
    process.exitCode = 2;
  } finally {
    await store.close();
  }
}
