import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import type { AccountConfig } from '../account/state.js';
import type { JournalRecovery } from '../journal/file-errors.js';
import { FileJournal } from '../journal/file-journal.js';

/**
 * A data directory:
 *   <accountId>.ndjson     the account's transactions (FileJournal), one per line
 *   <accountId>.commit     the journal's committed length (FileJournal)
 *   accounts.ndjson        the AccountConfig each account was opened with (hedging is not in any
 *                          transaction, so a restart without the config file needs it)
 *   runs.ndjson            one line per start: seed, config digest, price data digest, ...
 *   v20sim.lock            the pid of the server using the directory
 */
export class DataDir {
  readonly dir: string;
  readonly journal: FileJournal;
  /** Messages about damage repaired at open, for stderr. */
  readonly warnings: string[] = [];
  private readonly accounts = new Map<string, AccountConfig>();
  private readonly fsync: boolean;
  private locked = false;

  private constructor(dir: string, journal: FileJournal, fsync: boolean) {
    this.dir = dir;
    this.journal = journal;
    this.fsync = fsync;
  }

  /** Locks the directory, then opens (and recovers) its journals and account records. */
  static open(dir: string, fsync: boolean): DataDir {
    // The lock comes first, so two servers never recover the same journals at once.
    const journal = lockAndOpen(dir, fsync);
    const data = new DataDir(dir, journal, fsync);
    data.locked = true;
    for (const r of journal.recoveries) data.warnings.push(describeRecovery(r));
    data.loadAccounts();
    return data;
  }

  private get accountsFile(): string {
    return join(this.dir, 'accounts.ndjson');
  }

  private loadAccounts(): void {
    const file = this.accountsFile;
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      // A torn record of an account whose journal was never written: drop it, so appends stay whole lines.
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
          if (typeof config.id === 'string' && typeof config.currency === 'string') this.accounts.set(config.id, config);
          else this.warnings.push(`${file}: line ${i + 1} is not an account record; ignored`);
        } catch {
          this.warnings.push(`${file}: line ${i + 1} is not JSON; ignored`);
        }
      });
  }

  /** The config an account was first opened with here, if recorded. */
  recordedAccount(id: string): AccountConfig | undefined {
    return this.accounts.get(id);
  }

  /** Records an account's config before it is opened (once per account). */
  recordAccount(config: AccountConfig): void {
    if (this.accounts.has(config.id)) return;
    appendLine(this.accountsFile, JSON.stringify(config), this.fsync);
    this.accounts.set(config.id, config);
  }

  /** Appends one line of run information to runs.ndjson. */
  recordRun(info: Record<string, unknown>): void {
    appendLine(join(this.dir, 'runs.ndjson'), JSON.stringify(info), this.fsync);
  }

  close(): void {
    this.journal.close();
    if (!this.locked) return;
    this.locked = false;
    openHere.delete(realpathSync(this.dir));
    const lock = join(this.dir, LOCK);
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

const LOCK = 'v20sim.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`data dir ${dir} is in use by process ${pid} (if that process is gone, delete ${join(dir, LOCK)})`);
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Data dirs this process has open: the lock file cannot tell them apart from a stale lock of ours. */
const openHere = new Set<string>();

function lockAndOpen(dir: string, fsync: boolean): FileJournal {
  mkdirSync(dir, { recursive: true });
  const key = realpathSync(dir);
  if (openHere.has(key)) throw new DataDirLockedError(dir, process.pid);
  const lock = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      // A stale lock of a killed server (our own pid too: a restarted container is pid 1 again).
      unlinkSync(lock);
    }
  }
  try {
    const journal = FileJournal.open(dir, { fsync });
    openHere.add(key);
    return journal;
  } catch (error) {
    unlinkSync(lock);
    throw error;
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
  return `journal ${r.file}: ${r.reason} at byte ${r.offset}: moved ${r.bytes} byte${r.bytes === 1 ? '' : 's'} to ${r.movedTo} and continued with the transactions before it (none of them had been acknowledged)`;
}
