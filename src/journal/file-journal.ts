import { closeSync, constants, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { JournalCorruptError, JournalWriteError, type JournalRecovery } from './file-errors.js';
import { COMMIT_WIDTH, commitBytes, forEachCommittedLine, freeName, readCommitted, readWhole, writeAll } from './file-io.js';
import { committedLines } from './file-lines.js';
import { serializeEntry, transactionLines, type Journal } from './journal.js';
import { parseLine, soundPrefix } from './sound-prefix.js';

/**
 * The append-only file journal: one NDJSON file per account, `<dir>/<accountId>.ndjson`, one
 * transaction per line, the same bytes MemoryJournal holds. Each append (one batch of the engine)
 * is a single write to a file opened in append mode, made before append() returns; the engine
 * appends inside execute(), so a transaction is on disk (in the OS page cache: it survives a
 * killed process; with `fsync` also a power cut) before any response mentions it.
 *
 * Batches are atomic. After the batch write, the file length is written to `<accountId>.commit`
 * (one small positional write). A process killed inside a batch write leaves bytes past the
 * committed length (a torn line, or whole lines of an unfinished batch); open() moves them aside
 * to `<file>.torn-<offset>` and reports them, so a half batch (an order without its fill) is never
 * replayed and an acknowledged batch is never dropped. Journals without a commit file (copied,
 * hand-made) are checked line by line: a last line without newline, or one that does not parse,
 * is moved aside the same way. A bad line elsewhere is corruption: read() refuses it.
 */
export interface FileJournalOptions {
  /** fdatasync after every append: durable across power loss, not only a killed process. */
  readonly fsync?: boolean;
  /** Files kept open at once; older ones are closed and reopened on demand. Default 256. */
  readonly maxOpenFiles?: number;
}

const SUFFIX = '.ndjson';
const COMMIT_SUFFIX = '.commit';
/**
 * Account IDs become file names. v20 IDs are digits and dashes (101-004-1435156-001), and only
 * such names are journals: other files in the directory (the CLI's accounts.ndjson) are not.
 */
const SAFE_ID_RE = /^[0-9]{1,20}(?:-[0-9]{1,20}){0,7}$/;
const DEFAULT_MAX_OPEN = 256;

interface Handle {
  readonly fd: number;
  readonly commitFd: number;
}

function checkId(accountId: string): void {
  if (!SAFE_ID_RE.test(accountId)) throw new Error(`journal: account ID ${JSON.stringify(accountId)} cannot name a file`);
}

/** The file journal of a data directory. Open with FileJournal.open(dir). */
export class FileJournal implements Journal {
  readonly dir: string;
  /** What open() moved aside, one entry per damaged file, for the caller to report. */
  readonly recoveries: readonly JournalRecovery[];
  private readonly fsync: boolean;
  private readonly maxOpen: number;
  /** Committed length of every known journal file. */
  private readonly sizes = new Map<string, number>();
  private readonly lastTx = new Map<string, Transaction>();
  /** Open files, least recently used first. */
  private readonly handles = new Map<string, Handle>();
  private readonly order: string[] = [];
  private closed = false;

  private constructor(dir: string, options: FileJournalOptions, recoveries: JournalRecovery[]) {
    this.dir = dir;
    this.fsync = options.fsync ?? false;
    this.maxOpen = Math.max(1, options.maxOpenFiles ?? DEFAULT_MAX_OPEN);
    this.recoveries = recoveries;
  }

  /** Opens (creating it if needed) a data directory, recovering every journal in it. */
  static open(dir: string, options: FileJournalOptions = {}): FileJournal {
    mkdirSync(dir, { recursive: true });
    const recoveries: JournalRecovery[] = [];
    const journal = new FileJournal(dir, options, recoveries);
    const names = readdirSync(dir)
      .filter((n) => n.endsWith(SUFFIX))
      .sort();
    for (const name of names) {
      const accountId = name.slice(0, -SUFFIX.length);
      if (!SAFE_ID_RE.test(accountId)) continue;
      journal.recover(accountId, recoveries);
    }
    return journal;
  }

  private recover(accountId: string, recoveries: JournalRecovery[]): void {
    const file = this.path(accountId);
    const commitFile = this.commitPath(accountId);
    const buf = readWhole(file);
    const committed = readCommitted(commitFile);
    const { end, last, reason } = soundPrefix(buf, committed);
    if (end < buf.length) {
      const movedTo = freeName(`${file}.torn-${end}`);
      // The torn bytes are saved before the journal is cut: a crash here loses nothing.
      const out = openSync(movedTo, 'wx');
      try {
        writeAll(out, buf.subarray(end));
        fdatasyncSync(out);
      } finally {
        closeSync(out);
      }
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, end);
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
      recoveries.push({
        accountId,
        file,
        offset: end,
        bytes: buf.length - end,
        movedTo,
        reason: reason || 'bytes after the last complete transaction',
      });
    }
    if (committed !== end || end < buf.length) {
      const fd = openSync(commitFile, constants.O_RDWR | constants.O_CREAT, 0o644);
      try {
        writeAll(fd, commitBytes(end), 0);
        ftruncateSync(fd, COMMIT_WIDTH + 1);
      } finally {
        closeSync(fd);
      }
    }
    this.sizes.set(accountId, end);
    if (last !== undefined) this.lastTx.set(accountId, last);
  }

  path(accountId: string): string {
    checkId(accountId);
    return join(this.dir, `${accountId}${SUFFIX}`);
  }

  private commitPath(accountId: string): string {
    return join(this.dir, `${accountId}${COMMIT_SUFFIX}`);
  }

  append(accountId: string, entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    if (this.closed) throw new Error('journal: append after close');
    let text = '';
    let last: Transaction | undefined;
    for (const entry of entries) {
      text += `${serializeEntry(entry)}\n`;
      if (isTransaction(entry)) last = entry;
    }
    const buf = Buffer.from(text, 'utf8');
    try {
      const handle = this.handle(accountId);
      const size = (this.sizes.get(accountId) ?? 0) + buf.length;
      writeAll(handle.fd, buf);
      if (this.fsync) fdatasyncSync(handle.fd);
      writeAll(handle.commitFd, commitBytes(size), 0);
      if (this.fsync) fdatasyncSync(handle.commitFd);
      this.sizes.set(accountId, size);
    } catch (error) {
      throw new JournalWriteError(this.path(accountId), error);
    }
    if (last !== undefined) this.lastTx.set(accountId, last);
  }

  private handle(accountId: string): Handle {
    const existing = this.handles.get(accountId);
    if (existing !== undefined) {
      const at = this.order.indexOf(accountId);
      if (at !== this.order.length - 1) {
        this.order.splice(at, 1);
        this.order.push(accountId);
      }
      return existing;
    }
    const file = this.path(accountId);
    const fd = openSync(file, 'a', 0o644);
    let commitFd: number;
    try {
      commitFd = openSync(this.commitPath(accountId), constants.O_RDWR | constants.O_CREAT, 0o644);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (!this.sizes.has(accountId)) this.sizes.set(accountId, statSync(file).size);
    const handle = { fd, commitFd };
    this.handles.set(accountId, handle);
    this.order.push(accountId);
    while (this.order.length > this.maxOpen) {
      const oldest = this.order.shift() as string;
      this.closeHandle(oldest);
    }
    return handle;
  }

  private closeHandle(accountId: string): void {
    const handle = this.handles.get(accountId);
    if (handle === undefined) return;
    this.handles.delete(accountId);
    closeSync(handle.fd);
    closeSync(handle.commitFd);
  }

  /** Every committed entry of an account, oldest first; [] for an unknown account. */
  read(accountId: string): JournalEntry[] {
    const out: JournalEntry[] = [];
    forEachCommittedLine(this.path(accountId), this.sizes.get(accountId) ?? 0, (text, line, offset) => {
      const entry = parseLine(text);
      if (entry === undefined) throw new JournalCorruptError(this.path(accountId), line, offset, 'is not a transaction');
      out.push(entry);
    });
    return out;
  }

  /** The committed transactions of an account from ID `fromId` on, read lazily (Journal.transactionsFrom). */
  transactionsFrom(accountId: string, fromId: number): Iterable<Transaction> {
    const lines = committedLines(this.path(accountId), () => this.sizes.get(accountId) ?? 0);
    return transactionLines(lines, fromId, this.path(accountId));
  }

  /** The committed journal bytes of an account as NDJSON text. */
  text(accountId: string): string {
    const size = this.sizes.get(accountId) ?? 0;
    if (size === 0) return '';
    return readWhole(this.path(accountId)).toString('utf8', 0, size);
  }

  /** The last committed transaction of an account, without reading the file. */
  last(accountId: string): Transaction | undefined {
    return this.lastTx.get(accountId);
  }

  /** Accounts with at least one committed transaction, in file-name order. */
  accountIds(): string[] {
    const ids: string[] = [];
    for (const [id, size] of this.sizes) if (size > 0) ids.push(id);
    return ids.sort();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of [...this.order]) this.closeHandle(id);
    this.order.length = 0;
  }
}
