import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/app.js';
import { startTestApi } from '../support/api/harness.js';
import { T0 } from '../support/constants.js';

/**
 * TRANSFER_FUNDS through /sim never leaves the balance negative: withdrawalLimit is
 * min(balance, marginAvailable), floored at zero (src/account/valuation.ts), and unrealized gains
 * are not cash.
 */
const A = '101-004-1000000-001';
const ADMIN = { authorization: 'Bearer admin-secret' };
const USER = { authorization: 'Bearer user-token' };

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function call(app: App, method: 'GET' | 'POST', url: string, payload?: unknown, headers = ADMIN) {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('withdrawals and withdrawalLimit', () => {
  it('a position in profit does not let a withdrawal take the balance below zero', async () => {
    const { app } = await startTestApi({
      accounts: [{ id: A, currency: 'USD', balance: '1000' }],
      start: T0,
      tokens: [{ token: 'user-token', accounts: '*' }],
      api: { adminToken: 'admin-secret' },
    });
    apps.push(app);
    await call(app, 'POST', '/sim/ticks', { ticks: [{ instrument: 'EUR_USD', bid: '1.10000', ask: '1.10020' }] });
    const order = await call(
      app,
      'POST',
      `/v3/accounts/${A}/orders`,
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '10000' } },
      USER,
    );
    expect(order.status).toBe(201);
    await call(app, 'POST', '/sim/ticks', { ticks: [{ instrument: 'EUR_USD', bid: '1.20000', ask: '1.20020' }] });

    const summary = (await call(app, 'GET', `/v3/accounts/${A}/summary`, undefined, USER)).body['account'] as Record<string, string>;
    expect(Number(summary['marginAvailable'])).toBeGreaterThan(1500);
    expect(summary['withdrawalLimit']).toBe('1000.0000');

    const tooMuch = await call(app, 'POST', `/sim/accounts/${A}/deposit`, { amount: '-1000.0001' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({
      errorCode: 'INSUFFICIENT_FUNDS',
      transferFundsRejectTransaction: { type: 'TRANSFER_FUNDS_REJECT' },
    });

    const all = await call(app, 'POST', `/sim/accounts/${A}/deposit`, { amount: '-1000' });
    expect(all.status).toBe(200);
    expect(all.body['transferFundsTransaction']).toMatchObject({ amount: '-1000.0000', accountBalance: '0.0000' });
    const after = (await call(app, 'GET', `/v3/accounts/${A}/summary`, undefined, USER)).body['account'] as Record<string, string>;
    expect(after).toMatchObject({ balance: '0.0000', withdrawalLimit: '0.0000' });
  });
});
