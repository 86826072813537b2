import type { JournalEntry, TrailingStopValueRecord } from '../domain/journal-entry.js';
import type { Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { evolve } from './evolve.js';
import type { AccountState } from './state.js';
import { levelFromMarket, trailingStopValueRecord } from './trailing-stops.js';

type Body<T> = T extends Transaction ? Omit<T, 'id' | 'accountID' | 'userID' | 'batchID' | 'requestID' | 'time'> : never;
export type TransactionBody = Body<Transaction>;

/** A journal record and how many of the batch's transactions precede it. */
interface PlacedRecord {
  readonly after: number;
  readonly record: TrailingStopValueRecord;
}

/**
 * The transactions one command or one quote creates. Decisions never touch state directly: each
 * transaction is stamped (consecutive ID, shared batchID, simulated time) and folded in through
 * evolve() at once, so later steps of the batch decide on the state the earlier ones left (a fill
 * sees the order it fills, a stop loss on fill sees the trade). evolve() stays the only writer,
 * and it reads the transaction alone, so the journal rebuilds exactly the state decided on.
 */
export class Batch {
  readonly transactions: Transaction[] = [];
  readonly time: string;
  private batchID: string | undefined;
  /** Trailing stop levels set in this batch, for the journal (most batches have none). */
  private records: PlacedRecord[] | undefined;

  constructor(
    readonly state: AccountState,
    readonly now: Micros,
    private readonly requestID: string | undefined,
  ) {
    this.time = state.memo.batchTime(now);
  }

  /** The ID the next emitted transaction will get. */
  get nextId(): number {
    return this.state.lastTransactionID + 1;
  }

  /** Stamps, folds in and records a transaction. */
  emit<T extends Transaction>(body: Body<T>): T {
    const id = String(this.state.lastTransactionID + 1);
    if (this.batchID === undefined) this.batchID = id;
    // The header goes after the type's own fields, as OANDA's servers print them, and onto the
    // body itself: copying a thirty-field fill into a new object costs more than deciding it.
    const tx = body as unknown as Record<string, unknown>;
    tx['id'] = id;
    tx['accountID'] = this.state.id;
    tx['userID'] = this.state.userID;
    tx['batchID'] = this.batchID;
    if (this.requestID !== undefined) tx['requestID'] = this.requestID;
    tx['time'] = this.time;
    const transaction = tx as unknown as T;
    evolve(this.state, transaction);
    this.transactions.push(transaction);
    if (transaction.type === 'TRAILING_STOP_LOSS_ORDER') this.startTrailing(Number(id));
    return transaction;
  }

  /** A new trailing stop takes its first level from the market now (a decision: it reads the quote). */
  private startTrailing(orderId: number): void {
    const order = this.state.orders.get(orderId);
    if (order === undefined) return;
    const value2 = levelFromMarket(this.state, order);
    if (value2 === undefined) return;
    const record = trailingStopValueRecord(this.state, order, value2, this.time);
    evolve(this.state, record);
    (this.records ??= []).push({ after: this.transactions.length, record });
  }

  /** What the journal keeps of this batch: its transactions, each followed by the records it caused. */
  journalEntries(): readonly JournalEntry[] {
    const records = this.records;
    if (records === undefined) return this.transactions;
    const entries: JournalEntry[] = [];
    let r = 0;
    for (let i = 0; i <= this.transactions.length; i += 1) {
      for (; r < records.length && (records[r] as PlacedRecord).after === i; r += 1) entries.push((records[r] as PlacedRecord).record);
      const tx = this.transactions[i];
      if (tx !== undefined) entries.push(tx);
    }
    return entries;
  }
}
