import type { JournalEntry } from '../domain/journal-entry.js';
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

/** Keeps each account's log as serialized lines: the same bytes a file journal would hold. */
export class MemoryJournal implements Journal {
  private readonly lines = new Map<string, string[]>();

  append(accountId: string, entries: readonly JournalEntry[]): void {
    let lines = this.lines.get(accountId);
    if (lines === undefined) {
      lines = [];
      this.lines.set(accountId, lines);
    }
    for (const entry of entries) lines.push(serializeEntry(entry));
  }

  read(accountId: string): JournalEntry[] {
    return (this.lines.get(accountId) ?? []).map((line) => JSON.parse(line) as JournalEntry);
  }

  transactionsFrom(accountId: string, fromId: number): Iterable<Transaction> {
    return transactionLines(this.lines.get(accountId) ?? [], fromId, `the memory journal of ${accountId}`);
  }

  accountIds(): string[] {
    return [...this.lines.keys()];
  }

  /** The log as NDJSON text, for byte-for-byte comparison and export. */
  text(accountId: string): string {
    const lines = this.lines.get(accountId) ?? [];
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  lineCount(accountId: string): number {
    return this.lines.get(accountId)?.length ?? 0;
  }
}
