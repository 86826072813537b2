import type { Transaction } from './transactions.js';

/**
 * The new level of a trailing stop loss order. v20 moves a trailing stop with the market without
 * a transaction (the level shows only as the order's `trailingStopValue`), yet replaying a journal
 * must rebuild it, so the journal keeps it as a line of its own. It is not a transaction: it has
 * no ID, takes no transaction ID, and no API view, stream or report of transactions shows it.
 * Accounts without trailing stops never write one, so their journals are transactions only.
 */
export interface TrailingStopValueRecord {
  readonly type: 'TRAILING_STOP_VALUE';
  /** The pending TRAILING_STOP_LOSS order whose level moved. */
  readonly orderID: string;
  /**
   * The level at the instrument's display precision, with one more digit (a 5) when it lies half
   * way between two ticks of the grid (a stop that watches the mid price).
   */
  readonly trailingStopValue: string;
  /** When the level moved: the quote's time, or the time of the batch that created the order. */
  readonly time: string;
}

/**
 * Transaction IDs given out and acknowledged, whose transactions a damaged journal no longer
 * holds. Only an operator's explicit recovery (`serve --recover-truncated`) writes one, at the
 * cut: replaying it moves the account's last transaction ID to `toID`, so the next transaction
 * continues after the highest ID ever acknowledged and no ID is given out twice.
 */
export interface TransactionsLostRecord {
  readonly type: 'TRANSACTIONS_LOST';
  /** The first lost ID: one past the last transaction the journal still holds. */
  readonly fromID: string;
  /** The last acknowledged ID, from the journal's commit record. */
  readonly toID: string;
  /** The time of the last transaction kept (the account's clock resumes there). */
  readonly time: string;
}

/** A journal line that is not a transaction. */
export type JournalRecord = TrailingStopValueRecord | TransactionsLostRecord;

/** One line of an account's journal, in the order it was written. */
export type JournalEntry = Transaction | JournalRecord;

export function isTransaction(entry: JournalEntry): entry is Transaction {
  return entry.type !== 'TRAILING_STOP_VALUE' && entry.type !== 'TRANSACTIONS_LOST';
}

/** Whether a parsed journal line is a (well-formed) record rather than a transaction. */
export function isJournalRecord(value: {
  readonly type?: unknown;
  readonly orderID?: unknown;
  readonly trailingStopValue?: unknown;
  readonly fromID?: unknown;
  readonly toID?: unknown;
}): boolean {
  if (value.type === 'TRANSACTIONS_LOST') return typeof value.fromID === 'string' && typeof value.toID === 'string';
  return value.type === 'TRAILING_STOP_VALUE' && typeof value.orderID === 'string' && typeof value.trailingStopValue === 'string';
}
