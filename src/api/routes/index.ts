import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { v3Auth } from '../plugins/auth.js';
import { simRoutes } from './sim.js';
import { accountRoutes } from './accounts.js';
import { bookRoutes } from './books.js';
import { candleRoutes } from './candles.js';
import { dashboardRoutes } from './dashboard.js';
import { orderRoutes } from './orders.js';
import { positionRoutes } from './positions.js';
import { pricingRoutes } from './pricing.js';
import { streamRoutes } from './streams.js';
import { tradeRoutes } from './trades.js';
import { transactionRoutes } from './transactions.js';

/** Every route of the server: the v3 API under /v3 (bearer tokens), the control API under /sim (admin token). */
export async function registerRoutes(app: FastifyInstance, context: ApiContext): Promise<void> {
  await app.register(
    async (v3) => {
      await v3.register(v3Auth(context));
      await v3.register(accountRoutes(context));
      await v3.register(orderRoutes(context));
      await v3.register(tradeRoutes(context));
      await v3.register(positionRoutes(context));
      await v3.register(transactionRoutes(context));
      await v3.register(pricingRoutes(context));
      await v3.register(candleRoutes(context));
      await v3.register(bookRoutes(context));
      await v3.register(streamRoutes(context));
    },
    { prefix: '/v3' },
  );
  if (context.options.adminToken !== undefined) await app.register(simRoutes(context), { prefix: '/sim' });
  if (context.options.dashboard === true) await app.register(dashboardRoutes);
}
