/**
 * What the two column layouts of ticks share (a sweep's shared columns, tick-columns.ts, and the
 * reader thread's batches, tick-batch.ts): instrument names numbered for a Uint16 column, and a
 * row read back as the Tick the feed made.
 */
import type { Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';

/** A Uint16 column names this many instruments at most. */
const CODES_MAX = 1 << 16;

/** Instrument names numbered in order of first appearance. */
export class InstrumentCodes {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private lastName = '';
  private lastCode = -1;

  /** The name's number, or -1 when a Uint16 cannot number another name. */
  codeOf(name: string): number {
    // Ticks come in runs of one instrument: the last name is the usual answer.
    if (name === this.lastName && this.lastCode >= 0) return this.lastCode;
    let code = this.index.get(name);
    if (code === undefined) {
      if (this.names.length >= CODES_MAX) return -1;
      code = this.names.length;
      this.names.push(name);
      this.index.set(name, code);
    }
    this.lastName = name;
    this.lastCode = code;
    return code;
  }
}

/** Price and time columns. */
export interface RowColumns {
  /** Micros; safe integers, so a float64 holds each exactly. */
  readonly time: Float64Array;
  readonly bid: Float64Array;
  readonly ask: Float64Array;
  /** Present when a row had closeout prices (makeTick gives both or neither); NaN in a row without. */
  readonly closeoutBid?: Float64Array;
  readonly closeoutAsk?: Float64Array;
}

/** Rows of ticks: their count, the instruments' names, and each row's instrument by number. */
export interface ColumnRows extends RowColumns {
  readonly count: number;
  /** The instrument names; `instrument[i]` indexes this list. */
  readonly instruments: readonly string[];
  readonly instrument: Uint16Array;
}

/** Row `i` as makeTick makes it: the same fields in the same key order. */
export function rowTick(instrument: string, c: RowColumns, i: number): Tick {
  const time = c.time[i] as Micros;
  const bid = c.bid[i] as number;
  const ask = c.ask[i] as number;
  const closeoutBid = c.closeoutBid?.[i];
  if (closeoutBid === undefined || Number.isNaN(closeoutBid)) return { instrument, time, bid, ask };
  return { instrument, time, bid, ask, closeoutBid, closeoutAsk: c.closeoutAsk?.[i] as number };
}
