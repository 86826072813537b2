import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import { freezeTransaction } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';
import type { Journal } from '../journal/journal.js';

/** Where a run's transactions go, and how the transactions the account no longer keeps are read back. */
export interface JournalStore {
  add(tx: Transaction): void;
  transactionsFrom(fromId: number): Iterable<Transaction>;
}

/**
 * Every transaction in memory, for an account that keeps only a window of them (runBacktest's
 * result prints the journal lines from the log only when asked: printing each as it happened cost
 * a serialization per transaction inside the tick loop, and kept a second copy of the log alive
 * for the garbage collector to carry).
 */
export class KeptTransactions implements JournalStore {
  private readonly kept: Transaction[] = [];

  add(tx: Transaction): void {
    this.kept.push(tx);
  }

  transactionsFrom(fromId: number): Iterable<Transaction> {
    return this.kept.slice(Math.max(0, fromId - 1));
  }
}

/**
 * The engine's journal port: hands each transaction to the store and queues it for the strategy,
 * frozen. Every transaction a strategy sees (onTransaction, an operation's response,
 * transactionsSince) is the object the run's log, report and journal hold, so a strategy that
 * wrote to one (`fill.units = Number(fill.units)`) would change what the run reports; frozen, the
 * write throws in the strategy's hook instead (ES modules run strict) and nothing changes.
 */
export class RecordingJournal implements Journal {
  readonly pending: Transaction[] = [];
  private readonly ids: string[] = [];

  constructor(private readonly store: JournalStore) {}

  append(accountId: string, entries: readonly JournalEntry[]): void {
    if (!this.ids.includes(accountId)) this.ids.push(accountId);
    // The report's log is the v20 transactions; a run is never replayed, so its records are not kept.
    for (const tx of entries) {
      if (!isTransaction(tx)) continue;
      this.store.add(tx);
      this.pending.push(freezeTransaction(tx));
    }
  }

  read(): JournalEntry[] {
    return [];
  }

  entries(): Iterable<JournalEntry> {
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
