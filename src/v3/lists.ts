import type { AccountState, OrderRecord, TradeRecord } from '../account/state.js';
import { pendingOrders } from '../account/views.js';
import { openTradeRecords } from '../account/live-records.js';

/** What GET orders / GET trades filter on, already checked. */
export interface ListFilter {
  /** A state name, or 'ALL'. */
  readonly state: string;
  /** The instruments asked for (GET trades?instrument=EUR_USD,USD_JPY lists both); undefined: any. */
  readonly instruments?: ReadonlySet<string> | undefined;
  readonly ids?: ReadonlySet<number> | undefined;
  /** Exclusive upper bound on IDs. */
  readonly beforeID?: number | undefined;
  readonly count: number;
}

/**
 * Orders or trades as v20 lists them: matching the filter, newest first, at most `count`;
 * `more` says whether another page would follow. `newestFirst` yields the candidates highest ID
 * first and is read only until the page is full, so a page of an account's recent history does not
 * read the rest of it (a paged-out record is read back from disk: id-table.ts).
 */
export function listNewestFirst<T extends { readonly id: number; readonly state: string; readonly instrument: string }>(
  newestFirst: Iterable<T>,
  filter: ListFilter,
): { page: T[]; more: boolean } {
  const before = filter.beforeID ?? Number.POSITIVE_INFINITY;
  const page: T[] = [];
  for (const item of newestFirst) {
    if (item.id >= before || (filter.state !== 'ALL' && item.state !== filter.state)) continue;
    if (
      (filter.ids !== undefined && !filter.ids.has(item.id)) ||
      (filter.instruments !== undefined && !filter.instruments.has(item.instrument))
    )
      continue;
    if (page.length === filter.count) return { page, more: true };
    page.push(item);
  }
  return { page, more: false };
}

/** GET pendingOrders: every pending order, newest first (no paging). */
export function pendingOrdersNewestFirst(state: AccountState): OrderRecord[] {
  return pendingOrders(state).reverse();
}

/** GET openTrades: every open trade, newest first (no paging). */
export function openTradesNewestFirst(state: AccountState): TradeRecord[] {
  return openTradeRecords(state).reverse();
}
