/**
 * A sweep's ticks read once, kept as columns of numbers in SharedArrayBuffers: the runs of a sweep
 * (on this thread and on worker threads) all read the same memory instead of each unzipping,
 * parsing and merging the files again. Posting the columns to a worker shares the buffers (nothing
 * is copied or transferred). A run reads them back as Ticks equal, field for field and in the same
 * key order, to the ones the files give (makeTick's shape), so its results do not change.
 */
import type { Tick } from '../domain/tick.js';
import { readLeanQuotes, type LeanQuoteOptions, type QuoteSink } from '../engine/feeds/lean-quotes.js';
import { InstrumentCodes, rowTick, type ColumnRows } from './column-rows.js';
import { tickCursor, type CursorSource, type TickCursor } from './tick-cursor.js';

export type TickColumns = ColumnRows;

/** Bytes a tick takes in the columns, closeouts included. */
export const COLUMN_BYTES_PER_TICK = 2 + 8 * 5;
const FIRST_CAPACITY = 1 << 14;

function sharedF64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, length) * 8));
}

function grownF64(from: Float64Array, length: number, count: number): Float64Array {
  const to = sharedF64(length);
  to.set(from.subarray(0, count));
  return to;
}

/** Fills the columns one tick at a time, growing them as needed. */
class ColumnsBuilder implements QuoteSink {
  count = 0;
  // Nothing allocated until the first tick or a size from start().
  private capacity = 0;
  private instrument = new Uint16Array(new SharedArrayBuffer(2));
  private time = sharedF64(0);
  private bid = sharedF64(0);
  private ask = sharedF64(0);
  private closeoutBid: Float64Array | undefined;
  private closeoutAsk: Float64Array | undefined;
  private readonly codes = new InstrumentCodes();
  /** The instrument of the quotes to come (quote), numbered at the first of them (an empty file names none). */
  private quoteInstrument = '';
  private quoteCode = -1;

  constructor(private readonly maxTicks: number) {}

  start(instrument: string, ticks: number): void {
    this.quoteInstrument = instrument;
    this.quoteCode = -1;
    const capacity = Math.min(ticks, this.maxTicks);
    if (this.count === 0 && capacity > this.capacity) this.resize(capacity);
  }

  quote(time: number, bid: number, ask: number): boolean {
    if (this.count >= this.maxTicks) return false;
    if (this.quoteCode < 0) this.quoteCode = this.codes.codeOf(this.quoteInstrument);
    if (this.quoteCode < 0) return false;
    // A row without closeouts reads NaN there: the closeout columns hold NaN past the count.
    this.put(this.quoteCode, time, bid, ask);
    return true;
  }

  /** False when the tick cannot be held in columns (liquidity levels, too many instruments). */
  add(tick: Tick): boolean {
    if (tick.bids !== undefined || tick.asks !== undefined) return false;
    const at = this.codes.codeOf(tick.instrument);
    if (at < 0) return false;
    const i = this.put(at, tick.time, tick.bid, tick.ask);
    if (tick.closeoutBid !== undefined || this.closeoutBid !== undefined) this.addCloseout(i, tick);
    return true;
  }

  /** Writes the next row (growing the columns when full) and returns its index. */
  private put(code: number, time: number, bid: number, ask: number): number {
    const i = this.count;
    if (i === this.capacity) this.grow();
    this.instrument[i] = code;
    this.time[i] = time;
    this.bid[i] = bid;
    this.ask[i] = ask;
    this.count = i + 1;
    return i;
  }

  private addCloseout(i: number, tick: Tick): void {
    if (this.closeoutBid === undefined || this.closeoutAsk === undefined) {
      this.closeoutBid = sharedF64(this.capacity).fill(Number.NaN);
      this.closeoutAsk = sharedF64(this.capacity).fill(Number.NaN);
    }
    this.closeoutBid[i] = tick.closeoutBid ?? Number.NaN;
    this.closeoutAsk[i] = tick.closeoutAsk ?? Number.NaN;
  }

  private grow(): void {
    this.resize(Math.max(FIRST_CAPACITY, this.capacity * 2));
  }

  private resize(n: number): void {
    const instrument = new Uint16Array(new SharedArrayBuffer(n * 2));
    instrument.set(this.instrument);
    this.instrument = instrument;
    this.time = grownF64(this.time, n, this.count);
    this.bid = grownF64(this.bid, n, this.count);
    this.ask = grownF64(this.ask, n, this.count);
    if (this.closeoutBid !== undefined && this.closeoutAsk !== undefined) {
      this.closeoutBid = grownF64(this.closeoutBid, n, this.count).fill(Number.NaN, this.count);
      this.closeoutAsk = grownF64(this.closeoutAsk, n, this.count).fill(Number.NaN, this.count);
    }
    this.capacity = n;
  }

  /**
   * The columns cut to the count: views of the same memory when at most a quarter is spare (the
   * usual case when the size was known), else copies, so the spare capacity is freed.
   */
  finish(): TickColumns {
    const n = this.count;
    const keep = n * 4 >= this.capacity * 3;
    const cut = (column: Float64Array): Float64Array => (keep ? column.subarray(0, n) : grownF64(column, n, n));
    const instrument = keep ? this.instrument.subarray(0, n) : new Uint16Array(new SharedArrayBuffer(Math.max(1, n) * 2));
    if (!keep) instrument.set(this.instrument.subarray(0, n));
    return {
      count: n,
      instruments: [...this.codes.names],
      instrument,
      time: cut(this.time),
      bid: cut(this.bid),
      ask: cut(this.ask),
      ...(this.closeoutBid === undefined || this.closeoutAsk === undefined
        ? {}
        : { closeoutBid: cut(this.closeoutBid), closeoutAsk: cut(this.closeoutAsk) }),
    };
  }
}

/**
 * Reads every tick of `ticks` into columns, or gives up (undefined) when a tick has liquidity
 * levels or the columns would pass `maxTicks`: the caller then reads the files per run as before.
 * Errors of the source (a bad line) propagate.
 */
export function readTickColumns(ticks: Iterable<Tick>, maxTicks: number): TickColumns | undefined {
  const builder = new ColumnsBuilder(maxTicks);
  const cursor = tickCursor(ticks);
  try {
    for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) {
      if (builder.count >= maxTicks || !builder.add(tick)) return undefined;
    }
  } finally {
    cursor.close();
  }
  return builder.finish();
}

/**
 * A LEAN file's ticks read straight into columns (lean-quotes.ts), or undefined when that reader
 * does not take the file or gave up: read it through readTicks then (readTickColumns), which gives
 * the same ticks or says what is wrong.
 */
export function readLeanColumns(file: string, opts: LeanQuoteOptions, maxTicks: number): TickColumns | undefined {
  const builder = new ColumnsBuilder(maxTicks);
  return readLeanQuotes(file, opts, builder) ? builder.finish() : undefined;
}

/**
 * A sweep's ticks: the columns of its files one after another, in time order across them (files
 * of consecutive periods), or one part holding them merged by time.
 */
export type SweepColumns = readonly TickColumns[];

/** How many ticks the parts hold. */
export function columnsCount(parts: SweepColumns): number {
  let count = 0;
  for (const part of parts) count += part.count;
  return count;
}

/** Walks the parts' rows one after another, making each Tick as the feed made it. */
class ColumnCursor implements TickCursor {
  private at = 0;
  private i = 0;
  private c: TickColumns | undefined;

  constructor(private readonly parts: SweepColumns) {
    this.c = parts[0];
  }

  next(): Tick | undefined {
    let c = this.c;
    let i = this.i;
    while (c !== undefined && i >= c.count) {
      this.at += 1;
      c = this.parts[this.at];
      this.c = c;
      i = 0;
    }
    if (c === undefined) return undefined;
    this.i = i + 1;
    return rowTick(c.instruments[c.instrument[i] as number] as string, c, i);
  }

  close(): void {}
}

/** Columns, or parts of them in order, as a tick source (each iteration starts at the first tick); a backtest reads it through its cursor. */
export function columnTicks(columns: TickColumns | SweepColumns): CursorSource {
  const parts: SweepColumns = Array.isArray(columns) ? (columns as SweepColumns) : [columns as TickColumns];
  return {
    cursor: () => new ColumnCursor(parts),
    *[Symbol.iterator]() {
      const cursor = new ColumnCursor(parts);
      for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) yield tick;
    },
  };
}

/**
 * True when the ticks of `parts`, one after another, never go back in time: then they are what a
 * merge by time of the parts gives (mergeByTime is a stable sort of their concatenation).
 */
export function partsInTimeOrder(parts: SweepColumns): boolean {
  let last = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    const time = part.time;
    for (let i = 0; i < part.count; i += 1) {
      const t = time[i] as number;
      if (t < last) return false;
      last = t;
    }
  }
  return true;
}
