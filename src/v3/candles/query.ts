import { CANDLES_COUNT_MAX } from '../../domain/limits.js';
import type { Micros } from '../../domain/time.js';
import type { Engine } from '../../engine/engine.js';
import { COUNT_EXCEEDED, invalidValue } from '../errors.js';
import { parseTimeQuery } from '../pricing.js';
import { queryFlag } from '../query-bool.js';
import { answer, ok, type Json, type V20Response } from '../response.js';
import { DEFAULT_ALIGNMENT, GRANULARITIES, nominalLength, type Alignment, type Granularity, type Weekday } from './granularity.js';
import { candleView, parsePriceComponents } from './format.js';
import { isAlignmentTimezone } from './zones.js';
import type { CandleSelection, CandleWindow } from './select.js';

/** The candles built from the quotes seen (the API's market data). */
export interface CandleSource {
  /**
   * Candles of an instrument seen so far, picked by v20's from/to/count rules. Granularities up
   * to H1 are kept tick by tick; H2 to M are folded from H1 at the requested alignment.
   */
  candles(instrument: string, granularity: Granularity, alignment: Alignment, window: CandleWindow): CandleSelection;
}

/** Where a candles operation reads: the engine (instruments, simulated clock), the candles, and the caller's clock. */
export interface CandleCall {
  readonly engine: Engine;
  readonly source: CandleSource;
  /** The serving shell's clock, which may run ahead of the simulated one. */
  readonly now: Micros;
  /**
   * Views of complete candles kept between calls (a backtest's strategy asks for the same
   * candles again and again; a complete candle's view never changes). Absent: printed each time.
   */
  readonly views?: CandleViewCache;
}

/** Complete candles' views by query, then by start time (a number: no string to hash per candle), the oldest dropped past `max` a query. */
export class CandleViewCache {
  private readonly byQuery = new Map<string, Map<number, Json>>();

  constructor(private readonly max: number = 4 * CANDLES_COUNT_MAX) {}

  /** The views of one query's candles (at most `max`, the oldest dropped first). */
  of(query: string): CandleViews {
    let views = this.byQuery.get(query);
    if (views === undefined) this.byQuery.set(query, (views = new Map()));
    const max = this.max;
    const map = views;
    return {
      get: (start) => map.get(start),
      set(start, view) {
        if (map.size >= max) {
          const oldest = map.keys().next();
          if (oldest.done !== true) map.delete(oldest.value);
        }
        map.set(start, view);
      },
    };
  }
}

interface CandleViews {
  get(start: number): Json | undefined;
  set(start: number, view: Json): void;
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

/** Complete = ended by the simulated clock (or the shell's clock when it runs ahead of it). */
function completeBefore(call: CandleCall): Micros {
  return Math.max(call.engine.now, call.now);
}

/** v20's candle count: default 500 (facts sheet, Candles); its maximum is CANDLES_COUNT_MAX. */
const CANDLES_COUNT_DEFAULT = 500;

export interface CandleQueryValues {
  price?: string;
  granularity?: string;
  count?: string;
  from?: string;
  to?: string;
  smooth?: string;
  includeFirst?: string;
  dailyAlignment?: string;
  alignmentTimezone?: string;
  weeklyAlignment?: string;
}

function parseAlignment(q: CandleQueryValues): Alignment {
  const hour = q.dailyAlignment === undefined ? DEFAULT_ALIGNMENT.dailyAlignment : Number(q.dailyAlignment);
  if (!(hour >= 0 && hour <= 23)) throw invalidValue('dailyAlignment');
  const timezone = q.alignmentTimezone ?? DEFAULT_ALIGNMENT.timezone;
  if (!isAlignmentTimezone(timezone)) throw invalidValue('alignmentTimezone');
  return {
    dailyAlignment: hour,
    timezone,
    weeklyAlignment: (q.weeklyAlignment ?? DEFAULT_ALIGNMENT.weeklyAlignment) as Weekday,
  };
}

/** GET candles, shared by the instrument and the account-scoped paths. */
export function getCandles(call: CandleCall, instrument: string, q: CandleQueryValues): V20Response {
  return answer(() => ok(candlesBody(call, instrument, q)));
}

function candlesBody(call: CandleCall, instrument: string, q: CandleQueryValues): Json {
  const spec = call.engine.instruments.get(instrument);
  if (spec === undefined) throw invalidValue('instrument');
  const components = parsePriceComponents(q.price ?? 'M');
  if (components === null) throw invalidValue('price');
  const granularity = (q.granularity ?? 'S5') as Granularity;
  const alignment = parseAlignment(q);
  const from = parseTimeQuery(q.from, 'from');
  const to = parseTimeQuery(q.to, 'to');
  let count = CANDLES_COUNT_DEFAULT;
  if (q.count !== undefined) {
    if (from !== undefined && to !== undefined) throw invalidValue('count');
    count = Number(q.count);
    if (count < 1) throw invalidValue('count');
    if (count > CANDLES_COUNT_MAX) throw COUNT_EXCEEDED();
  }
  if (from !== undefined && to !== undefined) {
    if (from > to) throw invalidValue('to');
    if (Math.ceil((to - from) / nominalLength(granularity)) > CANDLES_COUNT_MAX) throw COUNT_EXCEEDED();
  }
  const window = {
    count,
    includeFirst: queryFlag(q.includeFirst, true),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
  const selection = call.source.candles(instrument, granularity, alignment, window);
  const now = completeBefore(call);
  const smooth = queryFlag(q.smooth, false);
  const views: Json[] = [];
  // What a complete candle's view depends on besides its start: its smoothing reads the candle before it, complete too.
  const cache = call.views?.of(
    `${instrument} ${granularity} ${q.price ?? 'M'} ${String(smooth)} ${alignment.dailyAlignment} ${alignment.timezone} ${alignment.weeklyAlignment}`,
  );
  let previous = selection.previous;
  for (const c of selection.candles) {
    const complete = cache !== undefined && c.end <= now;
    const kept = complete ? cache.get(c.start) : undefined;
    let view: Json;
    if (kept !== undefined) view = copyOf(kept);
    else {
      const made = candleView(c, spec.displayPrecision, components, now, previous, smooth);
      // Kept as a copy of its own: the caller may change the objects it is given.
      if (complete) cache.set(c.start, copyOf(made as Json));
      view = made as Json;
    }
    views.push(view);
    previous = c;
  }
  return { instrument, granularity, candles: views };
}

export interface LatestCandlesQuery extends CandleQueryValues {
  candleSpecifications: string;
}

/** GET candles/latest: per specification, the last complete candle and the one still forming. */
export function getLatestCandles(call: CandleCall, q: LatestCandlesQuery): V20Response {
  return answer(() => ok(latestCandlesBody(call, q)));
}

function latestCandlesBody(call: CandleCall, q: LatestCandlesQuery): Json {
  const alignment = parseAlignment(q);
  const now = completeBefore(call);
  const smooth = queryFlag(q.smooth, false);
  const out: Json[] = [];
  for (const specText of q.candleSpecifications.split(',')) {
    const [instrument = '', granularity = '', price = ''] = specText.split(':');
    const spec = call.engine.instruments.get(instrument);
    const components = parsePriceComponents(price);
    if (
      spec === undefined ||
      !(GRANULARITIES as readonly string[]).includes(granularity) ||
      components === null ||
      specText.split(':').length !== 3
    ) {
      throw invalidValue('candleSpecifications');
    }
    // The most recently completed candle and the one still forming ("dancing bears").
    const selection = call.source.candles(instrument, granularity as Granularity, alignment, { count: 2, includeFirst: true });
    let chosen = selection.candles;
    let previous = selection.previous;
    const last = chosen.at(-1);
    if (last !== undefined && last.end <= now && chosen.length === 2) {
      previous = chosen[0];
      chosen = [last];
    }
    const views: Json[] = [];
    for (const c of chosen) {
      views.push(candleView(c, spec.displayPrecision, components, now, previous, smooth));
      previous = c;
    }
    out.push({ instrument, granularity, candles: views });
  }
  return { latestCandles: out };
}
