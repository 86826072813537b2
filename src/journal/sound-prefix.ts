import { isJournalRecord, isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';

// Finding the sound part of a journal file: the bytes up to its last complete batch.

const NEWLINE = 0x0a;

/** A journal line as an entry: a transaction (string id and type) or a trailing stop level record. */
export function parseLine(text: string): JournalEntry | undefined {
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
export function soundPrefix(buf: Buffer, committed: number | undefined): { end: number; last: Transaction | undefined; reason: string } {
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
