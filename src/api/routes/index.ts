import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { named } from '../plugins/plugin-name.js';
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
    named('v20sim-v3', async (v3: FastifyInstance) => {
      await v3.register(v3Auth(context));
      await v3.register(named('v20sim-account-routes', accountRoutes(context)));
      await v3.register(named('v20sim-order-routes', orderRoutes(context)));
      await v3.register(named('v20sim-trade-routes', tradeRoutes(context)));
      await v3.register(named('v20sim-position-routes', positionRoutes(context)));
      await v3.register(named('v20sim-transaction-routes', transactionRoutes(context)));
      await v3.register(named('v20sim-pricing-routes', pricingRoutes(context)));
      await v3.register(named('v20sim-candle-routes', candleRoutes(context)));
      await v3.register(named('v20sim-book-routes', bookRoutes(context)));
      await v3.register(named('v20sim-stream-routes', streamRoutes(context)));
    }),
    { prefix: '/v3' },
  );
  if (context.options.adminToken !== undefined) await app.register(named('v20sim-sim-routes', simRoutes(context)), { prefix: '/sim' });
  if (context.options.dashboard === true) await app.register(named('v20sim-dashboard-routes', dashboardRoutes));
}
