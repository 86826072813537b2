import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createEngine } from '../../src/engine/engine.js';
import { ACCOUNT, SECOND_ACCOUNT as OTHER, T0, harness, type Harness } from '../support/api/harness.js';

let h: Harness | undefined;
// Each test that makes a harness closes it here; one that starts its own server closes that itself.
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

describe('accounts', () => {
  it('lists the accounts a token may use', async () => {
    h = await harness();
    expect((await h.request('GET', '/v3/accounts')).json()).toEqual({
      accounts: [
        { id: ACCOUNT, tags: [] },
        { id: OTHER, tags: [] },
      ],
    });
    const limited = await h.app.inject({ method: 'GET', url: '/v3/accounts', headers: { authorization: 'Bearer only-other' } });
    expect(limited.json()).toEqual({ accounts: [{ id: OTHER, tags: [] }] });
  });

  it('answers 401, 403, 404 and 400 for tokens and account IDs as v20 does', async () => {
    h = await harness();
    const none = await h.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ errorMessage: 'Insufficient authorization to perform request.' });
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}`, undefined, { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    const forbidden = await h.app.inject({
      method: 'GET',
      url: `/v3/accounts/${ACCOUNT}`,
      headers: { authorization: 'Bearer only-other' },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ errorMessage: 'The provided request was forbidden.' });
    expect((await h.request('GET', '/v3/accounts/101-004-9999999-001')).statusCode).toBe(404);
    const malformed = await h.request('GET', '/v3/accounts/5271115');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ errorMessage: "Invalid value specified for 'accountID'" });
  });

  it('tells a token nothing about accounts it may not use: 403 whether or not they exist', async () => {
    h = await harness();
    const narrow = { authorization: 'Bearer only-other' };
    const existing = await h.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary`, headers: narrow });
    const missing = await h.app.inject({ method: 'GET', url: '/v3/accounts/101-004-9999999-001/summary', headers: narrow });
    expect([existing.statusCode, missing.statusCode]).toEqual([403, 403]);
    expect(missing.body).toBe(existing.body);
    // A token that may use every account learns that one is missing.
    expect((await h.request('GET', '/v3/accounts/101-004-9999999-001/summary')).statusCode).toBe(404);
  });

  it('answers a token added to the grant list after the server was built (the digest cache follows the list)', async () => {
    const grants: { token: string; accounts: '*' }[] = [{ token: 'first', accounts: '*' }];
    const app = await buildApp({ engine: createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD' }], start: T0 }), tokens: grants });
    const get = async (token: string): Promise<number> =>
      (await app.inject({ method: 'GET', url: '/v3/accounts', headers: { authorization: `Bearer ${token}` } })).statusCode;
    expect([await get('first'), await get('second')]).toEqual([200, 401]);
    grants.push({ token: 'second', accounts: '*' });
    expect([await get('first'), await get('second')]).toEqual([200, 200]);
    await app.close();
  });

  it('checks every Authorization header a keep-alive connection sends, and drops a grant the list no longer holds', async () => {
    const grants: { token: string; accounts: '*' }[] = [{ token: 'first', accounts: '*' }];
    const app = await buildApp({ engine: createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD' }], start: T0 }), tokens: grants });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    // One socket for every request: what a connection keeps must follow what it is sent.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (token: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: `/v3/accounts/${ACCOUNT}/summary`, agent, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      expect([await get('first'), await get('second'), await get('first'), await get('first')]).toEqual([200, 401, 200, 200]);
      grants.splice(0, 1, { token: 'second', accounts: '*' });
      expect([await get('first'), await get('second')]).toEqual([401, 200]);
      grants.length = 0;
      expect(await get('second')).toBe(401);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
      await app.close();
    }
  });

  it('returns the full account and the summary with lastTransactionID', async () => {
    h = await harness();
    await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000' } });
    const full = (await h.request('GET', `/v3/accounts/${ACCOUNT}`)).json();
    expect(full['lastTransactionID']).toBe('4');
    expect(full['account']).toMatchObject({ id: ACCOUNT, currency: 'USD', openTradeCount: 1, lastTransactionID: '4' });
    expect(full['account']['trades']).toHaveLength(1);
    expect(full['account']['positions'][0]).toMatchObject({ instrument: 'EUR_USD', long: { units: '1000' } });
    const summary = (await h.request('GET', `/v3/accounts/${ACCOUNT}/summary`)).json();
    expect(summary['account']['trades']).toBeUndefined();
    expect(summary['account']).toMatchObject({ balance: '100000.0000', unrealizedPL: '-0.2000', NAV: '99999.8000' });
  });

  it('shows dividendAdjustment where real v20 prints it: "0" on the account, "0.0000" on positions, sides and trades', async () => {
    h = await harness();
    await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000' } });
    const account = (await h.request('GET', `/v3/accounts/${ACCOUNT}`)).json()['account'];
    const after = (o: Record<string, unknown>, key: string): string | undefined => Object.keys(o)[Object.keys(o).indexOf(key) + 1];
    // As live captures of GET /v3/accounts/{id} print them (2019-2023): commission, dividendAdjustment, guaranteedExecutionFees.
    expect(account['dividendAdjustment']).toBe('0');
    expect([after(account, 'commission'), after(account, 'dividendAdjustment')]).toEqual(['dividendAdjustment', 'guaranteedExecutionFees']);
    const position = account['positions'][0];
    expect([position['dividendAdjustment'], after(position, 'commission')]).toEqual(['0.0000', 'dividendAdjustment']);
    for (const side of [position['long'], position['short']])
      expect([side['dividendAdjustment'], after(side, 'financing'), after(side, 'dividendAdjustment')]).toEqual([
        '0.0000',
        'dividendAdjustment',
        'guaranteedExecutionFees',
      ]);
    const trade = (await h.request('GET', `/v3/accounts/${ACCOUNT}/trades/4`)).json()['trade'];
    expect([trade['dividendAdjustment'], after(trade, 'financing')]).toEqual(['0.0000', 'dividendAdjustment']);
    expect(account['trades'][0]['dividendAdjustment']).toBe('0.0000');
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}/summary`)).json()['account']['dividendAdjustment']).toBe('0');
  });

  it('lists instruments, all or some; unknown names are invalid', async () => {
    h = await harness();
    const all = (await h.request('GET', `/v3/accounts/${ACCOUNT}/instruments`)).json();
    expect(all['instruments']).toHaveLength(28);
    const some = (await h.request('GET', `/v3/accounts/${ACCOUNT}/instruments?instruments=EUR_USD,USD_JPY`)).json();
    expect(some['instruments'].map((i: { name: string }) => i.name)).toEqual(['EUR_USD', 'USD_JPY']);
    expect(some['instruments'][1]).toMatchObject({ displayPrecision: 3, pipLocation: -2, marginRate: '0.0333', type: 'CURRENCY' });
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}/instruments?instruments=EUR_XXX`)).statusCode).toBe(400);
  });

  it('configures alias and margin rate; a bad rate is a 400 with CLIENT_CONFIGURE_REJECT', async () => {
    h = await harness();
    const ok = await h.request('PATCH', `/v3/accounts/${ACCOUNT}/configuration`, { alias: 'main', marginRate: '0.05' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()['clientConfigureTransaction']).toMatchObject({ type: 'CLIENT_CONFIGURE', alias: 'main', marginRate: '0.05' });
    // The members of oandapyV20's account_config fixture and the OpenAPI answers: no relatedTransactionIDs.
    expect(Object.keys(ok.json())).toEqual(['clientConfigureTransaction', 'lastTransactionID']);
    const bad = await h.request('PATCH', `/v3/accounts/${ACCOUNT}/configuration`, { marginRate: '7' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['clientConfigureRejectTransaction', 'lastTransactionID', 'errorMessage', 'errorCode']);
    expect(bad.json()).toMatchObject({
      clientConfigureRejectTransaction: { rejectReason: 'MARGIN_RATE_INVALID' },
      errorCode: 'MARGIN_RATE_INVALID',
    });
    expect((await h.request('PATCH', `/v3/accounts/${ACCOUNT}/configuration`, { marginRate: true })).statusCode).toBe(400);
  });

  it('reports changes since a transaction; beyond the last one is 416', async () => {
    h = await harness();
    await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' },
    });
    await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } });
    const r = (await h.request('GET', `/v3/accounts/${ACCOUNT}/changes?sinceTransactionID=2`)).json();
    expect(r['lastTransactionID']).toBe('5');
    expect(r['changes']['ordersCreated'].map((o: { id: string }) => o.id)).toEqual(['3', '4']);
    expect(r['changes']['ordersFilled'].map((o: { id: string }) => o.id)).toEqual(['4']);
    expect(r['changes']['tradesOpened'].map((t: { id: string }) => t.id)).toEqual(['5']);
    expect(r['changes']['transactions']).toHaveLength(3);
    expect(r['state']).toHaveProperty('NAV');
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}/changes`)).json()['changes']).toBeUndefined();
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}/changes?sinceTransactionID=9`)).statusCode).toBe(416);
  });

  it('answers 405 on a known path with the wrong method, 404 on an unknown path, CORS preflight with RequestID', async () => {
    h = await harness();
    expect((await h.request('DELETE', `/v3/accounts/${ACCOUNT}/summary`)).statusCode).toBe(405);
    expect((await h.request('GET', '/v3/nothing-here')).statusCode).toBe(404);
    const pre = await h.app.inject({
      method: 'OPTIONS',
      url: `/v3/accounts/${ACCOUNT}/orders`,
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'Authorization,Content-Type',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(String(pre.headers['access-control-allow-methods'])).toContain('PATCH');
    expect(pre.headers['requestid']).toBeDefined();
  });
});
