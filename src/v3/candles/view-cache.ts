import { CANDLES_COUNT_MAX } from '../../domain/limits.js';
import type { Micros } from '../../domain/time.js';
import type { Json } from '../response.js';

export interface CandleViewCacheOptions {
  /** Views kept a query, the oldest dropped first. */
  readonly perQuery?: number;
  /** Queries kept, the one asked least recently dropped first. */
  readonly queries?: number;
  /**
   * Hand out the kept views themselves, frozen (the API, which only prints them: the serializer
   * keeps a frozen object's text, so a candle is printed once), rather than a fresh copy each time
   * (a strategy, which may change what it is given).
   */
  readonly shared?: boolean;
}

/** One query's kept views, by candle start. */
export interface CandleViews {
  /** The view of the candle starting at `start`, if kept. */
  get(start: number): Json | undefined;
  /** Keeps a view just made; returns the view to answer with (the same object). */
  keep(start: number, made: Json): Json;
}

/**
 * Views of complete candles kept between calls, by query and then by start time (a number: no
 * string to hash per candle). A complete candle's view never changes while its source series
 * still holds what it was made of (reusableView), so printing it again gives the same text.
 */
export class CandleViewCache {
  private readonly byQuery = new Map<string, Map<number, Json>>();
  private readonly perQuery: number;
  private readonly queries: number;
  private readonly shared: boolean;

  constructor(options: CandleViewCacheOptions = {}) {
    this.perQuery = options.perQuery ?? 4 * CANDLES_COUNT_MAX;
    this.queries = options.queries ?? Number.POSITIVE_INFINITY;
    this.shared = options.shared === true;
  }

  /** The views of one query's candles; the query becomes the most recently asked. */
  of(query: string): CandleViews {
    let map = this.byQuery.get(query);
    if (map === undefined) {
      map = new Map();
      if (this.byQuery.size >= this.queries) {
        const oldest = this.byQuery.keys().next();
        if (oldest.done !== true) this.byQuery.delete(oldest.value);
      }
    } else {
      this.byQuery.delete(query);
    }
    this.byQuery.set(query, map);
    const views = map;
    const max = this.perQuery;
    const shared = this.shared;
    return {
      get(start) {
        const kept = views.get(start);
        return kept === undefined || shared ? kept : copyOf(kept);
      },
      keep(start, made) {
        if (views.size >= max) {
          const oldest = views.keys().next();
          if (oldest.done !== true) views.delete(oldest.value);
        }
        // Shared: the view itself, frozen to the bottom. Else a copy of its own: the caller may change the one it is given.
        views.set(start, shared ? frozen(made) : copyOf(made));
        return made;
      },
    };
  }
}

/**
 * Whether a candle's view may be kept and reused: it is complete by the simulated clock (no quote
 * can reach it any more; a serving shell's clock may run ahead of that one), its source series
 * still holds everything it was folded from, and, smoothed, so does the candle before it, whose
 * close it opens at.
 */
export function reusableView(
  start: Micros,
  end: Micros,
  previousStart: Micros | undefined,
  smooth: boolean,
  intactFrom: Micros,
  now: Micros,
): boolean {
  if (end > now || start < intactFrom) return false;
  if (!smooth) return true;
  return previousStart === undefined ? intactFrom === Number.NEGATIVE_INFINITY : previousStart >= intactFrom;
}

interface Ohlc {
  readonly o: string;
  readonly h: string;
  readonly l: string;
  readonly c: string;
}

interface KeptView {
  readonly complete: boolean;
  readonly volume: number;
  readonly time: string;
  readonly bid?: Ohlc;
  readonly mid?: Ohlc;
  readonly ask?: Ohlc;
}

function ohlcCopy(p: Ohlc): Ohlc {
  return { o: p.o, h: p.h, l: p.l, c: p.c };
}

/**
 * A fresh candle object from a kept view, as a response parsed from JSON would be: its texts are
 * shared, not its objects (literals of a fixed shape: spreading them cost as much as printing).
 */
function copyOf(kept: Json): Json {
  const k = kept as unknown as KeptView;
  const view: Record<string, unknown> = { complete: k.complete, volume: k.volume, time: k.time };
  if (k.bid !== undefined) view['bid'] = ohlcCopy(k.bid);
  if (k.mid !== undefined) view['mid'] = ohlcCopy(k.mid);
  if (k.ask !== undefined) view['ask'] = ohlcCopy(k.ask);
  return view as Json;
}

function frozen(made: Json): Json {
  const k = made as unknown as KeptView;
  if (k.bid !== undefined) Object.freeze(k.bid);
  if (k.mid !== undefined) Object.freeze(k.mid);
  if (k.ask !== undefined) Object.freeze(k.ask);
  return Object.freeze(made);
}
