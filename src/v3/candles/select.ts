import { MICROS_PER_DAY, type Micros } from '../../domain/time.js';
import { alignedBucket, nominalLength, type Alignment, type Granularity, type StoredGranularity } from './granularity.js';
import { ArrayCandleList, lowerBound, mergeCandle, type CandleList, type CandleRecord } from './series.js';

/** Longer than any aligned candle (a month of 31 days plus the hour summer time can add). */
const ALIGNED_CANDLE_MAX = 32 * MICROS_PER_DAY;

/**
 * The candles of an aligned granularity (H2 to H12, D, W, M) folded from finer candles (H1, or M15
 * in a zone with a non-hour offset), over those that can reach the window [from, to): a candle is
 * the sum of the finer candles whose start falls inside it, as if aggregated tick by tick. With
 * only one end of the window, only `count` candles from it are needed (and the one before them,
 * which smoothing reads; and the one `from` falls in, which includeFirst may leave out): the finer
 * candles are folded from that end over a span that doubles until it holds them, not to the other
 * end of the series (a year of H1 is 8,760 candles and as many buckets).
 */
export function alignedCandles(
  h1: CandleList,
  g: Exclude<Granularity, StoredGranularity>,
  alignment: Alignment,
  window: CandleWindow,
): CandleList {
  const { from, to, count } = window;
  const startOf = (i: number): Micros => h1.start(i);
  const last = to === undefined ? h1.length : lowerBound(h1.length, startOf, to + ALIGNED_CANDLE_MAX);
  const firstSpan = (count + 2) * nominalLength(g) + ALIGNED_CANDLE_MAX;
  /** The first finer candle of the bucket holding candle i - 1: folded from there, every candle is whole. */
  const wholeFrom = (i: number): number => (i === 0 ? 0 : lowerBound(i, startOf, alignedBucket(g, startOf(i - 1), alignment).start));
  if (from !== undefined) {
    // From the whole candle before the one `from` can fall in: smoothing reads its close, even across a gap of weeks.
    const first = wholeFrom(lowerBound(h1.length, startOf, from - ALIGNED_CANDLE_MAX));
    if (to !== undefined) return fold(h1, g, alignment, first, last);
    for (let span = firstSpan; ; span *= 2) {
      const end = lowerBound(h1.length, startOf, from + span);
      const folded = fold(h1, g, alignment, first, end);
      // The last candle may lack finer candles from `end` on; with count + 2 candles from the one
      // `from` falls in, it is past any the window picks (includeFirst false picks one later).
      if (end === h1.length || folded.length - lowerBound(folded.length, (i) => folded.end(i), from, true) > count + 1) return folded;
    }
  }
  const end = to ?? (last === 0 ? 0 : h1.end(last - 1));
  for (let span = firstSpan; ; span *= 2) {
    const first = wholeFrom(lowerBound(last, startOf, end - span));
    const folded = fold(h1, g, alignment, first, last);
    if (first === 0 || (to === undefined ? folded.length : lowerBound(folded.length, (i) => folded.start(i), to)) > count) return folded;
  }
}

/** Candles folded from finer ones first to last - 1. */
function fold(h1: CandleList, g: Exclude<Granularity, StoredGranularity>, alignment: Alignment, first: number, last: number): CandleList {
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

/** The candles a window picks: positions first to last - 1 of a list, read when asked for. */
export interface CandleSelection {
  readonly list: CandleList;
  readonly first: number;
  /** Exclusive. */
  readonly last: number;
  /**
   * From when the source series holds every candle it made (CandleSeries.intactFrom): a candle
   * starting earlier, or smoothed by one that does, may read differently than it once did.
   */
  readonly intactFrom: Micros;
}

/**
 * v20's window rules over a list of candles: `from` returns candles from the one it falls inside
 * (or, with includeFirst false, from the next one); `to` is exclusive (candles starting before
 * it); with only one of them, or neither, `count` candles from `from` forwards or back from `to`
 * (or from the newest).
 */
export function selectCandles(list: CandleList, window: CandleWindow, intactFrom: Micros = Number.NEGATIVE_INFINITY): CandleSelection {
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
  return { list, first, last: Math.max(first, last), intactFrom };
}
