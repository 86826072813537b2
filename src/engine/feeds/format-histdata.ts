import { basename } from 'node:path';
import { MICROS_PER_HOUR, type Micros } from '../../domain/time.js';
import { utcMicros } from './datetime.js';
import { LineError } from './errors.js';
import { fieldBounds, splitFields } from './fields.js';
import { checkInstrumentOption, instrumentFromPairCode } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick } from './make-tick.js';
import { parseDecimal, parseDigits } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * HistData.com ASCII ticks: `20200101 170000065,1.121200,1.121720,0` (the volume column may be
 * absent). HistData stamps in fixed EST, UTC-5 all year with no daylight saving, so the shift to
 * UTC is a constant five hours.
 */
const EST_TO_UTC: Micros = 5 * MICROS_PER_HOUR;

export function histdataInstrument(file: string, opts: FeedOptions): string {
  if (opts.instrument !== undefined) return checkInstrumentOption(opts.instrument);
  const code = /DAT_ASCII_([A-Z]{6})_T/i.exec(basename(file))?.[1];
  const name = code === undefined ? undefined : instrumentFromPairCode(code);
  if (name === undefined)
    throw new Error(`${file}: cannot tell the instrument from the file name (DAT_ASCII_EURUSD_T_YYYYMM.csv); pass the instrument option`);
  return name;
}

/** `YYYYMMDD HHMMSSmmm` in EST as UTC micros, or NaN. */
export function parseHistdataTime(text: string, start: number, end: number): Micros {
  if (end - start !== 18 || text.charCodeAt(start + 8) !== 32) return Number.NaN;
  const date = parseDigits(text, start, start + 8);
  const clock = parseDigits(text, start + 9, end);
  if (date < 0 || clock < 0) return Number.NaN;
  const year = Math.floor(date / 10_000),
    month = Math.floor(date / 100) % 100,
    day = date % 100;
  const millis = clock % 1000,
    seconds = Math.floor(clock / 1000);
  const hour = Math.floor(seconds / 10_000),
    minute = Math.floor(seconds / 100) % 100,
    second = seconds % 100;
  return utcMicros(year, month, day, hour, minute, second, millis * 1000) + EST_TO_UTC;
}

export function createHistdataParser(file: string, opts: FeedOptions): LineParser {
  const instrument = histdataInstrument(file, opts);
  const bounds = fieldBounds(4);
  return (text, start, end) => {
    const count = splitFields(text, start, end, bounds, 4);
    if (count < 3 || count > 4) throw new LineError('expected fields: YYYYMMDD HHMMSSmmm,bid,ask[,volume]');
    const time = parseHistdataTime(text, bounds[0] as number, bounds[1] as number);
    if (Number.isNaN(time)) throw new LineError('time must be YYYYMMDD HHMMSSmmm (EST)');
    if (count === 4 && !(parseDecimal(text, bounds[6] as number, bounds[7] as number) >= 0))
      throw new LineError('volume must be a non-negative number');
    return makeTick(
      instrument,
      time,
      parseDecimal(text, bounds[2] as number, bounds[3] as number),
      parseDecimal(text, bounds[4] as number, bounds[5] as number),
    );
  };
}
