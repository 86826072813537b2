import type { PriceLevel } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import { parseRfc3339Span, parseUnixSecondsSpan } from './datetime.js';
import { LineError } from './errors.js';
import { checkInstrumentOption, InstrumentInterner } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick, makeTickWithLevels } from './make-tick.js';
import { parseDecimal } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * One JSON object per line: `{"instrument":"EUR_USD","time":"...","bid":"1.08","ask":1.09}`.
 * Lines recorded from v20's pricing stream read as well: prices may come as
 * `bids[0].price`/`asks[0].price`, closeoutBid/closeoutAsk are kept, and `{"type":"HEARTBEAT"}`
 * lines are not ticks. `bids`/`asks` with `liquidity` are the quote's liquidity levels (best first,
 * the first at bid/ask); without liquidity, liquidity is unlimited.
 */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON line's time: RFC3339 with a zone, or UNIX seconds (string or number). */
export function parseJsonTime(value: unknown): Micros {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string') throw new LineError('time must be an RFC3339 or UNIX seconds string');
  const time = /[-:]/.test(text) ? parseRfc3339Span(text, 0, text.length) : parseUnixSecondsSpan(text, 0, text.length);
  if (Number.isNaN(time)) throw new LineError(`time must be RFC3339 (with zone) or UNIX seconds, got ${JSON.stringify(text)}`);
  return time;
}

/** A JSON line's price: a number or a decimal string. */
export function parsePrice(value: unknown, field: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return parseDecimal(value, 0, value.length);
  throw new LineError(`${field} must be a number or a decimal string`);
}

function topOfBook(record: Json, flat: 'bid' | 'ask', side: 'bids' | 'asks'): unknown {
  if (record[flat] !== undefined) return record[flat];
  const levels = record[side];
  if (Array.isArray(levels) && isObject(levels[0])) return levels[0].price;
  throw new LineError(`missing ${flat} (or ${side}[0].price)`);
}

/**
 * The liquidity levels of a side as v20's pricing prints them (`bids`/`asks`: `{price, liquidity}`
 * best first, liquidity a number or a string); undefined when the side has none or lists prices
 * without liquidity (then liquidity stays unlimited).
 */
function levelsOf(record: Json, side: 'bids' | 'asks'): PriceLevel[] | undefined {
  const list = record[side];
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const levels: PriceLevel[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const bucket: unknown = list[i];
    if (!isObject(bucket)) throw new LineError(`${side}[${i}] must be an object {price, liquidity}`);
    if (bucket.liquidity === undefined) return undefined;
    const liquidity = typeof bucket.liquidity === 'string' ? Number(bucket.liquidity) : bucket.liquidity;
    if (typeof liquidity !== 'number') throw new LineError(`${side}[${i}].liquidity must be a number`);
    levels.push({ price: parsePrice(bucket.price, `${side}[${i}].price`), liquidity });
  }
  return levels;
}

function optionalPrice(record: Json, field: string): number | undefined {
  return record[field] === undefined ? undefined : parsePrice(record[field], field);
}

/**
 * A JSON line's value. A line that is not JSON at all (a CSV header under a forced JSON format) says
 * what the format reads instead of quoting JSON.parse's complaint about its first character.
 */
export function jsonLine(text: string, format: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const first = text.trimStart()[0];
    if (first === '{' || first === '[') throw new LineError(`not valid JSON: ${(error as Error).message}`);
    throw new LineError(`not a JSON line: the ${format} format reads ${what}, one JSON object per line`);
  }
}

export function createNdjsonParser(_file: string, opts: FeedOptions): LineParser {
  const fixedInstrument = opts.instrument === undefined ? undefined : checkInstrumentOption(opts.instrument);
  const interner = new InstrumentInterner();
  return (text, start, end) => {
    const record = jsonLine(text.slice(start, end), 'ndjson', 'v20 prices as the pricing stream sends them');
    if (!isObject(record)) throw new LineError('line must hold a JSON object');
    if (record.type === 'HEARTBEAT') return null;
    let instrument: string;
    if (typeof record.instrument === 'string') instrument = interner.internString(record.instrument);
    else if (record.instrument === undefined && fixedInstrument !== undefined) instrument = fixedInstrument;
    else throw new LineError('instrument must be a string (or pass the instrument option)');
    const time = parseJsonTime(record.time);
    const bid = parsePrice(topOfBook(record, 'bid', 'bids'), 'bid');
    const ask = parsePrice(topOfBook(record, 'ask', 'asks'), 'ask');
    const tick = makeTick(instrument, time, bid, ask, optionalPrice(record, 'closeoutBid'), optionalPrice(record, 'closeoutAsk'));
    return makeTickWithLevels(tick, levelsOf(record, 'bids'), levelsOf(record, 'asks'));
  };
}
