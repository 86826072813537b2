import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { factorText } from '../../account/valuation.js';
import { baseCurrency, quoteCurrency } from '../../domain/instruments.js';
import { formatRfc3339, parseDateTime, type Micros } from '../../domain/time.js';
import { accountOf } from '../app.js';
import {
  ALIGNMENT_TIMEZONES, DEFAULT_ALIGNMENT, GRANULARITIES, WEEKDAYS, nominalLength,
  type Alignment, type AlignmentTimezone, type Granularity, type Weekday,
} from '../candles/granularity.js';
import { candleView, parsePriceComponents } from '../candles/format.js';
import type { ApiContext } from '../context.js';
import { ApiError, invalidValue } from '../errors.js';
import { clientPrice } from '../market.js';
import { AccountParams, InstrumentName } from '../schemas.js';

/** v20's candle count: default 500, at most 5000 (also the most a from/to span may cover). */
export const CANDLES_COUNT_DEFAULT = 500;
export const CANDLES_COUNT_MAX = 5000;

const COUNT_EXCEEDED = (): ApiError => new ApiError(400, { errorMessage: "Maximum value for 'count' exceeded" });

function literals(values: readonly string[]): TSchema {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

const Bool = literals(['true', 'false']);

/** The instruments of a csv, each known to the engine, without repeats; else 400 for `field`. */
export function parseInstruments(context: ApiContext, text: string, field: string): string[] {
  const names: string[] = [];
  for (const name of text.split(',')) {
    if (!context.engine.instruments.has(name)) throw invalidValue(field);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

const CandleQuery = Type.Object({
  price: Type.Optional(Type.String({ maxLength: 3 })),
  granularity: Type.Optional(literals(GRANULARITIES)),
  count: Type.Optional(Type.String({ pattern: '^\\d{1,9}$' })),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  smooth: Type.Optional(Bool),
  includeFirst: Type.Optional(Bool),
  dailyAlignment: Type.Optional(Type.String({ pattern: '^\\d{1,2}$' })),
  alignmentTimezone: Type.Optional(Type.String({ maxLength: 64 })),
  weeklyAlignment: Type.Optional(literals(WEEKDAYS)),
  units: Type.Optional(Type.String({ maxLength: 64 })),
});

interface CandleQueryValues {
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

function parseTime(text: string | undefined, field: string): Micros | undefined {
  if (text === undefined) return undefined;
  const t = parseDateTime(text);
  if (t === null) throw invalidValue(field);
  return t;
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
function candles(context: ApiContext, instrument: string, q: CandleQueryValues): Record<string, unknown> {
  const spec = context.engine.instruments.get(instrument);
  if (spec === undefined) throw invalidValue('instrument');
  const components = parsePriceComponents(q.price ?? 'M');
  if (components === null) throw invalidValue('price');
  const granularity = (q.granularity ?? 'S5') as Granularity;
  const alignment = parseAlignment(q);
  const from = parseTime(q.from, 'from');
  const to = parseTime(q.to, 'to');
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
    count, includeFirst: q.includeFirst !== 'false',
    ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }),
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

/** Home conversion factors of every currency of the catalogue the account can convert. */
function homeConversions(context: ApiContext, request: FastifyRequest): Record<string, string>[] {
  const state = accountOf(request).state;
  const currencies: string[] = [];
  for (const name of context.engine.instruments.keys()) {
    for (const c of [baseCurrency(name), quoteCurrency(name)]) if (!currencies.includes(c)) currencies.push(c);
  }
  const out: Record<string, string>[] = [];
  for (const currency of currencies) {
    const factor = factorText(state, currency);
    if (factor === null) continue;
    out.push({ currency, accountGain: factor, accountLoss: factor, positionValue: factor });
  }
  return out;
}

/** Pricing and candle endpoints of the v3 API. */
export const pricingRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/accounts/:accountID/pricing', {
    schema: {
      params: AccountParams,
      querystring: Type.Object({
        instruments: Type.String({ maxLength: 10_000 }),
        since: Type.Optional(Type.String({ maxLength: 40 })),
        includeHomeConversions: Type.Optional(Bool),
        includeUnitsAvailable: Type.Optional(Bool),
      }),
    },
  }, async (request) => {
    accountOf(request);
    const q = request.query;
    const instruments = parseInstruments(context, q.instruments, 'instruments');
    const since = parseTime(q.since, 'since');
    const prices: Record<string, unknown>[] = [];
    for (const name of instruments) {
      const quote = context.market.latest(name);
      if (quote === undefined || (since !== undefined && quote.time <= since)) continue;
      prices.push(clientPrice(quote));
    }
    const body: Record<string, unknown> = { prices };
    if (q.includeHomeConversions === 'true') body['homeConversions'] = homeConversions(context, request);
    body['time'] = formatRfc3339(context.engine.now);
    return body;
  });

  app.get('/instruments/:instrument/candles', {
    schema: { params: Type.Object({ instrument: InstrumentName }), querystring: CandleQuery },
  }, async (request) => candles(context, request.params.instrument, request.query as CandleQueryValues));

  app.get('/accounts/:accountID/instruments/:instrument/candles', {
    schema: { params: Type.Object({ accountID: AccountParams.properties.accountID, instrument: InstrumentName }), querystring: CandleQuery },
  }, async (request) => {
    accountOf(request);
    return candles(context, request.params.instrument, request.query as CandleQueryValues);
  });

  app.get('/accounts/:accountID/candles/latest', {
    schema: {
      params: AccountParams,
      querystring: Type.Object({
        candleSpecifications: Type.String({ maxLength: 10_000 }),
        units: Type.Optional(Type.String({ maxLength: 64 })),
        smooth: Type.Optional(Bool),
        dailyAlignment: Type.Optional(Type.String({ pattern: '^\\d{1,2}$' })),
        alignmentTimezone: Type.Optional(Type.String({ maxLength: 64 })),
        weeklyAlignment: Type.Optional(literals(WEEKDAYS)),
      }),
    },
  }, async (request) => {
    accountOf(request);
    const q = request.query;
    const alignment = parseAlignment(q as CandleQueryValues);
    const now = Math.max(context.engine.now, context.now());
    const smooth = q.smooth === 'true';
    const latestCandles: Record<string, unknown>[] = [];
    for (const specText of q.candleSpecifications.split(',')) {
      const [instrument = '', granularity = '', price = ''] = specText.split(':');
      const spec = context.engine.instruments.get(instrument);
      const components = parsePriceComponents(price);
      if (spec === undefined || !(GRANULARITIES as readonly string[]).includes(granularity) || components === null || specText.split(':').length !== 3) {
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
      latestCandles.push({ instrument, granularity, candles: views });
    }
    return { latestCandles };
  });
};
