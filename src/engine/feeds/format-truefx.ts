import { basename } from 'node:path';
import { parseRfc3339Span } from './datetime.js';
import { LineError } from './errors.js';
import { fieldBounds, splitFields } from './fields.js';
import { headerNames } from './header.js';
import { checkInstrumentOption, instrumentFromPairCode } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick } from './make-tick.js';
import { parseDecimal } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * TrueFX ticks as Nautilus stores them: optional header `timestamp,bid,ask`, then
 * `2013-01-01 22:00:00.295000+00:00,86.655,86.728`. The instrument comes from the options or the
 * file name (`usdjpy-ticks.csv` -> USD_JPY).
 */
export function truefxInstrument(file: string, opts: FeedOptions): string {
  if (opts.instrument !== undefined) return checkInstrumentOption(opts.instrument);
  const code = /^([a-z]{6})(?:[-_.]|$)/i.exec(basename(file))?.[1];
  const name = code === undefined ? undefined : instrumentFromPairCode(code);
  if (name === undefined) throw new Error(`${file}: cannot tell the instrument from the file name; pass the instrument option`);
  return name;
}

export function createTruefxParser(file: string, opts: FeedOptions): LineParser {
  const instrument = truefxInstrument(file, opts);
  const bounds = fieldBounds(3);
  let first = true;
  return (text, start, end) => {
    const count = splitFields(text, start, end, bounds, 3);
    const t0 = bounds[0] as number,
      t1 = bounds[1] as number;
    const time = count === 3 ? parseRfc3339Span(text, t0, t1) : Number.NaN;
    const isFirst = first;
    first = false;
    if (Number.isNaN(time)) {
      if (isFirst && headerNames(text, start, end, bounds, 3) !== null) return null;
      throw new LineError(
        count === 3 ? 'timestamp must look like 2013-01-01 22:00:00.295000+00:00' : 'expected 3 fields: timestamp,bid,ask',
      );
    }
    return makeTick(
      instrument,
      time,
      parseDecimal(text, bounds[2] as number, bounds[3] as number),
      parseDecimal(text, bounds[4] as number, bounds[5] as number),
    );
  };
}
