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

/** A journal line that is not a transaction. */
type JournalRecord = TrailingStopValueRecord;

/** One line of an account's journal, in the order it was written. */
export type JournalEntry = Transaction | JournalRecord;

export function isTransaction(entry: JournalEntry): entry is Transaction {
  return entry.type !== 'TRAILING_STOP_VALUE';
}

/** Whether a parsed journal line is a (well-formed) record rather than a transaction. */
export function isJournalRecord(value: {
  readonly type?: unknown;
  readonly orderID?: unknown;
  readonly trailingStopValue?: unknown;
}): boolean {
  return value.type === 'TRAILING_STOP_VALUE' && typeof value.orderID === 'string' && typeof value.trailingStopValue === 'string';
}
