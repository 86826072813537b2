import { isJournalRecord, isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { exportedCrc, sealOfLine, unsealLine } from './batch-seal.js';

// Finding the sound part of a journal file: the bytes up to its last complete, checksummed batch.

const NEWLINE = 0x0a;

/** A journal line as an entry: a transaction (string id and type) or a journal record. */
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

/** What a scan of a journal file's first `limit` bytes found. */
export interface JournalScan {
  /** End of the last sound batch (or, before the first sealed batch, of the last sound legacy line). */
  readonly end: number;
  /** The first batch or line that is damaged (a checksum or seal that does not match, a line that does not parse). */
  readonly damage: { readonly offset: number; readonly reason: string } | undefined;
  /** Why the bytes from `end` to `limit` are not sound, when there are any and no damage. */
  readonly tail: string;
}

/**
 * Walks the complete lines of buf[0, limit). Lines before the first sealed batch are a journal
 * written before batches were sealed: each stands alone and must parse (the first sealed batch
 * takes back the lines its count claims). From the first seal on, every line belongs to a sealed
 * batch whose line count and CRC-32C must match.
 */
export function scanJournal(buf: Buffer, limit: number = buf.length): JournalScan {
  let end = 0;
  /** Starts of the lines since the last seal, and the end of the last of them. */
  let starts: number[] = [];
  let sealed = false;
  let pos = 0;
  let lineNo = 0;
  while (pos < limit) {
    const nl = buf.indexOf(NEWLINE, pos);
    if (nl === -1 || nl >= limit) break;
    lineNo += 1;
    const seal = sealOfLine(buf, pos, nl);
    starts.push(pos);
    const lineStartAt = pos;
    pos = nl + 1;
    if (seal === undefined) {
      if (sealed) continue;
      const text = buf.toString('utf8', lineStartAt, nl);
      if (text.trim() !== '' && parseLine(text) === undefined)
        return { end, damage: { offset: lineStartAt, reason: `line ${lineNo} is not a transaction` }, tail: '' };
      end = pos;
      continue;
    }
    const first = starts.length - seal.lines;
    const batchStart = first >= 0 ? (starts[first] as number) : (starts[0] as number);
    // Before the first seal, lines ahead of the batch are an older version's unsealed journal.
    if (first < 0 || (sealed && first > 0))
      return {
        end: sealed ? end : batchStart,
        damage: { offset: batchStart, reason: `line ${lineNo} seals a batch of ${seal.lines} lines, but ${starts.length} lead up to it` },
        tail: '',
      };
    if (exportedCrc(buf, batchStart, seal.exportedEnd) !== seal.crc)
      return {
        end: batchStart,
        damage: { offset: batchStart, reason: `the batch ending at line ${lineNo} fails its CRC-32C (a changed byte)` },
        tail: '',
      };
    sealed = true;
    end = pos;
    starts = [];
  }
  const tail =
    end === limit
      ? ''
      : pos < limit && pos === end
        ? 'a torn last line (no trailing newline)'
        : pos < limit
          ? 'an unfinished batch and a torn last line'
          : 'an unfinished batch (no seal on its last line)';
  return { end, damage: undefined, tail };
}

/** Start of the line that ends just before `end` (end is one past its newline). */
function lineStart(buf: Buffer, end: number): number {
  return end >= 2 ? buf.lastIndexOf(NEWLINE, end - 2) + 1 : 0;
}

/** The last transaction before `end`, past any journal records after it. */
export function lastTransaction(buf: Buffer, end: number): Transaction | undefined {
  let at = end;
  while (at > 0) {
    const start = lineStart(buf, at);
    const text = unsealLine(buf.toString('utf8', start, at - 1)).text;
    at = start;
    if (text.trim() === '') continue;
    const entry = parseLine(text);
    if (entry === undefined) return undefined;
    if (isTransaction(entry)) return entry;
  }
  return undefined;
}

/** The highest transaction ID in buf[from, buf.length): what a cut would remove. */
export function highestId(buf: Buffer, from: number): number {
  let highest = 0;
  for (const line of buf.toString('utf8', from).split('\n')) {
    const entry = parseLine(unsealLine(line).text);
    if (entry === undefined) continue;
    const id = isTransaction(entry) ? Number(entry.id) : entry.type === 'TRANSACTIONS_LOST' ? Number(entry.toID) : 0;
    if (Number.isSafeInteger(id) && id > highest) highest = id;
  }
  return highest;
}
