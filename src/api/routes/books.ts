import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getBook, type BookQuery } from '../../v3/books.js';
import type { ApiContext } from '../context.js';
import { sendV20 } from '../http-call.js';
import { OrderBookBody, PositionBookBody, ok } from '../responses.js';
import { InstrumentName } from '../schemas.js';

const BookParams = Type.Object({ instrument: InstrumentName });
/** `time`: a DateTime, RFC 3339 or UNIX seconds (the operation reads it; malformed is its 400). */
const BookQuerySchema = Type.Object({ time: Type.Optional(Type.String({ maxLength: 40 })) });

/**
 * Order book and position book of an instrument (not account-scoped, as on v20), from the engine's
 * 20-minute snapshots of its own accounts. The engine keeps them from the moment the API is built
 * (buildApp calls `keepBooks`).
 */
export const bookRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/instruments/:instrument/orderBook',
      { schema: { params: BookParams, querystring: BookQuerySchema, response: ok(OrderBookBody) } },
      (request, reply) => sendV20(reply, getBook(context.engine, 'orderBook', request.params.instrument, request.query as BookQuery)),
    );
    app.get(
      '/instruments/:instrument/positionBook',
      { schema: { params: BookParams, querystring: BookQuerySchema, response: ok(PositionBookBody) } },
      (request, reply) => sendV20(reply, getBook(context.engine, 'positionBook', request.params.instrument, request.query as BookQuery)),
    );
  };
