import { MICROS_PER_DAY, type Micros } from '../../domain/time.js';
import { alignedBucket, type Alignment, type Granularity, type StoredGranularity } from './granularity.js';
import { ArrayCandleList, lowerBound, mergeCandle, type CandleList, type CandleRecord } from './series.js';

/** Longer than any aligned candle (a month of 31 days plus the hour summer time can add). */
const ALIGNED_CANDLE_MAX = 32 * MICROS_PER_DAY;

/**
 * The candles of an aligned granularity (H2 to H12, D, W, M) folded from finer candles (H1, or M15
 * in a zone with a non-hour offset), over those that can reach the window [from, to): a candle is
 * the sum of the finer candles whose start falls inside it, as if aggregated tick by tick.
 */
export function alignedCandles(
  h1: CandleList,
  g: Exclude<Granularity, StoredGranularity>,
  alignment: Alignment,
  from: Micros | undefined,
  to: Micros | undefined,
): CandleList {
  const first = from === undefined ? 0 : lowerBound(h1.length, (i) => h1.start(i), from - ALIGNED_CANDLE_MAX);
  const last = to === undefined ? h1.length : lowerBound(h1.length, (i) => h1.start(i), to + ALIGNED_CANDLE_MAX);
  const out: CandleRecord[] = [];
  let current: CandleRecord | undefined;
  for (let i = first; i < last; i += 1) {
    const start = h1.start(i);
    if (current !== undefined && start < current.end) {
      mergeCandle(current, h1.read(i));
      continue;
    }
    const bucket = alignedBucket(g, start, alignment);
    current = h1.read(i);
    current.start = bucket.start;
    current.end = bucket.end;
    out.push(current);
  }
  return new ArrayCandleList(out);
}

export interface CandleWindow {
  readonly from?: Micros;
  readonly to?: Micros;
  /** Without both from and to: how many candles. */
  readonly count: number;
  /** Whether the candle that `from` falls inside is returned. */
  readonly includeFirst: boolean;
}

export interface CandleSelection {
  readonly candles: CandleRecord[];
  /** The candle just before the first one returned, for smoothing. */
  readonly previous: CandleRecord | undefined;
}

/**
 * v20's window rules over a list of candles: `from` returns candles from the one it falls inside
 * (or, with includeFirst false, from the next one); `to` is exclusive (candles starting before
 * it); with only one of them, or neither, `count` candles from `from` forwards or back from `to`
 * (or from the newest).
 */
export function selectCandles(list: CandleList, window: CandleWindow): CandleSelection {
  const { from, to, count } = window;
  let first = 0;
  if (from !== undefined) {
    first = window.includeFirst
      ? lowerBound(list.length, (i) => list.end(i), from, true)
      : lowerBound(list.length, (i) => list.start(i), from, true);
  }
  let last = to === undefined ? list.length : lowerBound(list.length, (i) => list.start(i), to);
  if (from !== undefined && to === undefined) last = Math.min(last, first + count);
  if (from === undefined) first = Math.max(0, last - count);
  const candles: CandleRecord[] = [];
  for (let i = first; i < last; i += 1) candles.push(list.read(i));
  return { candles, previous: first > 0 && first <= list.length ? list.read(first - 1) : undefined };
}
