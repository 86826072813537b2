/**
 * GET /v3/instruments/{instrument}/orderBook and /positionBook (oanda-v20-openapi.json, paths of
 * the same names): 200 `{"orderBook": OrderBook}` / `{"positionBook": PositionBook}` with the
 * snapshot at or before `time` (default: the newest). The snapshots are the engine's
 * (engine/books.ts); this file picks one and prints it as OANDA does.
 */
import { bookTotal, countPercent, formatBookTime, formatBookUnixTime, type BookBucket } from '../domain/books.js';
import { formatPriceInt } from '../domain/price.js';
import type { Engine } from '../engine/engine.js';
import type { InstrumentBooks } from '../engine/books.js';
import { invalidValue, NOT_FOUND } from './errors.js';
import { parseTimeQuery } from './pricing.js';
import { answer, ok, type Json, type V20Response } from './response.js';

export type BookKind = 'orderBook' | 'positionBook';

export interface BookQuery {
  readonly time?: string | undefined;
}

/**
 * No snapshot at or before the time asked (before the first boundary the server's clock crossed,
 * or older than the kept history): v20's 404 for a resource that is not there (the operation lists
 * 404 with the shared `responses/404` body; the wording is v20's generic one).
 */
const NO_BOOK = NOT_FOUND;

/**
 * OANDA's captured books print the bucket price and bucketWidth at the instrument's display
 * precision ("1.12850", "0.00050") and the percentages with four decimals ("0.2352"), keys in the
 * order of the definition: instrument, time, unixTime, price, bucketWidth, buckets.
 */
function bucketsJson(buckets: readonly BookBucket[], precision: number): Json[] {
  const total = bookTotal(buckets);
  return buckets.map((b) => ({
    price: formatPriceInt(b.price, precision),
    longCountPercent: countPercent(b.long, total),
    shortCountPercent: countPercent(b.short, total),
  }));
}

function bookJson(instrument: string, time: number, books: InstrumentBooks, kind: BookKind, precision: number): Json {
  return {
    instrument,
    time: formatBookTime(time),
    unixTime: formatBookUnixTime(time),
    price: formatPriceInt(books.mid, precision),
    bucketWidth: formatPriceInt(books.bucketWidth, precision),
    buckets: bucketsJson(kind === 'orderBook' ? books.orders : books.positions, precision),
  };
}

/**
 * GET orderBook / positionBook. An unknown instrument is a 400 as on the candles path
 * (`Invalid value specified for 'instrument'`); an unreadable `time` a 400 for `time`.
 */
export function getBook(engine: Engine, kind: BookKind, instrument: string, q: BookQuery): V20Response {
  return answer(() => {
    const spec = engine.instruments.get(instrument);
    if (spec === undefined) throw invalidValue('instrument');
    const at = parseTimeQuery(q.time, 'time') ?? engine.now;
    const snapshot = engine.bookAt(at);
    const books = snapshot?.instruments.get(instrument);
    if (snapshot === undefined || books === undefined) throw NO_BOOK();
    return ok({ [kind]: bookJson(instrument, snapshot.time, books, kind, spec.displayPrecision) });
  });
}
