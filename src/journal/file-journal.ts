import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isJournalRecord, isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { serializeEntry, type Journal } from './journal.js';

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

/** What open() moved aside from a journal file. */
export interface JournalRecovery {
  readonly accountId: string;
  readonly file: string;
  /** Byte offset the journal was cut back to: the end of its last complete batch. */
  readonly offset: number;
  /** Bytes moved aside. */
  readonly bytes: number;
  readonly movedTo: string;
  readonly reason: string;
}

export class JournalCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly offset: number,
    detail: string,
  ) {
    super(`journal ${file}: line ${line} (byte ${offset}) ${detail}`);
    this.name = 'JournalCorruptError';
  }
}

/** A write to the journal failed: the account in memory is ahead of its file. */
export class JournalWriteError extends Error {
  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(`journal ${file}: write failed: ${(cause as Error).message}`);
    this.name = 'JournalWriteError';
  }
}

const SUFFIX = '.ndjson';
const COMMIT_SUFFIX = '.commit';
/**
 * Account IDs become file names. v20 IDs are digits and dashes (101-004-1435156-001), and only
 * such names are journals: other files in the directory (the CLI's accounts.ndjson) are not.
 */
const SAFE_ID_RE = /^[0-9]{1,20}(?:-[0-9]{1,20}){0,7}$/;
const COMMIT_WIDTH = 20;
const READ_CHUNK = 1 << 20;
const DEFAULT_MAX_OPEN = 256;
const NEWLINE = 0x0a;

interface Handle {
  readonly fd: number;
  readonly commitFd: number;
}

function checkId(accountId: string): void {
  if (!SAFE_ID_RE.test(accountId)) throw new Error(`journal: account ID ${JSON.stringify(accountId)} cannot name a file`);
}

function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const buf = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, buf, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    return done === size ? buf : buf.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, buf: Buffer, position?: number): void {
  let done = 0;
  while (done < buf.length) {
    const n =
      position === undefined ? writeSync(fd, buf, done, buf.length - done) : writeSync(fd, buf, done, buf.length - done, position + done);
    done += n;
  }
}

function readCommitted(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const text = readWhole(file).toString('latin1').trim();
  if (!/^\d{1,20}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

function commitBytes(size: number): Buffer {
  return Buffer.from(`${String(size).padStart(COMMIT_WIDTH, '0')}\n`, 'latin1');
}

/** A journal line as an entry: a transaction (string id and type) or a trailing stop level record. */
function parseLine(text: string): JournalEntry | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (isJournalRecord(value)) return value as JournalEntry;
    const tx = value as Partial<Transaction>;
    return typeof tx.id === 'string' && typeof tx.type === 'string' ? (value as Transaction) : undefined;
  } catch {
    return undefined;
  }
}

/** Start of the line that ends just before `end` (end is one past its newline). */
function lineStart(buf: Buffer, end: number): number {
  return end >= 2 ? buf.lastIndexOf(NEWLINE, end - 2) + 1 : 0;
}

/** The last non-blank line before `end` parsed, with its start; undefined text when none. */
function lastLine(buf: Buffer, end: number): { start: number; tx: JournalEntry | undefined } | undefined {
  let at = end;
  while (at > 0) {
    const start = lineStart(buf, at);
    const text = buf.toString('utf8', start, at - 1);
    if (text.trim() !== '') return { start, tx: parseLine(text) };
    at = start;
  }
  return undefined;
}

/** The last transaction before `end`, past any trailing stop level records after it. */
function lastTransaction(buf: Buffer, end: number): Transaction | undefined {
  let at = end;
  for (;;) {
    const line = lastLine(buf, at);
    if (line === undefined || line.tx === undefined) return undefined;
    if (isTransaction(line.tx)) return line.tx;
    at = line.start;
  }
}

/**
 * How much of a journal file is sound, and the last transaction in it. A commit length that ends
 * on a line boundary inside the file is trusted; otherwise the file is checked line by line.
 */
function soundPrefix(buf: Buffer, committed: number | undefined): { end: number; last: Transaction | undefined; reason: string } {
  if (committed !== undefined && committed <= buf.length && (committed === 0 || buf[committed - 1] === NEWLINE)) {
    const reason = committed < buf.length ? 'an unfinished write after the last committed batch' : '';
    // A committed line that does not parse is corruption, not a torn write: read() reports it.
    return { end: committed, last: lastTransaction(buf, committed), reason };
  }
  let end = buf.length === 0 ? 0 : buf.lastIndexOf(NEWLINE, buf.length - 1) + 1;
  let reason = end < buf.length ? 'a torn last line (no trailing newline)' : '';
  const last = lastLine(buf, end);
  if (last !== undefined && last.tx === undefined) {
    if (reason === '') reason = 'an unparsable last line';
    end = last.start;
    return { end, last: lastTransaction(buf, end), reason };
  }
  return { end, last: lastTransaction(buf, end), reason };
}

function freeName(base: string): string {
  if (!existsSync(base)) return base;
  for (let n = 2; ; n += 1) if (!existsSync(`${base}-${n}`)) return `${base}-${n}`;
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
    this.forEachLine(accountId, (text, line, offset) => {
      const entry = parseLine(text);
      if (entry === undefined) throw new JournalCorruptError(this.path(accountId), line, offset, 'is not a transaction');
      out.push(entry);
    });
    return out;
  }

  /** The committed journal bytes of an account as NDJSON text. */
  text(accountId: string): string {
    const size = this.sizes.get(accountId) ?? 0;
    if (size === 0) return '';
    return readWhole(this.path(accountId)).toString('utf8', 0, size);
  }

  /** Streams the committed lines in 1 MiB reads, so a large journal is never one string. */
  private forEachLine(accountId: string, visit: (text: string, line: number, offset: number) => void): void {
    const size = this.sizes.get(accountId) ?? 0;
    if (size === 0) return;
    const fd = openSync(this.path(accountId), 'r');
    try {
      let carry = Buffer.alloc(0);
      let position = 0;
      let line = 0;
      let lineOffset = 0;
      const chunk = Buffer.allocUnsafe(READ_CHUNK);
      while (position < size) {
        const n = readSync(fd, chunk, 0, Math.min(READ_CHUNK, size - position), position);
        if (n === 0) break;
        position += n;
        const data = carry.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carry, chunk.subarray(0, n)]);
        let start = 0;
        for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
          line += 1;
          const text = data.toString('utf8', start, nl);
          if (text.trim() !== '') visit(text, line, lineOffset);
          lineOffset += nl + 1 - start;
          start = nl + 1;
        }
        carry = Buffer.from(data.subarray(start));
      }
      if (carry.length > 0) throw new JournalCorruptError(this.path(accountId), line + 1, lineOffset, 'has no trailing newline');
    } finally {
      closeSync(fd);
    }
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
