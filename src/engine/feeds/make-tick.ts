import type { Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import { LineError } from './errors.js';

function checkPrice(value: number, field: string): void {
  // Written so NaN fails too. bid > ask is allowed: locked and crossed quotes occur in real feeds.
  if (!(value > 0 && value < Number.POSITIVE_INFINITY)) throw new LineError(`${field} must be a finite positive number`);
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
