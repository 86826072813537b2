import type { Micros } from '../../domain/time.js';
import { CANDLES_PER_SERIES_MAX } from '../../domain/limits.js';

const INITIAL_CAPACITY = 64;

/**
 * One candle. Prices are integers on the instrument's grid; mid prices are kept doubled
 * (bid + ask) so they stay exact and are rounded only when printed.
 */
export interface CandleRecord {
  start: Micros;
  end: Micros;
  volume: number;
  bo: number;
  bh: number;
  bl: number;
  bc: number;
  ao: number;
  ah: number;
  al: number;
  ac: number;
  mo: number;
  mh: number;
  ml: number;
  mc: number;
}

/** Candles of one series, oldest first, with start and end times increasing. */
export interface CandleList {
  readonly length: number;
  start(i: number): Micros;
  end(i: number): Micros;
  read(i: number): CandleRecord;
}

// Columns of one candle in the flat buffer.
const START = 0,
  VOLUME = 1;
const BO = 2,
  BH = 3,
  BL = 4,
  BC = 5,
  AO = 6,
  AH = 7,
  AL = 8,
  AC = 9,
  MO = 10,
  MH = 11,
  ML = 12,
  MC = 13;
const WIDTH = 14;

/**
 * The candles of one fixed-length granularity, aggregated tick by tick in a flat Float64Array
 * (14 numbers a candle) that grows by doubling up to `max` candles and then overwrites the oldest.
 * Ticks must arrive in time order (the engine guarantees it).
 */
export class CandleSeries implements CandleList {
  private data: Float64Array;
  private capacity: number;
  /** Slot of the oldest candle. */
  private head = 0;
  private size = 0;
  /** The newest candle: its time span and where its columns start in `data`. */
  private newestStart = Number.POSITIVE_INFINITY;
  private newestEnd = Number.NEGATIVE_INFINITY;
  private newestOffset = 0;
  /** Whether the oldest candle was ever overwritten (the series reached `max`). */
  private dropped = false;

  constructor(
    readonly lengthMicros: Micros,
    private readonly max: number = CANDLES_PER_SERIES_MAX,
  ) {
    if (!(max >= 1)) throw new Error('a candle series holds at least one candle');
    this.capacity = Math.min(INITIAL_CAPACITY, max);
    this.data = new Float64Array(this.capacity * WIDTH);
  }

  get length(): number {
    return this.size;
  }

  /**
   * The earliest time from which the series holds every candle it ever made: the oldest kept
   * candle's start once it has dropped one, else -Infinity. A candle folded from this series, or
   * smoothed by the candle before it, reads the same from here on; before it, it may read less.
   */
  get intactFrom(): Micros {
    return this.dropped && this.size > 0 ? this.start(0) : Number.NEGATIVE_INFINITY;
  }

  /** Adds a quote (grid integers) at time `t` to the candle containing it. */
  add(t: Micros, bid: number, ask: number): void {
    const mid = bid + ask;
    if (t >= this.newestStart && t < this.newestEnd) {
      // The common case: the quote falls in the newest candle.
      const d = this.data;
      const o = this.newestOffset;
      d[o + VOLUME] = (d[o + VOLUME] as number) + 1;
      if (bid > (d[o + BH] as number)) d[o + BH] = bid;
      else if (bid < (d[o + BL] as number)) d[o + BL] = bid;
      d[o + BC] = bid;
      if (ask > (d[o + AH] as number)) d[o + AH] = ask;
      else if (ask < (d[o + AL] as number)) d[o + AL] = ask;
      d[o + AC] = ask;
      if (mid > (d[o + MH] as number)) d[o + MH] = mid;
      else if (mid < (d[o + ML] as number)) d[o + ML] = mid;
      d[o + MC] = mid;
      return;
    }
    const length = this.lengthMicros;
    const start = Math.floor(t / length) * length;
    if (this.size > 0 && start < this.newestStart) throw new Error(`quote at ${t} is older than the candle at ${this.newestStart}`);
    const o = this.appendSlot() * WIDTH;
    const e = this.data;
    e[o + START] = start;
    e[o + VOLUME] = 1;
    e[o + BO] = bid;
    e[o + BH] = bid;
    e[o + BL] = bid;
    e[o + BC] = bid;
    e[o + AO] = ask;
    e[o + AH] = ask;
    e[o + AL] = ask;
    e[o + AC] = ask;
    e[o + MO] = mid;
    e[o + MH] = mid;
    e[o + ML] = mid;
    e[o + MC] = mid;
    this.newestStart = start;
    this.newestEnd = start + length;
    this.newestOffset = o;
  }

  start(i: number): Micros {
    return this.data[this.slot(i) * WIDTH + START] as number;
  }

  end(i: number): Micros {
    return this.start(i) + this.lengthMicros;
  }

  read(i: number): CandleRecord {
    const d = this.data;
    const o = this.slot(i) * WIDTH;
    const start = d[o + START] as number;
    return {
      start,
      end: start + this.lengthMicros,
      volume: d[o + VOLUME] as number,
      bo: d[o + BO] as number,
      bh: d[o + BH] as number,
      bl: d[o + BL] as number,
      bc: d[o + BC] as number,
      ao: d[o + AO] as number,
      ah: d[o + AH] as number,
      al: d[o + AL] as number,
      ac: d[o + AC] as number,
      mo: d[o + MO] as number,
      mh: d[o + MH] as number,
      ml: d[o + ML] as number,
      mc: d[o + MC] as number,
    };
  }

  private slot(i: number): number {
    if (i < 0 || i >= this.size) throw new Error(`candle index ${i} out of range 0..${this.size - 1}`);
    return (this.head + i) % this.capacity;
  }

  /** The slot of a new newest candle: grows the buffer, or drops the oldest candle at `max`. */
  private appendSlot(): number {
    if (this.size === this.capacity && this.capacity < this.max) this.grow();
    if (this.size < this.capacity) {
      const slot = (this.head + this.size) % this.capacity;
      this.size += 1;
      return slot;
    }
    const slot = this.head;
    this.head = (this.head + 1) % this.capacity;
    this.dropped = true;
    return slot;
  }

  private grow(): void {
    const capacity = Math.min(this.capacity * 2, this.max);
    const data = new Float64Array(capacity * WIDTH);
    for (let i = 0; i < this.size; i += 1) {
      const from = ((this.head + i) % this.capacity) * WIDTH;
      data.set(this.data.subarray(from, from + WIDTH), i * WIDTH);
    }
    this.data = data;
    this.capacity = capacity;
    this.head = 0;
    this.newestOffset = (this.size - 1) * WIDTH;
  }
}

/** Folds candle `c` (later in time) into `into`. */
export function mergeCandle(into: CandleRecord, c: CandleRecord): void {
  into.volume += c.volume;
  if (c.bh > into.bh) into.bh = c.bh;
  if (c.bl < into.bl) into.bl = c.bl;
  into.bc = c.bc;
  if (c.ah > into.ah) into.ah = c.ah;
  if (c.al < into.al) into.al = c.al;
  into.ac = c.ac;
  if (c.mh > into.mh) into.mh = c.mh;
  if (c.ml < into.ml) into.ml = c.ml;
  into.mc = c.mc;
}

/** A list over an array of candles (derived series). */
export class ArrayCandleList implements CandleList {
  constructor(private readonly candles: readonly CandleRecord[]) {}

  get length(): number {
    return this.candles.length;
  }

  start(i: number): Micros {
    return this.at(i).start;
  }

  end(i: number): Micros {
    return this.at(i).end;
  }

  read(i: number): CandleRecord {
    return { ...this.at(i) };
  }

  private at(i: number): CandleRecord {
    const c = this.candles[i];
    if (c === undefined) throw new Error(`candle index ${i} out of range`);
    return c;
  }
}

/** First index in [0, length] whose value (increasing in i) is >= `t` (or > `t` when strict). */
export function lowerBound(length: number, valueAt: (i: number) => number, t: number, strict = false): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    const v = valueAt(m);
    if (strict ? v > t : v >= t) hi = m;
    else lo = m + 1;
  }
  return lo;
}
