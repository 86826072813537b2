import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context.js';

/** Pricing endpoints of the v3 API. */
export const pricingRoutes = (_context: ApiContext): FastifyPluginAsyncTypebox => async (_app) => {
  // Routes are added here.
};
