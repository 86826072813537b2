import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context.js';

/** Transactions endpoints of the v3 API. */
export const transactionRoutes = (_context: ApiContext): FastifyPluginAsyncTypebox => async (_app) => {
  // Routes are added here.
};
