import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getPricing } from '../../v3/pricing.js';
import type { ApiContext } from '../context.js';
import { callOf, sendV20 } from '../http-call.js';
import { PricingBody, ok } from '../responses.js';
import { QueryBool } from '../schemas.js';

const PricingQuery = Type.Object({
  instruments: Type.String({ maxLength: 10_000 }),
  since: Type.Optional(Type.String({ maxLength: 40 })),
  includeHomeConversions: Type.Optional(QueryBool),
  includeUnitsAvailable: Type.Optional(QueryBool),
});

/** GET pricing of the v3 API: the latest quotes the server has seen. */
export const pricingRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/accounts/:accountID/pricing', { schema: { querystring: PricingQuery, response: ok(PricingBody) } }, (request, reply) =>
      sendV20(reply, getPricing(callOf(context, request), context.market, request.query)),
    );
  };
