import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import { transactionJson } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';

/**
 * The persistence port: the transaction log of every account, in order. The journal is the source
 * of truth; accounts, orders, trades, positions and the trigger index are folded from it.
 */
export interface Journal {
  /** Appends a batch: its transactions, with the trailing stop levels they caused among them. */
  append(accountId: string, entries: readonly JournalEntry[]): void;
  /** Every entry of an account, oldest first. */
  read(accountId: string): JournalEntry[];
  /**
   * The same entries read as they are iterated: how a restart replays a long journal without
   * holding all of it at once. Stop iterating to stop reading.
   */
  entries(accountId: string): Iterable<JournalEntry>;
  /**
   * The account's transactions (not its records) from ID `fromId` on, oldest first, read as they
   * are iterated: how a bounded TransactionLog (src/account/transaction-log.ts) reads what it no
   * longer keeps in memory. Stop iterating to stop reading.
   */
  transactionsFrom(accountId: string, fromId: number): Iterable<Transaction>;
  accountIds(): string[];
}

/** One transaction per line, as the journal and the transaction stream write it: JSON.stringify(tx), byte for byte. */
export function serializeTransaction(tx: Transaction): string {
  return transactionJson(tx);
}

/** One journal line: a transaction as serializeTransaction prints it, a record as JSON.stringify does. */
export function serializeEntry(entry: JournalEntry): string {
  return transactionJson(entry as Transaction);
}

const ENTRY_PREFIX = '{"type":"';
const RECORD_PREFIX = '{"type":"TRAILING_STOP_VALUE"';
const LOST_PREFIX = '{"type":"TRANSACTIONS_LOST"';

/**
 * The transactions among journal lines from ID `fromId` on. Transaction IDs count from 1 without
 * gaps (but at a TRANSACTIONS_LOST record, which moves the count to its toID), so the Nth
 * transaction line is transaction N and the lines before `fromId` are skipped unparsed. serializeEntry writes every entry's type first: a record line, or any line that is
 * not an entry, takes no ID. Each transaction yielded is checked to carry its expected ID.
 */
export function* transactionLines(lines: Iterable<string>, fromId: number, where: string): Generator<Transaction> {
  let id = 0;
  for (const line of lines) {
    if (!line.startsWith(ENTRY_PREFIX) || line.startsWith(RECORD_PREFIX)) continue;
    // After a recovery that accepted lost transactions, IDs resume past the highest acknowledged.
    if (line.startsWith(LOST_PREFIX)) {
      id = Number((JSON.parse(line) as { toID: string }).toID);
      continue;
    }
    id += 1;
    if (id < fromId) continue;
    const tx = JSON.parse(line) as Transaction;
    if (tx.id !== String(id)) throw new Error(`${where}: transaction line ${id} holds ID ${String(tx.id)}`);
    yield tx;
  }
}

/**
 * Keeps each account's entries and prints them as lines when read: the same bytes a file journal
 * holds. An entry is final once journaled (evolve reads transactions, never writes them; a changed
 * order or trade gets new objects), so a line printed later is the line printed at once
 * (transaction-lines.prop.test.ts compares the two). Printing each as it came cost a serialization
 * per transaction on the order path and a second copy of the log for the garbage collector to
 * carry, for lines most servers never read.
 */
export class MemoryJournal implements Journal {
  private readonly kept = new Map<string, JournalEntry[]>();

  append(accountId: string, entries: readonly JournalEntry[]): void {
    let kept = this.kept.get(accountId);
    if (kept === undefined) {
      kept = [];
      this.kept.set(accountId, kept);
    }
    for (const entry of entries) kept.push(entry);
  }

  /** Copies, as a file journal's reader would get them: a caller's change reaches no line. */
  read(accountId: string): JournalEntry[] {
    return [...this.entries(accountId)];
  }

  *entries(accountId: string): Generator<JournalEntry> {
    for (const line of this.lines(accountId)) yield JSON.parse(line) as JournalEntry;
  }

  transactionsFrom(accountId: string, fromId: number): Iterable<Transaction> {
    return transactionCopies(this.kept.get(accountId) ?? [], fromId);
  }

  accountIds(): string[] {
    return [...this.kept.keys()];
  }

  /** The log as NDJSON text, for byte-for-byte comparison and export. */
  text(accountId: string): string {
    const lines = [...this.lines(accountId)];
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  lineCount(accountId: string): number {
    return this.kept.get(accountId)?.length ?? 0;
  }

  private *lines(accountId: string): Generator<string> {
    for (const entry of this.kept.get(accountId) ?? []) yield serializeEntry(entry);
  }
}

/** The transactions among entries from ID `fromId` on, each a copy read back from its line; only those are printed. */
function* transactionCopies(entries: readonly JournalEntry[], fromId: number): Generator<Transaction> {
  for (const entry of entries) {
    if (!isTransaction(entry) || Number(entry.id) < fromId) continue;
    yield JSON.parse(serializeEntry(entry)) as Transaction;
  }
}
