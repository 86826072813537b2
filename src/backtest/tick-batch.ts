/**
 * Ticks in batches of columns, as the tick reader thread posts them to the backtest's thread: a
 * batch's buffers are transferred, not copied, and read back as Ticks equal, field for field and in
 * the same key order, to the ones the files give (makeTick's shape). A tick with liquidity levels
 * does not fit the columns; it travels whole (structured clone keeps its keys' order) beside them.
 */
import type { Tick } from '../domain/tick.js';
import { InstrumentCodes, rowTick, type ColumnRows } from './column-rows.js';

/** The rows of a batch; the instrument names are the batch's own. */
export interface TickBatch extends ColumnRows {
  /** Ticks with liquidity levels, by their index in the batch, ascending; their columns are unused. */
  readonly whole: ReadonlyArray<readonly [number, Tick]>;
  /** Bytes of tick text the reader parsed while filling the batch (for progress). */
  readonly bytes: number;
}

/** Fills one batch of up to `capacity` ticks. */
export class TickBatchBuilder {
  count = 0;
  private readonly instrument: Uint16Array;
  private readonly time: Float64Array;
  private readonly bid: Float64Array;
  private readonly ask: Float64Array;
  private closeoutBid: Float64Array | undefined;
  private closeoutAsk: Float64Array | undefined;
  private readonly codes = new InstrumentCodes();
  private readonly whole: [number, Tick][] = [];

  constructor(private readonly capacity: number) {
    this.instrument = new Uint16Array(capacity);
    this.time = new Float64Array(capacity);
    this.bid = new Float64Array(capacity);
    this.ask = new Float64Array(capacity);
  }

  /** False when the batch is full (by count, or by instrument names: a Uint16 numbers 65,536): post it and start another. */
  add(tick: Tick): boolean {
    const i = this.count;
    if (i === this.capacity) return false;
    const at = this.codes.codeOf(tick.instrument);
    if (at < 0) return false;
    this.instrument[i] = at;
    this.count = i + 1;
    if (tick.bids !== undefined || tick.asks !== undefined) {
      this.whole.push([i, tick]);
      return true;
    }
    this.time[i] = tick.time;
    this.bid[i] = tick.bid;
    this.ask[i] = tick.ask;
    if (tick.closeoutBid !== undefined || this.closeoutBid !== undefined) this.addCloseout(i, tick);
    return true;
  }

  private addCloseout(i: number, tick: Tick): void {
    if (this.closeoutBid === undefined || this.closeoutAsk === undefined) {
      this.closeoutBid = new Float64Array(this.capacity).fill(Number.NaN);
      this.closeoutAsk = new Float64Array(this.capacity).fill(Number.NaN);
    }
    this.closeoutBid[i] = tick.closeoutBid ?? Number.NaN;
    this.closeoutAsk[i] = tick.closeoutAsk ?? Number.NaN;
  }

  /** The batch, with the bytes of text read for it, and the buffers to transfer with it. */
  finish(bytes: number): { batch: TickBatch; transfer: ArrayBuffer[] } {
    const columns = [this.instrument, this.time, this.bid, this.ask];
    const batch: TickBatch = {
      count: this.count,
      instruments: this.codes.names,
      instrument: this.instrument,
      time: this.time,
      bid: this.bid,
      ask: this.ask,
      ...(this.closeoutBid === undefined || this.closeoutAsk === undefined
        ? {}
        : { closeoutBid: this.closeoutBid, closeoutAsk: this.closeoutAsk }),
      whole: this.whole,
      bytes,
    };
    if (batch.closeoutBid !== undefined && batch.closeoutAsk !== undefined) columns.push(batch.closeoutBid, batch.closeoutAsk);
    return { batch, transfer: columns.map((column) => column.buffer as ArrayBuffer) };
  }
}

/**
 * Reads batches back one tick at a time. Instrument names are interned across batches, so every
 * tick of an instrument carries the one string, as a file's ticks do.
 */
export class TickBatchReader {
  private batch: TickBatch | undefined;
  private i = 0;
  private names: string[] = [];
  private wholeAt = 0;
  private nextWhole = -1;
  private readonly interned = new Map<string, string>();

  /** Starts reading `batch` (the previous one is done with). */
  load(batch: TickBatch): void {
    this.batch = batch;
    this.i = 0;
    this.names = batch.instruments.map((name) => {
      const known = this.interned.get(name);
      if (known !== undefined) return known;
      this.interned.set(name, name);
      return name;
    });
    this.wholeAt = 0;
    this.nextWhole = batch.whole[0]?.[0] ?? -1;
  }

  /** Drops what is left of the loaded batch. */
  clear(): void {
    this.batch = undefined;
  }

  /** The next tick of the loaded batch, or undefined when it is done. */
  next(): Tick | undefined {
    const b = this.batch;
    const i = this.i;
    if (b === undefined || i >= b.count) return undefined;
    this.i = i + 1;
    if (i === this.nextWhole) return this.takeWhole();
    return rowTick(this.names[b.instrument[i] as number] as string, b, i);
  }

  private takeWhole(): Tick {
    const whole = (this.batch as TickBatch).whole;
    const tick = (whole[this.wholeAt] as readonly [number, Tick])[1];
    this.wholeAt += 1;
    this.nextWhole = whole[this.wholeAt]?.[0] ?? -1;
    return tick;
  }
}
