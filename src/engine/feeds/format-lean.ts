import { basename, dirname } from 'node:path';
import type { PriceLevel } from '../../domain/tick.js';
import { MICROS_PER_DAY } from '../../domain/time.js';
import { daysFromCivil, daysInMonth } from './datetime.js';
import { LineError } from './errors.js';
import { checkInstrumentOption, instrumentFromPairCode } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick, makeTickWithLevels } from './make-tick.js';
import { type Cursor, scanDecimal } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * LEAN tick quote files (`YYYYMMDD_quote.zip`, inside `YYYYMMDD_eurusd_tick_quote.csv`): headerless
 * `ms_since_midnight,bid,ask`, the time counted from 00:00 UTC of the date in the file name. Quote
 * files with sizes (`ms_since_midnight,bid,bidSize,ask,askSize`, LEAN's quote tick layout) give one
 * liquidity level a side; a size of 0 means none given (liquidity unlimited).
 */
const DATE_IN_NAME_RE = /^(\d{4})(\d{2})(\d{2})(?!\d)/;
const MILLIS_PER_DAY = 86_400_000;
const FIELDS = 'expected 3 fields (ms_since_midnight,bid,ask) or 5 (ms_since_midnight,bid,bidSize,ask,askSize)';

/** Midnight UTC of the YYYYMMDD date in a LEAN file name. */
export function leanFileDate(file: string): number {
  const m = DATE_IN_NAME_RE.exec(basename(file));
  const year = Number(m?.[1]),
    month = Number(m?.[2]),
    day = Number(m?.[3]);
  if (!m || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    throw new Error(`${file}: a LEAN file name must start with its date as YYYYMMDD (e.g. 20140501_quote.zip)`);
  return daysFromCivil(year, month, day) * MICROS_PER_DAY;
}

/**
 * LEAN keeps one folder per pair (`.../tick/eurusd/20140501_quote.zip`) and names the inner csv
 * after it; either gives the instrument. EUR_USD when neither does.
 */
export function leanInstrument(file: string, opts: FeedOptions): string {
  if (opts.instrument !== undefined) return checkInstrumentOption(opts.instrument);
  const fromName = /^\d{8}_([a-z]{6})_tick_quote\.csv$/i.exec(basename(file))?.[1];
  return instrumentFromPairCode(fromName ?? basename(dirname(file))) ?? 'EUR_USD';
}

/**
 * A line's time: midnight plus its milliseconds, rounded to whole microseconds (some LEAN files,
 * CFDs, carry fractional milliseconds; the engine keeps whole microseconds). NaN when the
 * milliseconds are not a number in [0, 86400000). The one rule for both LEAN readers (this
 * parser and lean-quotes.ts).
 */
export function leanTickTime(midnight: number, millis: number): number {
  return millis >= 0 && millis < MILLIS_PER_DAY ? midnight + Math.round(millis * 1000) : Number.NaN;
}

export function createLeanParser(file: string, opts: FeedOptions): LineParser {
  const midnight = leanFileDate(file);
  const instrument = leanInstrument(file, opts);
  const cursor: Cursor = { pos: 0 };
  return (text, start, end) => {
    const millis = scanDecimal(text, start, end, cursor);
    if (cursor.pos === end) throw new LineError(FIELDS);
    const first = scanDecimal(text, cursor.pos + 1, end, cursor);
    if (cursor.pos === end) throw new LineError(FIELDS);
    const second = scanDecimal(text, cursor.pos + 1, end, cursor);
    const time = leanTickTime(midnight, millis);
    if (Number.isNaN(time)) throw new LineError('ms_since_midnight must be a number in [0, 86400000)');
    if (cursor.pos === end) return makeTick(instrument, time, first, second);
    // ms,bid,bidSize,ask,askSize: the sizes are one liquidity level a side (0: not given, unlimited).
    const ask = scanDecimal(text, cursor.pos + 1, end, cursor);
    if (cursor.pos === end) throw new LineError(FIELDS);
    const askSize = scanDecimal(text, cursor.pos + 1, end, cursor);
    if (cursor.pos !== end) throw new LineError(FIELDS);
    const tick = makeTick(instrument, time, first, ask);
    return makeTickWithLevels(tick, sizeLevel(first, second), sizeLevel(ask, askSize));
  };
}

function sizeLevel(price: number, size: number): PriceLevel[] | undefined {
  return size === 0 ? undefined : [{ price, liquidity: size }];
}
