import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context.js';

/** Streams endpoints of the v3 API. */
export const streamRoutes = (_context: ApiContext): FastifyPluginAsyncTypebox => async (_app) => {
  // Routes are added here.
};
