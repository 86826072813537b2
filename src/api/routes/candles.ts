import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { GRANULARITIES, WEEKDAYS } from '../../v3/candles/granularity.js';
import { CANDLES_COUNT_MAX } from '../../domain/limits.js';
import { getCandles, getLatestCandles, type CandleCall, type CandleQueryValues } from '../../v3/candles/query.js';
import { CandleViewCache } from '../../v3/candles/view-cache.js';
import type { ApiContext } from '../context.js';
import type { MarketData } from '../market.js';
import { sendV20 } from '../http-call.js';
import { CandlesBody, LatestCandlesBody, ok } from '../responses.js';
import { AccountParams, InstrumentName, QueryBool } from '../schemas.js';

function literals(values: readonly string[]): TSchema {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

const CandleQuery = Type.Object({
  price: Type.Optional(Type.String({ maxLength: 3 })),
  granularity: Type.Optional(literals(GRANULARITIES)),
  count: Type.Optional(Type.String({ pattern: '^\\d{1,9}$' })),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  smooth: Type.Optional(QueryBool),
  includeFirst: Type.Optional(QueryBool),
  dailyAlignment: Type.Optional(Type.String({ pattern: '^\\d{1,2}$' })),
  alignmentTimezone: Type.Optional(Type.String({ maxLength: 64 })),
  weeklyAlignment: Type.Optional(literals(WEEKDAYS)),
  units: Type.Optional(Type.String({ maxLength: 64 })),
});

const LatestCandlesQuery = Type.Object({
  candleSpecifications: Type.String({ maxLength: 10_000 }),
  units: Type.Optional(Type.String({ maxLength: 64 })),
  smooth: Type.Optional(QueryBool),
  dailyAlignment: Type.Optional(Type.String({ pattern: '^\\d{1,2}$' })),
  alignmentTimezone: Type.Optional(Type.String({ maxLength: 64 })),
  weeklyAlignment: Type.Optional(literals(WEEKDAYS)),
});

/**
 * Most queries whose candles' views the API keeps (the least recently asked dropped first), and
 * views a query: a client polls a few series, and at 5,000 views of some 500 bytes (the view and
 * its text) the cache stays under 40 MB whatever clients ask.
 */
const KEPT_QUERIES = 16;

/** The kept views of the market the app serves now: an app that serves another engine (ReusableApp) starts afresh. */
type ViewCaches = WeakMap<MarketData, CandleViewCache>;

function candleCall(context: ApiContext, caches: ViewCaches): CandleCall {
  let views = caches.get(context.market);
  if (views === undefined) {
    views = new CandleViewCache({ perQuery: CANDLES_COUNT_MAX, queries: KEPT_QUERIES, shared: true });
    caches.set(context.market, views);
  }
  return { engine: context.engine, source: context.market, now: context.now(), views };
}

/** Candle endpoints of the v3 API, built from the quotes the server has seen. */
export const candleRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // A polling client asks for the same complete candles again and again: each is printed once.
    const views: ViewCaches = new WeakMap();
    app.get(
      '/instruments/:instrument/candles',
      {
        schema: { params: Type.Object({ instrument: InstrumentName }), querystring: CandleQuery, response: ok(CandlesBody) },
      },
      (request, reply) =>
        sendV20(reply, getCandles(candleCall(context, views), request.params.instrument, request.query as CandleQueryValues)),
    );

    app.get(
      '/accounts/:accountID/instruments/:instrument/candles',
      {
        schema: {
          params: Type.Object({ accountID: AccountParams.properties.accountID, instrument: InstrumentName }),
          querystring: CandleQuery,
          response: ok(CandlesBody),
        },
      },
      (request, reply) =>
        sendV20(reply, getCandles(candleCall(context, views), request.params.instrument, request.query as CandleQueryValues)),
    );

    app.get(
      '/accounts/:accountID/candles/latest',
      { schema: { querystring: LatestCandlesQuery, response: ok(LatestCandlesBody) } },
      (request, reply) =>
        sendV20(reply, getLatestCandles(candleCall(context, views), request.query as CandleQueryValues & { candleSpecifications: string })),
    );
  };
