import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { GRANULARITIES, WEEKDAYS } from '../../v3/candles/granularity.js';
import { getCandles, getLatestCandles, type CandleCall, type CandleQueryValues } from '../../v3/candles/query.js';
import type { ApiContext } from '../context.js';
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

function candleCall(context: ApiContext): CandleCall {
  return { engine: context.engine, source: context.market, now: context.now() };
}

/** Candle endpoints of the v3 API, built from the quotes the server has seen. */
export const candleRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/instruments/:instrument/candles',
      {
        schema: { params: Type.Object({ instrument: InstrumentName }), querystring: CandleQuery, response: ok(CandlesBody) },
      },
      (request, reply) => sendV20(reply, getCandles(candleCall(context), request.params.instrument, request.query as CandleQueryValues)),
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
      (request, reply) => sendV20(reply, getCandles(candleCall(context), request.params.instrument, request.query as CandleQueryValues)),
    );

    app.get(
      '/accounts/:accountID/candles/latest',
      { schema: { querystring: LatestCandlesQuery, response: ok(LatestCandlesBody) } },
      (request, reply) =>
        sendV20(reply, getLatestCandles(candleCall(context), request.query as CandleQueryValues & { candleSpecifications: string })),
    );
  };
