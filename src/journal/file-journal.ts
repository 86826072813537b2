import { closeSync, constants, existsSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { sealBatch, unsealLine } from './batch-seal.js';
import { commitBytes } from './commit-record.js';
import { JournalCorruptError, JournalDamagedError, JournalWriteError, type JournalDamage, type JournalRecovery } from './file-errors.js';
import { readWhole, syncDir, writeAll } from './file-io.js';
import { committedLines, committedLinesOf } from './file-lines.js';
import { serializeEntry, transactionLines, type Journal } from './journal.js';
import { applyPlan, damageOf, planFile, removeStaleTemporaries, type PlannedFile } from './recover-file.js';
import { parseLine } from './sound-prefix.js';

/** The lines as exported: a batch's last line without its seal. */
function* unsealed(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield unsealLine(line).text;
}

/**
 * The append-only file journal: one NDJSON file per account, `<dir>/<accountId>.ndjson`, one
 * journal entry per line. Each append (one batch of the engine) is a single write to a file opened
 * in append mode, made before append() returns; the engine appends inside execute(), so a
 * transaction is on disk (in the OS page cache: it survives a killed process; with `fsync` also a
 * power cut) before any response mentions it.
 *
 * Batches are sealed and committed. The batch's last line carries its line count and CRC-32C
 * (batch-seal.ts; read() and text() give the exported bytes without it, the same as
 * MemoryJournal's). After the batch write, the commit record `<accountId>.commit` gets the file
 * length and the last transaction ID (commit-record.ts, one small positional write).
 *
 * open() holds every journal against its commit record (recovery-plan.ts). Bytes past it were
 * never acknowledged (a process killed inside a batch write): they are moved aside to
 * `<file>.torn-<offset>` and reported, so a half batch is never replayed. A journal shorter than
 * its commit record, or with a batch whose checksum fails, lost acknowledged transactions: open()
 * refuses it (JournalDamagedError, nothing changed) unless `recoverTruncated` accepts the loss,
 * which cuts at the last sound batch, moves the rest to `<file>.damaged-<offset>`, writes a
 * TRANSACTIONS_LOST record so that the lost IDs are never given out again, and rewrites the
 * commit record to the truth. Journals without a commit file (copied, hand-made, or written before
 * commit records) are checked line by line: an unparsable or torn last line is moved aside.
 */
export interface FileJournalOptions {
  /** fdatasync after every append: durable across power loss, not only a killed process. */
  readonly fsync?: boolean;
  /** Files kept open at once; older ones are closed and reopened on demand. Default 256. */
  readonly maxOpenFiles?: number;
  /** Accept the loss of acknowledged transactions in damaged journals (recorded in `recoveries`) instead of refusing to open. */
  readonly recoverTruncated?: boolean;
}

const SUFFIX = '.ndjson';
const COMMIT_SUFFIX = '.commit';
/**
 * Account IDs become file names. v20 IDs are digits and dashes (101-004-1435156-001), and only
 * such names are journals: other files in the directory (the CLI's accounts.ndjson) are not.
 */
const SAFE_ID_RE = /^[0-9]{1,20}(?:-[0-9]{1,20}){0,7}$/;
const DEFAULT_MAX_OPEN = 256;
/** The seal of a batch's last line (batch-seal.ts), for stripping a whole text at once. */
const SEAL_AT_LINE_END = /,"batch":\{"lines":[1-9]\d{0,8},"crc32c":"[0-9a-f]{8}"\}\}$/gm;

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
  /** The last acknowledged transaction ID of every known journal (lost ones included), for its commit record. */
  private readonly lastIds = new Map<string, number>();
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

  /**
   * Opens (creating it if needed) a data directory, recovering every journal in it. Throws
   * JournalDamagedError, having changed nothing, when a journal lost acknowledged transactions
   * and `recoverTruncated` is not set.
   */
  static open(dir: string, options: FileJournalOptions = {}): FileJournal {
    mkdirSync(dir, { recursive: true });
    removeStaleTemporaries(dir);
    const recoveries: JournalRecovery[] = [];
    const journal = new FileJournal(dir, options, recoveries);
    const planned: PlannedFile[] = [];
    const damages: JournalDamage[] = [];
    const names = readdirSync(dir);
    // A commit record without its journal counts too: a deleted journal lost what the record says was acknowledged.
    const ids = new Set<string>();
    for (const name of names) {
      const suffix = name.endsWith(SUFFIX) ? SUFFIX : name.endsWith(COMMIT_SUFFIX) ? COMMIT_SUFFIX : undefined;
      const accountId = suffix === undefined ? '' : name.slice(0, -suffix.length);
      if (SAFE_ID_RE.test(accountId)) ids.add(accountId);
    }
    for (const accountId of [...ids].sort()) {
      const p = planFile(accountId, journal.path(accountId), journal.commitPath(accountId));
      planned.push(p);
      const damage = damageOf(p);
      if (damage !== undefined) damages.push(damage);
    }
    if (damages.length > 0 && options.recoverTruncated !== true) throw new JournalDamagedError(damages);
    for (const p of planned) {
      const { size, last, lastId } = applyPlan(p, journal.fsync, recoveries);
      journal.sizes.set(p.accountId, size);
      journal.lastIds.set(p.accountId, lastId);
      if (last !== undefined) journal.lastTx.set(p.accountId, last);
    }
    return journal;
  }

  path(accountId: string): string {
    checkId(accountId);
    return join(this.dir, `${accountId}${SUFFIX}`);
  }

  commitPath(accountId: string): string {
    return join(this.dir, `${accountId}${COMMIT_SUFFIX}`);
  }

  append(accountId: string, entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    if (this.closed) throw new Error('journal: append after close');
    let last: Transaction | undefined;
    for (const entry of entries) if (isTransaction(entry)) last = entry;
    const buf = Buffer.from(sealBatch(entries.map(serializeEntry)), 'utf8');
    const committed = this.sizes.get(accountId) ?? 0;
    const lastId = last === undefined ? (this.lastIds.get(accountId) ?? 0) : Number(last.id);
    let handle: Handle | undefined;
    try {
      handle = this.handle(accountId);
      const size = committed + buf.length;
      writeAll(handle.fd, buf);
      if (this.fsync) fdatasyncSync(handle.fd);
      writeAll(handle.commitFd, commitBytes(size, lastId), 0);
      if (this.fsync) fdatasyncSync(handle.commitFd);
      this.sizes.set(accountId, size);
      this.lastIds.set(accountId, lastId);
    } catch (error) {
      // Nothing of the batch counts: cut what reached the file, so a later batch does not follow a partial one.
      if (handle !== undefined) this.cutBack(handle, committed);
      throw new JournalWriteError(this.path(accountId), error);
    }
    if (last !== undefined) this.lastTx.set(accountId, last);
  }

  /** Best effort: the commit record still says `committed`, so open() would cut there anyway. */
  private cutBack(handle: Handle, committed: number): void {
    try {
      ftruncateSync(handle.fd, committed);
    } catch {
      // The commit record still marks the end of the last whole batch.
    }
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
    const created = !existsSync(file) || !existsSync(this.commitPath(accountId));
    const fd = openSync(file, 'a', 0o644);
    let commitFd: number;
    try {
      commitFd = openSync(this.commitPath(accountId), constants.O_RDWR | constants.O_CREAT, 0o644);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    // New files: with fsync their directory entries are made durable too, before a batch in them is acknowledged.
    if (created && this.fsync) syncDir(this.dir);
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
    return [...this.entries(accountId)];
  }

  /** Every committed entry of an account, oldest first, read as iterated (Journal.entries). */
  *entries(accountId: string): Generator<JournalEntry> {
    const file = this.path(accountId);
    const size = this.sizes.get(accountId) ?? 0;
    for (const { text, line, offset } of committedLinesOf(file, () => size)) {
      const entry = parseLine(unsealLine(text).text);
      if (entry === undefined) throw new JournalCorruptError(file, line, offset, 'is not a transaction');
      yield entry;
    }
  }

  /** The committed transactions of an account from ID `fromId` on, read lazily (Journal.transactionsFrom). */
  transactionsFrom(accountId: string, fromId: number): Iterable<Transaction> {
    const lines = committedLines(this.path(accountId), () => this.sizes.get(accountId) ?? 0);
    // A batch's last line carries its seal: read the line as exported, without it.
    return transactionLines(unsealed(lines), fromId, this.path(accountId));
  }

  /** The committed journal bytes of an account as NDJSON text. */
  text(accountId: string): string {
    const size = this.sizes.get(accountId) ?? 0;
    if (size === 0) return '';
    return readWhole(this.path(accountId)).toString('utf8', 0, size).replace(SEAL_AT_LINE_END, '}');
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

  /** The committed bytes of every journal: what a restart reads. */
  committedBytes(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of [...this.order]) this.closeHandle(id);
    this.order.length = 0;
  }
}
