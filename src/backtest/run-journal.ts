import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { serializeTransaction, transactionLines, type Journal } from '../journal/journal.js';

/** Where a run's journal lines go, and how the transactions the account no longer keeps are read back. */
export interface JournalStore {
  add(tx: Transaction, line: string): void;
  transactionsFrom(fromId: number): Iterable<Transaction>;
}

/** Every line in memory: runBacktest's result holds them. */
export class JournalLines implements JournalStore {
  readonly lines: string[] = [];

  add(_tx: Transaction, line: string): void {
    this.lines.push(line);
  }

  transactionsFrom(fromId: number): Iterable<Transaction> {
    return transactionLines(this.lines, fromId, 'the backtest journal');
  }
}

/** The engine's journal port: serializes each transaction into the store and queues it for the strategy. */
export class RecordingJournal implements Journal {
  readonly pending: Transaction[] = [];
  private readonly ids: string[] = [];

  constructor(private readonly store: JournalStore) {}

  append(accountId: string, entries: readonly JournalEntry[]): void {
    if (!this.ids.includes(accountId)) this.ids.push(accountId);
    // The report's log is the v20 transactions; a run is never replayed, so its records are not kept.
    for (const tx of entries) {
      if (!isTransaction(tx)) continue;
      this.store.add(tx, serializeTransaction(tx));
      this.pending.push(tx);
    }
  }

  read(): JournalEntry[] {
    return [];
  }

  /** The transactions older than the account's window (none without one). */
  transactionsFrom(_accountId: string, fromId: number): Iterable<Transaction> {
    return this.store.transactionsFrom(fromId);
  }

  accountIds(): string[] {
    return [...this.ids];
  }
}
