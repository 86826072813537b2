/**
 * Order book and position book snapshots of an engine's own accounts (all of them), taken as the
 * simulated clock crosses each 20-minute boundary (domain/books.ts), so the same ticks and commands
 * give the same books. OANDA's books summarise its clients' orders and positions; the simulator's
 * clients are its accounts.
 *
 * What counts, after OANDA's order book page ("Open Orders: a snapshot of the trigger points for
 * all open orders held by OANDA clients (meaning limit orders and Stop/Loss or Take/Profit orders on
 * open trades)"; "Open Positions: a snapshot of the entry prices for all open positions"):
 * - order book: every pending order, entry orders (LIMIT, STOP, MARKET_IF_TOUCHED) and the orders
 *   on trades (TAKE_PROFIT, STOP_LOSS, GUARANTEED_STOP_LOSS, TRAILING_STOP_LOSS), at its trigger
 *   price; a trailing stop at its current level, left out until the market has given it one. A buy
 *   order is long, a sell order short (a take profit on a long trade is a sell).
 * - position book: every open trade at its open price, long or short by its units.
 * Each entry counts once, whatever its units: the bucket fields are *Count*Percent.
 */
import type { OrderRecord, AccountState, TradeRecord } from '../account/state.js';
import { pendingOrderRecords } from '../account/live-records.js';
import { bucketize, bucketWidthInt, BOOK_INTERVAL, type BookBucket, type BookEntry } from '../domain/books.js';
import { Decimal } from '../domain/decimal.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { BOOK_SNAPSHOTS_MAX } from '../domain/limits.js';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import { parsePriceInt, scaleOf } from '../domain/price.js';
import type { Micros } from '../domain/time.js';

/** Both books of one instrument at one snapshot; prices on the instrument's integer grid. */
export interface InstrumentBooks {
  /** The mid price (bid + ask) / 2 of the latest quote before the snapshot, half up. */
  readonly mid: number;
  readonly bucketWidth: number;
  readonly orders: readonly BookBucket[];
  readonly positions: readonly BookBucket[];
}

export interface BookSnapshot {
  readonly time: Micros;
  /** Every instrument quoted before the snapshot, in catalogue order. */
  readonly instruments: ReadonlyMap<string, InstrumentBooks>;
}

/** A price text onto the grid, rounded down when it is finer (a fill's VWAP may be). */
function priceFloorInt(text: string, precision: number): number {
  return parsePriceInt(text, precision) ?? new Decimal(text).times(scaleOf(precision)).floor().toNumber();
}

/** Where a pending order would trigger, on the grid; undefined for no book entry. */
function orderBookPrice(order: OrderRecord, precision: number): number | undefined {
  if (order.state !== 'PENDING') return undefined;
  const trigger = ORDER_TYPE_RULES[order.type].trigger;
  if (trigger === null) return undefined;
  if (trigger === 'TRAILING') {
    const value2 = order.trailing?.value2;
    return value2 === undefined || Number.isNaN(value2) ? undefined : Math.floor(value2 / 2);
  }
  const price = order.create.price;
  return price === undefined ? undefined : priceFloorInt(price, precision);
}

function tradeEntry(trade: TradeRecord | undefined, long: boolean, precision: number): BookEntry | undefined {
  return trade === undefined || trade.state !== 'OPEN' ? undefined : { price: priceFloorInt(trade.price, precision), long };
}

/** The latest known mid of each instrument over the accounts (each account sees every quote from its opening). */
function latestMids(states: readonly Readonly<AccountState>[]): Map<string, { time: Micros; mid: number }> {
  const mids = new Map<string, { time: Micros; mid: number }>();
  for (const state of states) {
    for (const [instrument, slot] of state.prices) {
      if (!slot.known) continue;
      const seen = mids.get(instrument);
      if (seen === undefined || slot.time > seen.time)
        mids.set(instrument, { time: slot.time, mid: Math.floor((slot.bid + slot.ask + 1) / 2) });
    }
  }
  return mids;
}

function push(map: Map<string, BookEntry[]>, instrument: string, entry: BookEntry | undefined): void {
  if (entry === undefined) return;
  const list = map.get(instrument);
  if (list === undefined) map.set(instrument, [entry]);
  else list.push(entry);
}

/** Both books of every quoted instrument, from the accounts' state now, stamped `time`. */
export function captureBooks(
  time: Micros,
  states: readonly Readonly<AccountState>[],
  instruments: ReadonlyMap<string, InstrumentSpec>,
): BookSnapshot {
  const mids = latestMids(states);
  const orders = new Map<string, BookEntry[]>();
  const positions = new Map<string, BookEntry[]>();
  for (const state of states) {
    for (const order of pendingOrderRecords(state)) {
      const spec = instruments.get(order.instrument);
      if (spec === undefined || !mids.has(order.instrument)) continue;
      const price = orderBookPrice(order, spec.displayPrecision);
      if (price !== undefined) push(orders, order.instrument, { price, long: order.isBuy });
    }
    for (const position of state.positions.values()) {
      const spec = instruments.get(position.instrument);
      if (spec === undefined || !mids.has(position.instrument)) continue;
      for (const id of position.long.tradeIds)
        push(positions, position.instrument, tradeEntry(state.trades.get(id), true, spec.displayPrecision));
      for (const id of position.short.tradeIds)
        push(positions, position.instrument, tradeEntry(state.trades.get(id), false, spec.displayPrecision));
    }
  }
  const out = new Map<string, InstrumentBooks>();
  for (const [name, spec] of instruments) {
    const quote = mids.get(name);
    if (quote === undefined) continue;
    const width = bucketWidthInt(spec);
    out.set(name, {
      mid: quote.mid,
      bucketWidth: width,
      orders: bucketize(orders.get(name) ?? [], width),
      positions: bucketize(positions.get(name) ?? [], width),
    });
  }
  return { time, instruments: out };
}

/** The newest snapshots, oldest first, at most `max` of them. */
export class BookHistory {
  private readonly snapshots: BookSnapshot[] = [];

  constructor(private readonly max: number = BOOK_SNAPSHOTS_MAX) {}

  get size(): number {
    return this.snapshots.length;
  }

  /** Adds a snapshot newer than every kept one, dropping the oldest beyond the limit. */
  record(snapshot: BookSnapshot): void {
    const last = this.snapshots.at(-1);
    if (last !== undefined && snapshot.time <= last.time) throw new Error(`book snapshot at ${snapshot.time} is not after ${last.time}`);
    this.snapshots.push(snapshot);
    if (this.snapshots.length > this.max) this.snapshots.shift();
  }

  /** The newest kept snapshot taken at or before `time` (v20: "the snapshot at or before that time"). */
  at(time: Micros): BookSnapshot | undefined {
    const list = this.snapshots;
    let lo = 0;
    let hi = list.length;
    // The first index whose snapshot is after `time`; the one before it is the answer.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as BookSnapshot).time <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? undefined : list[lo - 1];
  }

  /**
   * The first boundary worth taking when `next` is due and `last` is the newest one a clock move
   * crosses: a jump over more than `max` boundaries would drop the older ones at once, so they are
   * not taken at all.
   */
  firstToTake(next: Micros, last: Micros): Micros {
    return Math.max(next, last - (this.max - 1) * BOOK_INTERVAL);
  }
}
