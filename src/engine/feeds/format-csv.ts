import type { PriceLevel } from '../../domain/tick.js';
import { LineError } from './errors.js';
import { parseCsvTime } from './csv-time.js';
import { fieldBounds, splitFields } from './fields.js';
import { headerNames } from './header.js';
import { checkInstrumentOption, InstrumentInterner } from './instrument-names.js';
import type { LineParser } from './line-ticks.js';
import { makeTick, makeTickWithLevels } from './make-tick.js';
import { parseDecimal } from './numbers.js';
import type { FeedOptions } from './options.js';

/**
 * The simulator's own csv: `time,instrument,bid,ask`. Without a header the four columns come in
 * that order. A first line whose first field is not a time (see parseCsvTime) is a header: it
 * may then order the columns freely, add closeoutBid,closeoutAsk, leave out the instrument
 * (the instrument option supplies it), carry liquidity levels (see levelColumns) and carry other
 * columns, which are ignored.
 */
interface Layout {
  readonly fields: number;
  readonly time: number;
  readonly instrument: number;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid: number;
  readonly closeoutAsk: number;
  /** Liquidity levels per side: [price column, liquidity column] pairs, level 1 first; empty without. */
  readonly bidLevels: readonly (readonly [number, number])[];
  readonly askLevels: readonly (readonly [number, number])[];
}

const MAX_FIELDS = 64;
const TIME_RULE = 'time must be RFC3339 (with zone), UNIX seconds or epoch milliseconds';
const DEFAULT_LAYOUT: Layout = {
  fields: 4,
  time: 0,
  instrument: 1,
  bid: 2,
  ask: 3,
  closeoutBid: -1,
  closeoutAsk: -1,
  bidLevels: [],
  askLevels: [],
};
const MAX_LEVELS = 5;
const LEVEL_RE = /^(bid|ask)(\d)?$/;
const LIQUIDITY_RE = /^(bid|ask)_?liquidity(\d)?$/;

/**
 * Liquidity columns: `bidLiquidity`/`askLiquidity` give the size at bid/ask; deeper levels are
 * `bid2`,`bidLiquidity2` ... `bid5`,`bidLiquidity5` (and the same for ask), best first.
 */
function levelColumns(names: readonly string[], side: 'bid' | 'ask', top: number): [number, number][] {
  const prices = new Map<number, number>();
  const sizes = new Map<number, number>();
  names.forEach((name, index) => {
    const level = LEVEL_RE.exec(name);
    if (level?.[1] === side && level[2] !== undefined) prices.set(Number(level[2]), index);
    const size = LIQUIDITY_RE.exec(name);
    if (size?.[1] === side) sizes.set(Number(size[2] ?? '1'), index);
  });
  const levels: [number, number][] = [];
  for (let n = 1; n <= MAX_LEVELS; n += 1) {
    const size = sizes.get(n);
    const price = n === 1 && size !== undefined ? top : prices.get(n);
    if (price === undefined && size === undefined) break;
    if (price === undefined || size === undefined)
      throw new LineError(`header must name both ${side}${n === 1 ? '' : n} and ${side}Liquidity${n === 1 ? '' : n}`);
    levels.push([price, size]);
  }
  for (const n of [...prices.keys(), ...sizes.keys()])
    if (n > levels.length) throw new LineError(`${side} liquidity columns must run from level 1 up, each with its price and liquidity`);
  return levels;
}

const ALIASES: Readonly<Record<string, keyof Omit<Layout, 'fields' | 'bidLevels' | 'askLevels'>>> = {
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
  const columns: Record<keyof Omit<Layout, 'fields' | 'bidLevels' | 'askLevels'>, number> = {
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
  return {
    fields: names.length,
    ...columns,
    bidLevels: levelColumns(names, 'bid', columns.bid),
    askLevels: levelColumns(names, 'ask', columns.ask),
  };
}

export function createCsvParser(_file: string, opts: FeedOptions): LineParser {
  const fixedInstrument = opts.instrument === undefined ? undefined : checkInstrumentOption(opts.instrument);
  const interner = new InstrumentInterner();
  const bounds = fieldBounds(MAX_FIELDS);
  let layout: Layout | undefined;
  const from = (column: number): number => bounds[2 * column] as number;
  const to = (column: number): number => bounds[2 * column + 1] as number;
  const number = (text: string, column: number): number => parseDecimal(text, from(column), to(column));
  const levels = (text: string, columns: readonly (readonly [number, number])[]): PriceLevel[] | undefined =>
    columns.length === 0 ? undefined : columns.map(([price, size]) => ({ price: number(text, price), liquidity: number(text, size) }));
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
    const bid = number(text, layout.bid);
    const ask = number(text, layout.ask);
    const tick =
      layout.closeoutBid === -1
        ? makeTick(instrument, time, bid, ask)
        : makeTick(instrument, time, bid, ask, number(text, layout.closeoutBid), number(text, layout.closeoutAsk));
    if (layout.bidLevels.length === 0 && layout.askLevels.length === 0) return tick;
    return makeTickWithLevels(tick, levels(text, layout.bidLevels), levels(text, layout.askLevels));
  };
}
