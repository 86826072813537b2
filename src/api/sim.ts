import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from './context.js';

/** The control API outside /v3 (admin token): push ticks, drive the clock, manage accounts. */
export const simRoutes = (_context: ApiContext): FastifyPluginAsyncTypebox => async (_app) => {
  // Routes are added here.
};
