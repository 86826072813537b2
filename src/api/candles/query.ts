import { CANDLES_COUNT_MAX } from '../../domain/limits.js';
import type { ApiContext } from '../context.js';
import { COUNT_EXCEEDED, invalidValue } from '../../v3/errors.js';
import { parseTimeQuery } from '../../v3/pricing.js';
import {
  ALIGNMENT_TIMEZONES,
  DEFAULT_ALIGNMENT,
  GRANULARITIES,
  nominalLength,
  type Alignment,
  type AlignmentTimezone,
  type Granularity,
  type Weekday,
} from './granularity.js';
import { candleView, parsePriceComponents } from './format.js';

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
  if (!(ALIGNMENT_TIMEZONES as readonly string[]).includes(timezone)) throw invalidValue('alignmentTimezone');
  return {
    dailyAlignment: hour,
    timezone: timezone as AlignmentTimezone,
    weeklyAlignment: (q.weeklyAlignment ?? DEFAULT_ALIGNMENT.weeklyAlignment) as Weekday,
  };
}

/** The candles endpoint, shared by the instrument and the account-scoped paths. */
export function candles(context: ApiContext, instrument: string, q: CandleQueryValues): Record<string, unknown> {
  const spec = context.engine.instruments.get(instrument);
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
    includeFirst: q.includeFirst !== 'false',
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
  const selection = context.market.candles(instrument, granularity, alignment, window);
  // Complete = ended by the simulated clock (or the shell's clock when it runs ahead of it).
  const now = Math.max(context.engine.now, context.now());
  const smooth = q.smooth === 'true';
  const views: Record<string, unknown>[] = [];
  let previous = selection.previous;
  for (const c of selection.candles) {
    views.push(candleView(c, spec.displayPrecision, components, now, previous, smooth));
    previous = c;
  }
  return { instrument, granularity, candles: views };
}

export interface LatestCandlesQuery extends CandleQueryValues {
  candleSpecifications: string;
}

/** GET candles/latest: per specification, the last complete candle and the one still forming. */
export function latestCandles(context: ApiContext, q: LatestCandlesQuery): Record<string, unknown> {
  const alignment = parseAlignment(q);
  const now = Math.max(context.engine.now, context.now());
  const smooth = q.smooth === 'true';
  const out: Record<string, unknown>[] = [];
  for (const specText of q.candleSpecifications.split(',')) {
    const [instrument = '', granularity = '', price = ''] = specText.split(':');
    const spec = context.engine.instruments.get(instrument);
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
    const selection = context.market.candles(instrument, granularity as Granularity, alignment, { count: 2, includeFirst: true });
    let chosen = selection.candles;
    let previous = selection.previous;
    const last = chosen.at(-1);
    if (last !== undefined && last.end <= now && chosen.length === 2) {
      previous = chosen[0];
      chosen = [last];
    }
    const views: Record<string, unknown>[] = [];
    for (const c of chosen) {
      views.push(candleView(c, spec.displayPrecision, components, now, previous, smooth));
      previous = c;
    }
    out.push({ instrument, granularity, candles: views });
  }
  return { latestCandles: out };
}
