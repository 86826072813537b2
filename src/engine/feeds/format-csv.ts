import { LineError } from './errors.js';
import { parseCsvTime } from './csv-time.js';
import { fieldBounds, splitFields } from './fields.js';
import { headerNames } from './header.js';
import { checkInstrumentOption, InstrumentInterner } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick } from './make-tick.js';
import { parseDecimal } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * The simulator's own csv: `time,instrument,bid,ask`. Without a header the four columns come in
 * that order. A first line whose first field is not a time (see parseCsvTime) is a header: it
 * may then order the columns freely, add closeoutBid,closeoutAsk, leave out the instrument
 * (the instrument option supplies it) and carry other columns, which are ignored.
 */
interface Layout {
  readonly fields: number;
  readonly time: number;
  readonly instrument: number;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid: number;
  readonly closeoutAsk: number;
}

const MAX_FIELDS = 64;
const TIME_RULE = 'time must be RFC3339 (with zone), UNIX seconds or epoch milliseconds';
const DEFAULT_LAYOUT: Layout = { fields: 4, time: 0, instrument: 1, bid: 2, ask: 3, closeoutBid: -1, closeoutAsk: -1 };

const ALIASES: Readonly<Record<string, keyof Omit<Layout, 'fields'>>> = {
  time: 'time',
  timestamp: 'time',
  instrument: 'instrument',
  bid: 'bid',
  ask: 'ask',
  closeoutbid: 'closeoutBid',
  closeout_bid: 'closeoutBid',
  closeoutask: 'closeoutAsk',
  closeout_ask: 'closeoutAsk',
};

function layoutFromHeader(names: readonly string[], hasInstrumentOption: boolean): Layout {
  const columns: Record<keyof Omit<Layout, 'fields'>, number> = {
    time: -1,
    instrument: -1,
    bid: -1,
    ask: -1,
    closeoutBid: -1,
    closeoutAsk: -1,
  };
  names.forEach((name, index) => {
    const key = ALIASES[name];
    if (key === undefined) return;
    if (columns[key] !== -1) throw new LineError(`header names column ${key} twice`);
    columns[key] = index;
  });
  const required: (keyof typeof columns)[] = hasInstrumentOption ? ['time', 'bid', 'ask'] : ['time', 'instrument', 'bid', 'ask'];
  const missing = required.filter((key) => columns[key] === -1);
  if (missing.length > 0)
    throw new LineError(`header lacks column(s) ${missing.join(', ')}${hasInstrumentOption ? '' : ' (or pass the instrument option)'}`);
  if ((columns.closeoutBid === -1) !== (columns.closeoutAsk === -1))
    throw new LineError('header must name both closeoutBid and closeoutAsk, or neither');
  return { fields: names.length, ...columns };
}

export function createCsvParser(_file: string, opts: FeedOptions): LineParser {
  const fixedInstrument = opts.instrument === undefined ? undefined : checkInstrumentOption(opts.instrument);
  const interner = new InstrumentInterner();
  const bounds = fieldBounds(MAX_FIELDS);
  let layout: Layout | undefined;
  const from = (column: number): number => bounds[2 * column] as number;
  const to = (column: number): number => bounds[2 * column + 1] as number;
  const number = (text: string, column: number): number => parseDecimal(text, from(column), to(column));
  return (text, start, end) => {
    const count = splitFields(text, start, end, bounds, MAX_FIELDS);
    if (layout === undefined) {
      if (Number.isNaN(parseCsvTime(text, bounds[0] as number, bounds[1] as number))) {
        const names = headerNames(text, start, end, bounds, MAX_FIELDS);
        if (names === null) throw new LineError(`first line is neither a header nor a tick: ${TIME_RULE}`);
        layout = layoutFromHeader(names, fixedInstrument !== undefined);
        return null;
      }
      layout = DEFAULT_LAYOUT;
    }
    if (count !== layout.fields) {
      throw new LineError(
        layout === DEFAULT_LAYOUT
          ? `expected 4 fields (time,instrument,bid,ask), got ${count}; closeout columns need a header`
          : `expected ${layout.fields} fields as in the header, got ${count}`,
      );
    }
    const time = parseCsvTime(text, from(layout.time), to(layout.time));
    if (Number.isNaN(time)) throw new LineError(TIME_RULE);
    // A named column wins over the option: the option only fills in for a missing column.
    const instrument =
      layout.instrument === -1 ? (fixedInstrument as string) : interner.intern(text, from(layout.instrument), to(layout.instrument));
    if (layout.closeoutBid === -1) return makeTick(instrument, time, number(text, layout.bid), number(text, layout.ask));
    return makeTick(
      instrument,
      time,
      number(text, layout.bid),
      number(text, layout.ask),
      number(text, layout.closeoutBid),
      number(text, layout.closeoutAsk),
    );
  };
}
