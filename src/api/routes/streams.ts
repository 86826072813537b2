import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formatDateTime } from '../../domain/time.js';
import { V20Error } from '../../v3/errors.js';
import { queryFlag } from '../../v3/query-bool.js';
import { clientPrice } from '../../v3/price.js';
import { parseInstruments } from '../../v3/pricing.js';
import type { ApiContext } from '../context.js';
import { accountOf } from '../http-call.js';
import { QueryBool } from '../schemas.js';
import { StreamRegistry } from '../stream/registry.js';
import { PRICE_STREAM_THROTTLE_MS_DEFAULT } from '../stream/throttle.js';

const TOO_MANY_STREAMS = (): V20Error => new V20Error(429, { errorMessage: 'Too many active streams' });
/** OANDA allows 20 active streams (facts sheet, rate limits) and answers throttling with 429. */
const TOO_MANY_ACCOUNT_STREAMS = (max: number | undefined): V20Error =>
  new V20Error(429, { errorMessage: `Too many active streams for this Account: at most ${max ?? 0}` });

/** Takes the response over from Fastify: the headers it gathered (RequestID, CORS) plus ours. */
function streamHeaders(reply: FastifyReply): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  headers['content-type'] = 'application/octet-stream';
  headers['cache-control'] = 'no-cache';
  reply.hijack();
  return headers;
}

/**
 * The transaction and pricing streams (NDJSON over a never-ending 200 response), served by the
 * same server as the REST endpoints.
 */
export const streamRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const registry = new StreamRegistry(context);
    app.addHook('preClose', async () => registry.closeAll());

    app.get('/accounts/:accountID/transactions/stream', async (request, reply) => {
      // A stream opened after an order's request starts after the order's transactions (turn-queue.ts).
      context.turn.drain();
      const account = accountOf(request);
      if (registry.full) throw TOO_MANY_STREAMS();
      if (registry.accountFull(account.id)) throw TOO_MANY_ACCOUNT_STREAMS(context.options.limits?.streamsPerAccount);
      const format = request.v20Format ?? 'RFC3339';
      const client = registry.open(account.id, reply.raw, streamHeaders(reply), () =>
        JSON.stringify({
          type: 'HEARTBEAT',
          lastTransactionID: String(account.state.lastTransactionID),
          time: formatDateTime(context.engine.now, format),
        }),
      );
      registry.followTransactions(account.id, client, format);
      return reply;
    });

    app.get(
      '/accounts/:accountID/pricing/stream',
      {
        schema: {
          querystring: Type.Object({
            instruments: Type.String({ maxLength: 10_000 }),
            snapshot: Type.Optional(QueryBool),
            // Listed by OANDA's current docs (facts sheet section 2) but without a line shape for
            // conversions: the OpenAPI stream carries only ClientPrice and PricingHeartbeat lines,
            // and the 2016 stream capture (oandapyV20 responses/pricing.py) neither. Accepted, no
            // effect; GET pricing has them.
            includeHomeConversions: Type.Optional(QueryBool),
          }),
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        const instruments = parseInstruments(context.engine, request.query.instruments, 'instruments');
        if (registry.full) throw TOO_MANY_STREAMS();
        if (registry.accountFull(account.id)) throw TOO_MANY_ACCOUNT_STREAMS(context.options.limits?.streamsPerAccount);
        const format = request.v20Format ?? 'RFC3339';
        const client = registry.open(account.id, reply.raw, streamHeaders(reply), () =>
          JSON.stringify({ type: 'HEARTBEAT', time: formatDateTime(context.engine.now, format) }),
        );
        // snapshot (default true, oanda-v20-openapi.json streamPricing): the latest price of each
        // instrument that has one, unthrottled, before the new ones; it opens no throttle window.
        if (queryFlag(request.query.snapshot, true)) {
          for (const name of instruments) {
            const quote = context.market.latest(name);
            if (quote !== undefined) client.push(JSON.stringify(clientPrice(quote, format, context.engine.now)));
          }
        }
        const throttleMs = context.options.priceStreamThrottleMs ?? PRICE_STREAM_THROTTLE_MS_DEFAULT;
        registry.followPrices(instruments, client, format, throttleMs * 1000);
        return reply;
      },
    );
  };
