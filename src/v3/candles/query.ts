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
import { reusableView, type CandleViewCache } from './view-cache.js';

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
   * Views of complete candles kept between calls (a backtest's strategy and an API client polling
   * ask for the same candles again and again). Absent: printed each time.
   */
  readonly views?: CandleViewCache;
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
  const { list, first, last, intactFrom } = selection;
  const simulatedNow = call.engine.now;
  for (let i = first; i < last; i += 1) {
    const start = list.start(i);
    const previousStart = i > 0 ? list.start(i - 1) : undefined;
    const reusable = cache !== undefined && reusableView(start, list.end(i), previousStart, smooth, intactFrom, simulatedNow);
    const kept = reusable ? cache.get(start) : undefined;
    if (kept !== undefined) {
      views.push(kept);
      continue;
    }
    // Smoothing opens at the close of the candle before (for the first one, the one before the window).
    const previous = smooth && i > 0 ? list.read(i - 1) : undefined;
    const made = candleView(list.read(i), spec.displayPrecision, components, now, previous, smooth) as Json;
    views.push(reusable ? cache.keep(start, made) : made);
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
    const { list, last } = selection;
    let first = selection.first;
    if (last - first === 2 && list.end(last - 1) <= now) first = last - 1;
    const views: Json[] = [];
    for (let i = first; i < last; i += 1) {
      const previous = smooth && i > 0 ? list.read(i - 1) : undefined;
      views.push(candleView(list.read(i), spec.displayPrecision, components, now, previous, smooth));
    }
    out.push({ instrument, granularity, candles: views });
  }
  return { latestCandles: out };
}
