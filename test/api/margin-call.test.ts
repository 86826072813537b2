import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/app.js';
import { startTestApi } from '../support/api/harness.js';
import { T0 } from '../support/constants.js';

/** Margin call, closeout and the per-account margin options through the HTTP API (src/account/margin-call.ts). */
const A = '101-004-1000000-001';
const B = '101-001-1000000-002';
const ADMIN = { authorization: 'Bearer admin-secret' };
const USER = { authorization: 'Bearer user-token' };

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function call(app: App, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = ADMIN) {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

async function start(): Promise<App> {
  const { app } = await startTestApi({
    accounts: [{ id: A, currency: 'USD', balance: '1000' }],
    start: T0,
    tokens: [{ token: 'user-token', accounts: '*' }],
    api: { adminToken: 'admin-secret' },
  });
  apps.push(app);
  return app;
}

const tick = (bid: string, ask: string) => ({ ticks: [{ instrument: 'EUR_USD', bid, ask }] });

describe('margin call and closeout over HTTP', () => {
  it('the summary shows the margin call while it lasts; the closeout is in the transactions', async () => {
    const app = await start();
    await call(app, 'POST', '/sim/ticks', tick('1.09990', '1.10000'));
    const order = await call(
      app,
      'POST',
      `/v3/accounts/${A}/orders`,
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '27000' } },
      USER,
    );
    expect(order.status).toBe(201);
    await call(app, 'POST', '/sim/ticks', tick('1.09950', '1.09951'));
    const inCall = (await call(app, 'GET', `/v3/accounts/${A}/summary`, undefined, USER)).body['account'] as Record<string, unknown>;
    expect(inCall).toMatchObject({ marginCallEnterTime: expect.any(String), marginCallExtensionCount: 0 });
    expect(Object.keys(inCall).slice(-4)).toEqual([
      'marginCallPercent',
      'marginCallEnterTime',
      'marginCallExtensionCount',
      'lastTransactionID',
    ]);
    await call(app, 'POST', '/sim/ticks', tick('1.08000', '1.08001'));
    const after = (await call(app, 'GET', `/v3/accounts/${A}/summary`, undefined, USER)).body['account'] as Record<string, unknown>;
    expect(after['marginCallEnterTime']).toBeUndefined();
    expect(after).toMatchObject({ openTradeCount: 0, balance: '460.0000' });
    const list = await call(app, 'GET', `/v3/accounts/${A}/transactions/idrange?from=5&to=9`, undefined, USER);
    expect((list.body['transactions'] as { type: string }[]).map((t) => t.type)).toEqual([
      'MARGIN_CALL_ENTER',
      'MARKET_ORDER',
      'ORDER_FILL',
      'MARGIN_CALL_EXIT',
    ]);
  });

  it('POST /sim/accounts takes marginPreset and marginCloseout; the summary shows the margin rate', async () => {
    const app = await start();
    const created = await call(app, 'POST', '/sim/accounts', {
      id: B,
      currency: 'USD',
      balance: '1000',
      marginPreset: 'oanda-corporation-us',
      marginCloseout: false,
    });
    expect(created.status).toBeLessThan(300);
    const instruments = await call(app, 'GET', `/v3/accounts/${B}/instruments?instruments=EUR_USD,AUD_USD`, undefined, USER);
    expect(instruments.body['instruments']).toMatchObject([
      { name: 'EUR_USD', marginRate: '0.02' },
      { name: 'AUD_USD', marginRate: '0.02' },
    ]);
    // The summary shows the account's margin rate (its lowest instrument rate, no override set),
    // as real summaries always do; a configured override replaces it.
    const summary = await call(app, 'GET', `/v3/accounts/${B}/summary`, undefined, USER);
    expect(summary.body['account']).toMatchObject({ marginRate: '0.02' });
    const account = await call(app, 'GET', `/v3/accounts/${B}`, undefined, USER);
    expect(account.body['account']).toMatchObject({ marginRate: '0.02' });
    await call(app, 'PATCH', `/v3/accounts/${B}/configuration`, { marginRate: '0.05' }, USER);
    expect((await call(app, 'GET', `/v3/accounts/${B}/summary`, undefined, USER)).body['account']).toMatchObject({ marginRate: '0.05' });
    const bad = await call(app, 'POST', '/sim/accounts', { id: '101-001-1000000-003', currency: 'USD', marginPreset: 'atlantis' });
    expect(bad.status).toBe(400);
  });
});
