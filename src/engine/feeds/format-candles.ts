import type { Tick } from '../../domain/tick.js';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, type Micros } from '../../domain/time.js';
import { FeedParseError, LineError } from './errors.js';
import { checkInstrumentOption, InstrumentInterner } from './instrument-names.js';
import { lineEnd, readTextBlocks } from './lines.js';
import { DEFAULT_CHUNK_SIZE } from './file-chunks.js';
import { makeTick } from './make-tick.js';
import { isObject, jsonLine, parseJsonTime, parsePrice, type Json } from './format-ndjson.js';
import type { FeedOptions } from './options.js';

/**
 * Bid/ask candles as quotes. One v20 candle per line, as `v20sim download candles` writes them
 * (OANDA's Candlestick with the instrument and granularity added):
 * `{"instrument":"EUR_USD","granularity":"M1","time":"…","bid":{"o","h","l","c"},"ask":{…},"volume":…}`.
 *
 * The rule, so that fills inside a bar are decided the same way every time: each candle becomes
 * four quotes across its interval [t, t + G):
 *   t           open   (bid.o, ask.o)
 *   t + G/3     the extreme nearer the open, by mid: high (bid.h, ask.h) or low (bid.l, ask.l);
 *               a tie takes the high first
 *   t + 2G/3    the other extreme
 *   t + G - 1µs close  (bid.c, ask.c)
 * as Nautilus Trader orders a bar's prices (the extreme nearer the open first). The path a real
 * market took inside the bar is unknown: an order whose take profit and stop loss both lie inside
 * one bar is decided by this rule, not by the market, and a limit is filled at its price whenever
 * the bar's extreme reaches it. Candles of several instruments in one file are interleaved by time
 * when they share start times (one granularity per file).
 */
const INTERVALS: Readonly<Record<string, Micros>> = {
  S5: 5 * MICROS_PER_SECOND,
  S10: 10 * MICROS_PER_SECOND,
  S15: 15 * MICROS_PER_SECOND,
  S30: 30 * MICROS_PER_SECOND,
  M1: MICROS_PER_MINUTE,
  M2: 2 * MICROS_PER_MINUTE,
  M4: 4 * MICROS_PER_MINUTE,
  M5: 5 * MICROS_PER_MINUTE,
  M10: 10 * MICROS_PER_MINUTE,
  M15: 15 * MICROS_PER_MINUTE,
  M30: 30 * MICROS_PER_MINUTE,
  H1: MICROS_PER_HOUR,
  H2: 2 * MICROS_PER_HOUR,
  H3: 3 * MICROS_PER_HOUR,
  H4: 4 * MICROS_PER_HOUR,
  H6: 6 * MICROS_PER_HOUR,
  H8: 8 * MICROS_PER_HOUR,
  H12: 12 * MICROS_PER_HOUR,
  D: MICROS_PER_DAY,
  W: 7 * MICROS_PER_DAY,
};

/** The candle's length: fixed, or to the same moment of the next month for `M`. */
function intervalOf(granularity: string, start: Micros): Micros {
  const fixed = INTERVALS[granularity];
  if (fixed !== undefined) return fixed;
  if (granularity !== 'M')
    throw new LineError(`granularity must be one of ${Object.keys(INTERVALS).join(', ')}, M; got ${JSON.stringify(granularity)}`);
  const d = new Date(Math.floor(start / 1000));
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return next * 1000 - start;
}

export interface CandleSide {
  readonly o: number;
  readonly h: number;
  readonly l: number;
  readonly c: number;
}

export interface Candle {
  readonly instrument: string;
  readonly time: Micros;
  readonly interval: Micros;
  readonly bid: CandleSide;
  readonly ask: CandleSide;
}

/** The four quotes of a candle, by the rule above. */
export function candleQuotes(candle: Candle): Tick[] {
  const { instrument, time, interval, bid, ask } = candle;
  const mid = (side: 'o' | 'h' | 'l' | 'c'): number => bid[side] + ask[side];
  const highFirst = mid('h') - mid('o') <= mid('o') - mid('l');
  const [first, second] = highFirst ? (['h', 'l'] as const) : (['l', 'h'] as const);
  const third = Math.floor(interval / 3);
  return [
    makeTick(instrument, time, bid.o, ask.o),
    makeTick(instrument, time + third, bid[first], ask[first]),
    makeTick(instrument, time + 2 * third, bid[second], ask[second]),
    makeTick(instrument, time + interval - 1, bid.c, ask.c),
  ];
}

function sideOf(record: Json, name: 'bid' | 'ask'): CandleSide {
  const side = record[name];
  if (!isObject(side)) throw new LineError(`${name} must be an object {o, h, l, c} (download with price=BA)`);
  const s = {
    o: parsePrice(side['o'], `${name}.o`),
    h: parsePrice(side['h'], `${name}.h`),
    l: parsePrice(side['l'], `${name}.l`),
    c: parsePrice(side['c'], `${name}.c`),
  };
  if (!(s.l <= s.o && s.l <= s.c && s.h >= s.o && s.h >= s.c)) throw new LineError(`${name}: low and high must bound open and close`);
  return s;
}

/** Whether a first line is a candle (an object whose bid or ask holds an `o`). */
export function looksLikeCandle(line: string): boolean {
  return /^\s*\{/.test(line) && /"(bid|ask|mid)"\s*:\s*\{\s*"o"/.test(line);
}

/** A candle line's candle; null for an incomplete candle (`"complete": false`), which has no close yet. */
export function createCandleParser(opts: FeedOptions): (text: string) => Candle | null {
  const fixedInstrument = opts.instrument === undefined ? undefined : checkInstrumentOption(opts.instrument);
  const interner = new InstrumentInterner();
  return (text) => {
    const record = jsonLine(text, 'candles', 'v20 bid/ask candles as `v20sim download candles` writes them (not CSV)');
    if (!isObject(record)) throw new LineError('line must hold a JSON object');
    if (record['complete'] === false) return null;
    const name = record['instrument'];
    let instrument: string;
    if (typeof name === 'string') instrument = interner.internString(name);
    else if (name === undefined && fixedInstrument !== undefined) instrument = fixedInstrument;
    else throw new LineError('instrument must be a string (or pass the instrument option)');
    const granularity = record['granularity'];
    if (typeof granularity !== 'string') throw new LineError('granularity must be given on each candle line (S5 to M)');
    const time = parseJsonTime(record['time']);
    return { instrument, time, interval: intervalOf(granularity, time), bid: sideOf(record, 'bid'), ask: sideOf(record, 'ask') };
  };
}

/**
 * The quotes of a candle file in time order. Candles starting at the same time (several
 * instruments) are buffered and their quotes interleaved by time, so a one-granularity file with
 * several instruments reads as one time-ordered feed.
 */
export function* readCandleTicks(file: string, opts: FeedOptions = {}): Generator<Tick> {
  const parse = createCandleParser(opts);
  let group: Tick[][] = [];
  let groupTime = Number.NEGATIVE_INFINITY;
  const flush = function* (): Generator<Tick> {
    if (group.length === 1) yield* group[0] as Tick[];
    else if (group.length > 1) yield* group.flat().sort((a, b) => a.time - b.time);
    group = [];
  };
  let line = 0;
  for (const text of readTextBlocks(file, DEFAULT_CHUNK_SIZE)) {
    let pos = 0;
    while (pos < text.length) {
      let newline = text.indexOf('\n', pos);
      if (newline < 0) newline = text.length;
      const end = lineEnd(text, pos, newline);
      line += 1;
      if (end > pos) {
        const raw = text.slice(pos, end);
        let candle: Candle | null;
        try {
          candle = parse(raw);
          if (candle !== null && candle.time < groupTime) throw new LineError('candles must be in time order');
        } catch (error) {
          throw new FeedParseError(file, line, error instanceof Error ? error.message : String(error), raw, { cause: error });
        }
        if (candle !== null) {
          if (candle.time !== groupTime) yield* flush();
          groupTime = candle.time;
          group.push(candleQuotes(candle));
        }
      }
      pos = newline + 1;
    }
    opts.onBytes?.(text.length);
  }
  yield* flush();
}
