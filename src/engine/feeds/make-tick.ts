import type { PriceLevel, Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import { LineError } from './errors.js';

/** A price a tick may carry: finite and positive (NaN is not). bid > ask is allowed: locked and crossed quotes occur in real feeds. */
export function isPrice(value: number): boolean {
  return value > 0 && value < Number.POSITIVE_INFINITY;
}

function checkPrice(value: number, field: string): void {
  if (!isPrice(value)) throw new LineError(`${field} must be a finite positive number`);
}

/** A validated Tick; closeout fields are only present when given, as exactOptionalPropertyTypes wants. */
export function makeTick(instrument: string, time: Micros, bid: number, ask: number, closeoutBid?: number, closeoutAsk?: number): Tick {
  if (!Number.isSafeInteger(time)) throw new LineError('time is not a valid timestamp');
  checkPrice(bid, 'bid');
  checkPrice(ask, 'ask');
  if (closeoutBid === undefined && closeoutAsk === undefined) return { instrument, time, bid, ask };
  if (closeoutBid === undefined || closeoutAsk === undefined) throw new LineError('closeoutBid and closeoutAsk must be given together');
  checkPrice(closeoutBid, 'closeoutBid');
  checkPrice(closeoutAsk, 'closeoutAsk');
  return { instrument, time, bid, ask, closeoutBid, closeoutAsk };
}

function checkLevels(levels: readonly PriceLevel[] | undefined, top: number, field: 'bids' | 'asks'): void {
  if (levels === undefined) return;
  if (levels.length === 0) throw new LineError(`${field} must list at least one level`);
  levels.forEach((level, i) => {
    checkPrice(level.price, `${field}[${i}].price`);
    if (!(Number.isSafeInteger(level.liquidity) && level.liquidity >= 0))
      throw new LineError(`${field}[${i}].liquidity must be a whole number of units (v20 PriceBucket.liquidity is an integer)`);
    const previous = levels[i - 1];
    if (previous !== undefined && (field === 'bids' ? level.price >= previous.price : level.price <= previous.price))
      throw new LineError(`${field} must be listed best first (${field === 'bids' ? 'falling' : 'rising'} prices)`);
  });
  if ((levels[0] as PriceLevel).price !== top) throw new LineError(`${field}[0].price must equal ${field === 'bids' ? 'bid' : 'ask'}`);
}

/** makeTick plus liquidity levels (either side may be absent: unlimited there), best first, the first at bid/ask. */
export function makeTickWithLevels(base: Tick, bids: readonly PriceLevel[] | undefined, asks: readonly PriceLevel[] | undefined): Tick {
  if (bids === undefined && asks === undefined) return base;
  checkLevels(bids, base.bid, 'bids');
  checkLevels(asks, base.ask, 'asks');
  const tick: { -readonly [K in keyof Tick]: Tick[K] } = { ...base };
  if (bids !== undefined) tick.bids = bids;
  if (asks !== undefined) tick.asks = asks;
  return tick;
}
