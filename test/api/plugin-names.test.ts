import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createEngine } from '../../src/engine/engine.js';
import { ACCOUNT, T0 } from '../support/api/harness.js';

/**
 * Every plugin of the app is registered with a name (plugins/plugin-name.ts): Fastify's plugin tree
 * shows names, and an unnamed plugin, which Fastify would look for in require.cache and avvio would
 * name by the first lines of its source, shows up as that source.
 */
describe('the app plugins', () => {
  it('are all named', async () => {
    const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000' }], start: T0 });
    const app = await buildApp({ engine, tokens: [{ token: 'tok', accounts: '*' }], adminToken: 'admin', dashboard: true });
    try {
      await app.ready();
      const tree = app.printPlugins();
      for (const name of [
        'v20sim-v3',
        'v20sim-v3-auth',
        'v20sim-order-routes',
        'v20sim-stream-routes',
        'v20sim-sim-routes',
        'v20sim-admin-auth',
        'v20sim-dashboard-routes',
      ])
        expect(tree).toContain(name);
      // Fastify's own entries are `root` and the `bound _after` of each route; anything else is ours and named.
      const unnamed = tree
        .split('\n')
        .map((line) => line.replace(/^[\s│├└─┬]+/u, '').replace(/ \d+ ms$/, ''))
        .filter((entry) => entry !== '' && entry !== 'root' && entry !== 'bound _after' && !entry.startsWith('v20sim-'));
      expect(unnamed).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
