/** Serve start-up, step 1: the data dir and what its journals say about the accounts. */
import type { AccountConfig } from '../account/state.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import type { CreateTransaction } from '../domain/transactions.js';
import { JournalCorruptError, JournalDamagedError } from '../journal/file-errors.js';
import type { ServeSettings } from './config.js';
import { DataDir, DataDirLockedError } from './data-dir.js';
import { StartError, type ServeIo } from './serve-types.js';

/** Exit code of a start refused because a journal lost acknowledged transactions: the operator decides. */
export const EXIT_DAMAGED_JOURNAL = 3;

/** Opens (and locks) the data dir of the settings; undefined without one. */
export async function openDataDir(settings: ServeSettings, io: ServeIo): Promise<DataDir | undefined> {
  if (settings.dataDir === undefined) return undefined;
  let data: DataDir;
  try {
    data = await DataDir.open(settings.dataDir, {
      fsync: settings.fsync,
      recoverTruncated: settings.recoverTruncated,
      onLockLost: (error) =>
        io.fatal(`v20sim: lost the lock of ${settings.dataDir}: ${error.message}; stopping so that two servers never write one journal`),
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new StartError(error.message, 2);
    if (error instanceof JournalDamagedError) {
      const lines = error.damages.map((d) => `journal ${d.file} is ${d.what}: ${d.detail}`);
      throw new StartError(
        `refusing to start: acknowledged transactions are missing from ${settings.dataDir}\n${lines.join('\n')}\n` +
          'Nothing was changed. Inspect the files, restore the data dir from a backup, or start with --recover-truncated to accept the loss (it is recorded in recoveries.ndjson).',
        EXIT_DAMAGED_JOURNAL,
      );
    }
    throw new StartError(`cannot open data dir ${settings.dataDir}: ${(error as Error).message}`, 1);
  }
  for (const w of data.warnings) io.err(`v20sim: ${w}`);
  return data;
}

/** The time of the newest transaction in the data dir; -Infinity without one. */
export function lastTime(data: DataDir | undefined): Micros {
  let latest = Number.NEGATIVE_INFINITY;
  if (data === undefined) return latest;
  for (const id of data.journal.accountIds()) {
    const tx = data.journal.last(id);
    const t = tx === undefined ? null : parseDateTime(tx.time, 'RFC3339');
    if (t !== null && t > latest) latest = t;
  }
  return latest;
}

/** The first of a journal's entries, the rest left unread. */
function firstOf<T>(entries: Iterable<T>): T | undefined {
  for (const entry of entries) return entry;
  return undefined;
}

/** The config of an account found in the data dir: as recorded, else from its CREATE transaction. */
function restoredConfig(data: DataDir, id: string): AccountConfig {
  const recorded = data.recordedAccount(id);
  if (recorded !== undefined) return recorded;
  const first = firstOf(data.journal.entries(id));
  if (first?.type !== 'CREATE') throw new StartError(`journal ${data.journal.path(id)} does not start with a CREATE transaction`, 1);
  return { id, currency: (first as CreateTransaction).homeCurrency };
}

/** A configured account must agree with the history in the data dir on what cannot change. */
function checkAgainstHistory(data: DataDir, config: AccountConfig, index: number): void {
  if (!data.journal.accountIds().includes(config.id)) return;
  const history = restoredConfig(data, config.id);
  if (history.currency !== config.currency) {
    throw new StartError(
      `accounts[${index}].currency: ${config.id} is ${config.currency} in the config but its journal in ${data.dir} was opened in ${history.currency}`,
      2,
    );
  }
  const recorded = data.recordedAccount(config.id);
  if (recorded !== undefined && (recorded.hedgingEnabled ?? false) !== (config.hedgingEnabled ?? false)) {
    throw new StartError(
      `accounts[${index}].hedging: ${config.id} was opened with hedging ${recorded.hedgingEnabled ?? false} in ${data.dir}; it cannot change on an account with history`,
      2,
    );
  }
}

/**
 * Checks the configured accounts against the data dir's history, records their configs there,
 * and returns the configs of the accounts the data dir has beyond them (restored as they were).
 */
export function reconcileAccounts(data: DataDir, configured: readonly AccountConfig[]): AccountConfig[] {
  const extra: AccountConfig[] = [];
  try {
    configured.forEach((c, i) => checkAgainstHistory(data, c, i));
    const ids = new Set(configured.map((c) => c.id));
    for (const id of data.journal.accountIds()) if (!ids.has(id)) extra.push(restoredConfig(data, id));
  } catch (error) {
    if (error instanceof JournalCorruptError) throw new StartError(`cannot restore the accounts of ${data.dir}: ${error.message}`, 1);
    throw error;
  }
  for (const c of configured) data.recordAccount(c);
  return extra;
}
