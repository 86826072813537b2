import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { AccountConfig } from '../account/state.js';
import { JournalWriteError, type JournalRecovery } from '../journal/file-errors.js';
import { syncDir } from '../journal/file-io.js';
import { FileJournal } from '../journal/file-journal.js';
import { RecordFiles } from '../journal/record-file.js';
import { DataDirLockedError, lockDataDir, type Release } from './data-dir-lock.js';

export { DataDirLockedError };

/**
 * A data directory:
 *   <accountId>.ndjson     the account's journal (FileJournal): one entry per line, batches sealed with a CRC-32C
 *   <accountId>.commit     the journal's commit record: committed length and last acknowledged transaction ID
 *   accounts.ndjson        the AccountConfig each account was opened with (hedging is not in any
 *                          transaction, so a restart without the config file needs it); the last
 *                          record of an ID wins, and counts only once the account's journal holds
 *                          committed transactions (the journal's commit is the one commit point)
 *   quotes.json            the latest quote of each instrument (quotes-file.ts)
 *   runs.ndjson            one line per start: seed, config digest, price data digest, ...
 *   recoveries.ndjson      one line per loss an operator accepted with --recover-truncated
 *   v20sim.lock            the lock (data-dir-lock.ts), with v20sim.lock.owner naming its holder
 */
export interface DataDirOptions {
  readonly fsync: boolean;
  /** Accept the loss of acknowledged transactions in damaged journals instead of refusing to start. */
  readonly recoverTruncated?: boolean;
  /** Called if the lock is lost while the server runs. */
  readonly onLockLost?: (error: Error) => void;
}

/** The scratch folder of paged-out orders and trades inside a data dir. */
const RECORDS_DIR = '.records';

/** Data dirs this process has open: its own lock cannot be told from a stale one by proper-lockfile. */
const openHere = new Set<string>();

export class DataDir {
  readonly dir: string;
  readonly journal: FileJournal;
  /** Messages about damage repaired at open, for stderr. */
  readonly warnings: string[] = [];
  readonly fsync: boolean;
  private readonly accounts = new Map<string, AccountConfig>();
  private release: Release | undefined;
  private readonly key: string;

  private constructor(dir: string, journal: FileJournal, fsync: boolean, release: Release, key: string) {
    this.dir = dir;
    this.journal = journal;
    this.fsync = fsync;
    this.release = release;
    this.key = key;
  }

  /** Locks the directory, then opens (and recovers) its journals and account records. */
  static async open(dir: string, options: DataDirOptions): Promise<DataDir> {
    mkdirSync(dir, { recursive: true });
    const key = realpathSync(dir);
    if (openHere.has(key)) throw new DataDirLockedError(dir, process.pid);
    openHere.add(key);
    let release: Release | undefined;
    try {
      // The lock comes first, so two servers never recover the same journals at once.
      release = await lockDataDir(dir, options.onLockLost ?? (() => undefined));
      // Scratch of a run that ended without closing: the accounts are rebuilt from the journals.
      rmSync(join(dir, RECORDS_DIR), { recursive: true, force: true });
      const journal = FileJournal.open(dir, { fsync: options.fsync, recoverTruncated: options.recoverTruncated ?? false });
      const data = new DataDir(dir, journal, options.fsync, release, key);
      data.noteRecoveries(journal.recoveries);
      data.loadAccounts();
      return data;
    } catch (error) {
      openHere.delete(key);
      release?.();
      throw error;
    }
  }

  private get accountsFile(): string {
    return join(this.dir, 'accounts.ndjson');
  }

  /** Warnings for stderr; each accepted loss also gets a line in recoveries.ndjson, where it stays. */
  private noteRecoveries(recoveries: readonly JournalRecovery[]): void {
    for (const r of recoveries) {
      this.warnings.push(describeRecovery(r));
      if (r.loss === undefined) continue;
      this.append(
        join(this.dir, 'recoveries.ndjson'),
        JSON.stringify({
          at: new Date().toISOString(),
          accountID: r.accountId,
          journal: r.file,
          problem: r.loss.detail,
          keptBytes: r.offset,
          movedTo: r.movedTo ?? null,
          lostTransactionIDs: r.loss.fromID === undefined ? null : { from: r.loss.fromID, to: r.loss.toID },
        }),
      );
    }
  }

  private loadAccounts(): void {
    const file = this.accountsFile;
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      // A torn record of an account whose journal was never committed: drop it, so appends stay whole lines.
      truncateSync(file, Buffer.byteLength(text.slice(0, end)));
      this.warnings.push(
        `${file}: dropped a torn last line (${Buffer.byteLength(text.slice(end))} bytes): ${JSON.stringify(text.slice(end, end + 80))}`,
      );
    }
    text
      .slice(0, end)
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '') return;
        try {
          const config = JSON.parse(line) as AccountConfig;
          // A later record of an ID replaces an earlier one: a create that failed left the earlier one.
          if (typeof config.id === 'string' && typeof config.currency === 'string') this.accounts.set(config.id, config);
          else this.warnings.push(`${file}: line ${i + 1} is not an account record; ignored`);
        } catch {
          this.warnings.push(`${file}: line ${i + 1} is not JSON; ignored`);
        }
      });
  }

  /** The config an account was opened with here, if recorded. */
  recordedAccount(id: string): AccountConfig | undefined {
    return this.accounts.get(id);
  }

  private hasHistory(id: string): boolean {
    return this.journal.accountIds().includes(id);
  }

  /**
   * Records an account's config before its opening transactions are journaled. An account with
   * committed history keeps the config it was opened with; otherwise a new record replaces any
   * earlier one (left by a create that failed). Returns how to undo it if the opening fails.
   */
  recordAccount(config: AccountConfig): () => void {
    const previous = this.accounts.get(config.id);
    if (this.hasHistory(config.id) || (previous !== undefined && JSON.stringify(previous) === JSON.stringify(config)))
      return () => undefined;
    const file = this.accountsFile;
    const sizeBefore = existsSync(file) ? statSync(file).size : 0;
    try {
      this.append(file, JSON.stringify(config));
    } catch (error) {
      this.cutBack(file, sizeBefore);
      throw new JournalWriteError(file, error);
    }
    this.accounts.set(config.id, config);
    return () => {
      if (previous === undefined) this.accounts.delete(config.id);
      else this.accounts.set(config.id, previous);
      // Best effort: if this fails too, the record stays inert (no committed journal) and the next create replaces it.
      this.cutBack(file, sizeBefore);
    };
  }

  private cutBack(file: string, size: number): void {
    try {
      if (existsSync(file)) truncateSync(file, size);
    } catch {
      // See recordAccount.
    }
  }

  /** Appends one line of run information to runs.ndjson. */
  recordRun(info: Record<string, unknown>): void {
    this.append(join(this.dir, 'runs.ndjson'), JSON.stringify(info));
  }

  private append(file: string, line: string): void {
    const created = !existsSync(file);
    appendLine(file, line, this.fsync);
    if (created && this.fsync) syncDir(this.dir);
  }

  /**
   * Where an account pages out its ended orders or closed trades (account/id-table.ts): a scratch
   * file under .records/, removed when the data dir closes (and at the next open, after a crash),
   * since a restart rebuilds the accounts from their journals.
   */
  private readonly recordFiles = new RecordFiles((accountId, kind) => {
    mkdirSync(join(this.dir, RECORDS_DIR), { recursive: true });
    return join(this.dir, RECORDS_DIR, `${accountId}.${kind}`);
  });

  readonly recordStore = this.recordFiles.store;

  close(): void {
    this.journal.close();
    this.recordFiles.remove();
    rmSync(join(this.dir, RECORDS_DIR), { recursive: true, force: true });
    const release = this.release;
    if (release === undefined) return;
    this.release = undefined;
    openHere.delete(this.key);
    try {
      release();
    } catch {
      // Already gone (taken over): nothing to release.
    }
  }
}

function appendLine(file: string, line: string, fsync: boolean): void {
  if (!fsync) {
    appendFileSync(file, `${line}\n`);
    return;
  }
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function describeRecovery(r: JournalRecovery): string {
  const moved = r.movedTo === undefined ? '' : `: moved ${r.bytes} byte${r.bytes === 1 ? '' : 's'} to ${r.movedTo}`;
  if (r.loss !== undefined) {
    const ids = r.loss.fromID === undefined ? '' : `; transactions ${r.loss.fromID}-${r.loss.toID} are lost and their IDs stay taken`;
    return `journal ${r.file}: ${r.loss.detail}; accepted by --recover-truncated: kept the first ${r.offset} bytes${moved}${ids} (recorded in recoveries.ndjson)`;
  }
  return `journal ${r.file}: ${r.reason} at byte ${r.offset}${moved} and continued with the transactions before it (none of them had been acknowledged)`;
}
