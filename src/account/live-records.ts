import type { AccountState, OrderRecord, TradeRecord } from './state.js';

/**
 * The IDs of an account's pending orders and open trades, so that listing them costs what is
 * live, not every order or trade the account ever had: a paper-trading server that has filled a
 * million orders lists its ten pending ones without reading the million. IDs are appended as the
 * records open (IDs only grow, so each list stays sorted, oldest first) and the ones that have
 * since ended are dropped when they outnumber the live ones: amortised O(1) a record, and a list
 * never holds more than twice its live records plus SLACK. Only evolve appends (through
 * `notePendingOrder` and `noteOpenTrade`); readers filter and never change the lists. A live record
 * is always in memory (only ended ones are paged out, id-table.ts), so liveness is read from
 * memory alone.
 */
const SLACK = 64;

function note(ids: number[], id: number, live: number, isLive: (id: number) => boolean): void {
  ids.push(id);
  if (ids.length <= 2 * live + SLACK) return;
  let kept = 0;
  for (let i = 0; i < ids.length; i += 1) {
    const each = ids[i] as number;
    if (isLive(each)) ids[kept++] = each;
  }
  ids.length = kept;
}

function isPending(order: OrderRecord | undefined): order is OrderRecord {
  return order !== undefined && order.state === 'PENDING';
}

function isOpen(trade: TradeRecord | undefined): trade is TradeRecord {
  return trade !== undefined && trade.state === 'OPEN';
}

/** A resting order was created (after pendingCount counted it). */
export function notePendingOrder(state: AccountState, id: number): void {
  note(state.pendingOrderIds, id, state.pendingCount, (each) => isPending(state.orders.resident(each)));
}

/** A trade was opened (after openTradeCount counted it). */
export function noteOpenTrade(state: AccountState, id: number): void {
  note(state.openTradeIds, id, state.openTradeCount, (each) => isOpen(state.trades.resident(each)));
}

function liveOf<T>(ids: readonly number[], get: (id: number) => T | undefined, isLive: (record: T | undefined) => record is T): T[] {
  const out: T[] = [];
  for (const id of ids) {
    const record = get(id);
    if (isLive(record)) out.push(record);
  }
  return out;
}

/** The pending orders, oldest first. */
export function pendingOrderRecords(state: AccountState): OrderRecord[] {
  return liveOf(state.pendingOrderIds, (id) => state.orders.resident(id), isPending);
}

/** The open trades, oldest first. */
export function openTradeRecords(state: AccountState): TradeRecord[] {
  return liveOf(state.openTradeIds, (id) => state.trades.resident(id), isOpen);
}
