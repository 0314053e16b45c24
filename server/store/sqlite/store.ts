/**
 * The default store: SQLite in DATA_DIR, its parts put together; backups by VACUUM INTO.
 */
import { loadSigningSecret } from '../../signing';
import type { Store } from '../store';
import { SqliteBatchQueue } from './batches';
import { backupInto, openDatabase, truncateWal } from './db';
import { SqliteFileStore } from './files';
import { SqliteHostSlots } from './host-slots';
import { SqliteKeyStore } from './keys';
import { SqliteAddressMemory } from './memory';
import { queueDepth } from './queue-depth';
import { SqliteTaskStore } from './tasks';

/** The default store: `verimark.sqlite` in DATA_DIR, created and migrated on first use. */
export function openSqliteStore(dataDir: string, perHostConcurrency: number): Store {
  const db = openDatabase(dataDir);
  const hostSlots = new SqliteHostSlots(db, perHostConcurrency);
  return {
    kind: 'sqlite',
    keys: new SqliteKeyStore(db),
    tasks: new SqliteTaskStore(db),
    files: new SqliteFileStore(db),
    batches: new SqliteBatchQueue(db),
    memory: new SqliteAddressMemory(db),
    hostSlots,
    queueDepth: async () => queueDepth(db),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    backup: async (path) => backupInto(db, path),
    eraseDeleted: async () => truncateWal(db),
    signingSecret: async (configured) => loadSigningSecret(dataDir, configured),
    close: async () => {
      hostSlots.close();
      db.close();
    },
  };
}
