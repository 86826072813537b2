import { Decimal, ZERO } from './decimal.js';
import { toPriceInt } from './price.js';
import type { PriceLevel, Tick } from './tick.js';
import type { FillPrice, PriceBucket } from './transactions.js';

/**
 * Liquidity v20sim shows on every price bucket of a quote without levels: liquidity is then
 * unlimited, shown as one bucket of this size wherever v20 prints a price (pricing, streams, fills).
 */
export const SHOWN_LIQUIDITY = 10_000_000;

/**
 * One side of a quote's book on the instrument's integer price grid, best level first, with what
 * the fills of this quote have taken from each level (a level one fill used is not there for the
 * next order at the same quote; the next quote brings a fresh book).
 */
export interface BookSide {
  readonly prices: readonly number[];
  readonly liquidity: readonly number[];
  readonly used: Decimal[];
}

/** The levels of one quote; a side without levels (undefined) has unlimited liquidity. */
export interface QuoteBook {
  readonly bids: BookSide | undefined;
  readonly asks: BookSide | undefined;
  /** The quote as fills print it (fullPrice), made by the first fill of the quote and shared by the rest. */
  fillPrice: FillPrice | undefined;
}

function bookSide(levels: readonly PriceLevel[] | undefined, scale: number): BookSide | undefined {
  if (levels === undefined || levels.length === 0) return undefined;
  const prices: number[] = [];
  const liquidity: number[] = [];
  const used: Decimal[] = [];
  for (const level of levels) {
    prices.push(toPriceInt(level.price, scale));
    liquidity.push(level.liquidity);
    used.push(ZERO);
  }
  return { prices, liquidity, used };
}

/** The book of a quote with levels, on the grid of `scale` (10^displayPrecision); undefined without levels. */
export function quoteBook(tick: Tick, scale: number): QuoteBook | undefined {
  if (tick.bids === undefined && tick.asks === undefined) return undefined;
  const bids = bookSide(tick.bids, scale);
  const asks = bookSide(tick.asks, scale);
  return bids === undefined && asks === undefined ? undefined : { bids, asks, fillPrice: undefined };
}

/** What a fill takes from one side of the book. */
export interface BookWalk {
  /** Units taken from the levels (absolute). */
  readonly units: Decimal;
  /** Units taken per level, in level order (zero where the walk did not reach). */
  readonly takes: readonly Decimal[];
  /** Σ units × grid price over the levels used. */
  readonly cost: Decimal;
}

/**
 * Takes up to `wanted` units from the side, best level first, skipping what earlier fills of the
 * quote used, never past `worstInt` (a LIMIT's price or a priceBound: a buy takes no level above
 * it, a sell none below it). fullVWAP is volume-weighted over the levels consumed (definitions
 * OrderFillTransaction.fullVWAP: "factors in the Account's current ClientPrice, used liquidity
 * and the units of the OrderFill").
 */
export function walkBook(side: BookSide, wanted: Decimal, isBuy: boolean, worstInt: number | undefined): BookWalk {
  let remaining = wanted;
  let units = ZERO;
  let cost = ZERO;
  const takes: Decimal[] = [];
  for (let i = 0; i < side.prices.length; i += 1) {
    const price = side.prices[i] as number;
    const free = new Decimal(side.liquidity[i] as number).minus(side.used[i] as Decimal);
    const beyond = worstInt !== undefined && (isBuy ? price > worstInt : price < worstInt);
    if (remaining.isZero() || beyond || !free.greaterThan(0)) {
      takes.push(ZERO);
      continue;
    }
    const take = Decimal.min(remaining, free);
    takes.push(take);
    units = units.plus(take);
    cost = cost.plus(take.times(price));
    remaining = remaining.minus(take);
  }
  return { units, takes, cost };
}

/** Marks the levels a fill took as used for the rest of the quote. */
export function consume(side: BookSide, walk: BookWalk): void {
  for (let i = 0; i < walk.takes.length; i += 1) {
    const take = walk.takes[i] as Decimal;
    if (!take.isZero()) side.used[i] = (side.used[i] as Decimal).plus(take);
  }
}

/**
 * The volume-weighted price of `cost` over `units` on the grid. A VWAP between two grid prices is
 * printed at the instrument's precision (fullVWAP's format: "the amount of precision provided
 * depends on the Instrument"), rounded against the trader: a buy up, a sell down, so a backtest
 * never gains from the rounding.
 */
export function vwapInt(cost: Decimal, units: Decimal, isBuy: boolean): number {
  const vwap = cost.dividedBy(units);
  return (isBuy ? vwap.ceil() : vwap.floor()).toNumber();
}

/** The buckets v20 prints for one side: the quote's levels, or one unlimited bucket at `top`. */
export function priceBuckets(side: BookSide | undefined, top: string, format: (priceInt: number) => string): PriceBucket[] {
  if (side === undefined) return [{ price: top, liquidity: SHOWN_LIQUIDITY }];
  const buckets: PriceBucket[] = [];
  for (let i = 0; i < side.prices.length; i += 1)
    buckets.push({ price: format(side.prices[i] as number), liquidity: side.liquidity[i] as number });
  return buckets;
}
