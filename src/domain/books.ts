/**
 * Order book and position book arithmetic: OANDA's OrderBook/PositionBook (oanda-v20-openapi.json,
 * definitions OrderBook, OrderBookBucket, PositionBook, PositionBookBucket). A book is taken every
 * 20 minutes; its entries (order trigger prices, trade open prices) are counted per price bucket,
 * and each bucket shows its long and short counts as a percentage of all entries of the book.
 */
import type { InstrumentSpec } from './instruments.js';
import { formatRfc3339, MICROS_PER_MINUTE, MICROS_PER_SECOND, type Micros } from './time.js';

/**
 * OANDA takes its book snapshots every 20 minutes, on the hour and at :20 and :40 (the captured
 * book in oandapyV20's responses/instruments.py is stamped 10:00:00; OANDA's order book page
 * refreshes on that schedule).
 */
export const BOOK_INTERVAL: Micros = 20 * MICROS_PER_MINUTE;

/** The latest snapshot boundary at or before `t`. */
export function bookBoundaryAtOrBefore(t: Micros): Micros {
  return Math.floor(t / BOOK_INTERVAL) * BOOK_INTERVAL;
}

/** The first snapshot boundary strictly after `t`. */
export function bookBoundaryAfter(t: Micros): Micros {
  return bookBoundaryAtOrBefore(t) + BOOK_INTERVAL;
}

/** Pips per bucket: OANDA shows EUR_USD in 0.00050 buckets and USD_JPY in 0.050 ones, 5 pips each. */
const BUCKET_PIPS = 5;

/**
 * The bucket width on the instrument's integer price grid (units of 10^-displayPrecision): 5 pips
 * (5 x 10^pipLocation), at least one price step for an instrument whose pip is finer than its
 * display precision.
 */
export function bucketWidthInt(spec: Pick<InstrumentSpec, 'pipLocation' | 'displayPrecision'>): number {
  const exponent = spec.pipLocation + spec.displayPrecision;
  return exponent < 0 ? 1 : BUCKET_PIPS * 10 ** exponent;
}

/** One entry of a book: a price on the integer grid and its side. */
export interface BookEntry {
  readonly price: number;
  readonly long: boolean;
}

/** The entries of one bucket: it covers [price, price + width) on the integer grid. */
export interface BookBucket {
  readonly price: number;
  long: number;
  short: number;
}

/** The bucket an integer price falls in: the largest multiple of the width at or below it. */
export function bucketOf(price: number, width: number): number {
  return Math.floor(price / width) * width;
}

/**
 * Counts entries per bucket, lowest price first. Only buckets that hold an entry are listed
 * (OrderBook.buckets: "only provided for price ranges which actually contain order or position data").
 */
export function bucketize(entries: readonly BookEntry[], width: number): BookBucket[] {
  const byPrice = new Map<number, BookBucket>();
  for (const entry of entries) {
    const price = bucketOf(entry.price, width);
    let bucket = byPrice.get(price);
    if (bucket === undefined) {
      bucket = { price, long: 0, short: 0 };
      byPrice.set(price, bucket);
    }
    if (entry.long) bucket.long += 1;
    else bucket.short += 1;
  }
  // Prices are unique keys, so the order does not depend on the Map's insertion order.
  return [...byPrice.values()].sort((a, b) => a.price - b.price);
}

/** Long plus short entries over every bucket: the 100 % of the book's percentages. */
export function bookTotal(buckets: readonly BookBucket[]): number {
  let total = 0;
  for (const b of buckets) total += b.long + b.short;
  return total;
}

/** Decimal places of longCountPercent/shortCountPercent: "0.2352" in OANDA's captured books. */
export const COUNT_PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 100 * 10 ** COUNT_PERCENT_DECIMALS;

/**
 * `count` as a percentage of `total`, with four decimals, half up: "0.2352" style
 * (OrderBookBucket.longCountPercent, "the percentage of the total number of orders"). Integer
 * arithmetic: count x 10^6 stays a safe integer for every count the account limits allow.
 */
export function countPercent(count: number, total: number): string {
  if (total <= 0 || count <= 0) return '0.0000';
  const scaled = count * PERCENT_SCALE;
  const q = Math.floor(scaled / total);
  const rounded = 2 * (scaled - q * total) >= total ? q + 1 : q;
  const unit = 10 ** COUNT_PERCENT_DECIMALS;
  const whole = Math.floor(rounded / unit);
  return `${whole}.${String(rounded - whole * unit).padStart(COUNT_PERCENT_DECIMALS, '0')}`;
}

/**
 * The snapshot time as OANDA prints a book's `time`: whole seconds, no fraction
 * ("2017-06-28T10:00:00Z" in the captured book), unlike transaction times.
 */
export function formatBookTime(t: Micros): string {
  return `${formatRfc3339(t).slice(0, 19)}Z`;
}

/** The snapshot time as whole UNIX seconds (the book's `unixTime`, facts sheet section 8). */
export function formatBookUnixTime(t: Micros): string {
  return String(Math.floor(t / MICROS_PER_SECOND));
}
