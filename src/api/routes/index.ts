import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { positionRoutes } from './positions.js';
import { pricingRoutes } from './pricing.js';
import { streamRoutes } from './streams.js';
import { tradeRoutes } from './trades.js';
import { transactionRoutes } from './transactions.js';

/** Resource plugins beyond accounts and orders, registered under /v3. */
export async function registerExtraRoutes(v3: FastifyInstance, context: ApiContext): Promise<void> {
  await v3.register(tradeRoutes(context));
  await v3.register(positionRoutes(context));
  await v3.register(transactionRoutes(context));
  await v3.register(pricingRoutes(context));
  await v3.register(streamRoutes(context));
}
