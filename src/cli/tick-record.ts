/**
 * A v20 pricing stream PRICE line as a tick line of the NDJSON tick format (engine/feeds/
 * format-ndjson.ts), which serve --ticks and backtest --ticks replay: instrument, time, bid/ask
 * (the best of bids/asks), closeoutBid/closeoutAsk, and bids/asks with their liquidity (OpenAPI
 * ClientPrice: "bids"/"asks" are PriceBucket lists, best first). Prices stay v20's strings.
 */
import { parseDateTime, type Micros } from '../domain/time.js';

export interface RecordedTick {
  readonly instrument: string;
  readonly at: Micros;
  readonly line: string;
}

interface Bucket {
  readonly price: string;
  readonly liquidity?: unknown;
}

function bucketsOf(value: unknown): Bucket[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: Bucket[] = [];
  for (const raw of value as unknown[]) {
    const b = raw as { price?: unknown; liquidity?: unknown } | null;
    if (b === null || typeof b !== 'object' || (typeof b.price !== 'string' && typeof b.price !== 'number')) return undefined;
    out.push(b.liquidity === undefined ? { price: String(b.price) } : { price: String(b.price), liquidity: b.liquidity });
  }
  return out;
}

/** The tick of a stream line, or undefined for a heartbeat, another message type or a price without both sides. */
export function tickOfStreamLine(line: string): RecordedTick | undefined {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (record === null || typeof record !== 'object' || record['type'] !== 'PRICE') return undefined;
  const instrument = record['instrument'];
  const time = record['time'];
  if (typeof instrument !== 'string' || typeof time !== 'string') return undefined;
  const at = parseDateTime(time, 'ANY');
  const bids = bucketsOf(record['bids']);
  const asks = bucketsOf(record['asks']);
  // A price with an empty side (e.g. a halted market) is not a quote a replay can use.
  if (at === null || bids === undefined || asks === undefined) return undefined;
  const tick: Record<string, unknown> = { instrument, time, bid: bids[0]?.price, ask: asks[0]?.price };
  if (typeof record['closeoutBid'] === 'string') tick['closeoutBid'] = record['closeoutBid'];
  if (typeof record['closeoutAsk'] === 'string') tick['closeoutAsk'] = record['closeoutAsk'];
  tick['bids'] = bids;
  tick['asks'] = asks;
  return { instrument, at, line: JSON.stringify(tick) };
}
