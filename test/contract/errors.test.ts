/**
 * The errors every endpoint shares (401, 403, 404 account, 400 account ID, 405) and the headers
 * every response carries, on every route the app serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, OTHER, OTHER_TOKEN, UNKNOWN_ACCOUNT, createTestApi, hasRoute, send, type TestApi } from '../support/api/harness.js';
import { V20_ROUTES, fill, isAccountScoped, routeKey, type V20Route } from '../support/api/routes.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api.close());

const PARAMS = { orderSpecifier: '1', tradeSpecifier: '1', instrument: 'EUR_USD', transactionID: '1' };
const urlOf = (r: V20Route, accountID = ACCOUNT): string => fill(r.template, { ...PARAMS, accountID });
const payloadOf = (r: V20Route): { payload?: unknown } => (r.body === true ? { payload: {} } : {});
const check = (r: V20Route, res: Awaited<ReturnType<typeof send>>, status: number): Record<string, unknown> =>
  expectV20(res, r.method, r.template, status, r.notInSpec === true ? { notInSpec: true } : {});

const accountRoutes = V20_ROUTES.filter((r) => isAccountScoped(r.template));

it('serves every v20 endpoint of the list (Fastify route table)', () => {
  const missing = V20_ROUTES.filter((r) => !hasRoute(api.app, r.method, r.template)).map(routeKey);
  expect(missing).toEqual([]);
});

it('the 405 table is the served paths: a listed path answers 405 to a method it lacks, an unlisted one 404', async () => {
  // A path the list does not have answers 404 for every method; one it has, 405 for a method it lacks.
  for (const path of ['/v3/accounts/' + ACCOUNT + '/nothing', '/v3/instruments/EUR_USD/nothing', '/v3/users/1']) {
    expect((await send(api.app, 'DELETE', path)).status, path).toBe(404);
  }
  for (const r of V20_ROUTES) {
    const res = await send(api.app, 'DELETE', fill(r.template, { ...PARAMS, accountID: ACCOUNT }));
    expect(res.status, routeKey(r)).toBe(405);
  }
});

describe.each(V20_ROUTES.map((r) => [routeKey(r), r] as const))('%s', (_name, route) => {
  it('401 without a token, with an unknown token, with a malformed Authorization', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'bearer test-token-all-accounts' },
      { authorization: 'test-token-all-accounts' },
      { authorization: 'Bearer ' },
    ]) {
      const body = check(route, await send(api.app, route.method, urlOf(route), { token: null, headers, ...payloadOf(route) }), 401);
      expect(body['errorMessage']).toBe('Insufficient authorization to perform request.');
    }
  });

  it('405 for a method the path does not have', async () => {
    const wrong = route.method === 'GET' ? 'DELETE' : 'GET';
    const res = await send(api.app, wrong, urlOf(route));
    // GET /orders/{id} exists beside PUT /orders/{id}: use DELETE there.
    const res2 = res.status === 405 ? res : await send(api.app, 'DELETE', urlOf(route));
    expect(res2.status, res2.text).toBe(405);
    expectV20(res2, route.method, route.template, 405, route.notInSpec === true ? { notInSpec: true } : {});
  });
});

describe.each(accountRoutes.map((r) => [routeKey(r), r] as const))('%s (account-scoped)', (_name, route) => {
  it('403 when the token is granted only another account', async () => {
    const body = check(route, await send(api.app, route.method, urlOf(route), { token: OTHER_TOKEN, ...payloadOf(route) }), 403);
    expect(body['errorMessage']).toBe('The provided request was forbidden.');
  });

  it('404 for a well-formed account that does not exist', async () => {
    const body = check(route, await send(api.app, route.method, urlOf(route, UNKNOWN_ACCOUNT), payloadOf(route)), 404);
    expect(body['lastTransactionID']).toBeUndefined();
  });

  it('400 for a malformed account ID', async () => {
    for (const id of ['5271115', 'abc', '101-004-1234567-01x', encodeURIComponent('101-004-1234567-001 ')]) {
      const body = check(route, await send(api.app, route.method, urlOf(route, id), payloadOf(route)), 400);
      expect(body['errorMessage']).toBe("Invalid value specified for 'accountID'");
    }
  });

  it('400 for an unknown Accept-Datetime-Format', async () => {
    check(
      route,
      await send(api.app, route.method, urlOf(route), { headers: { 'accept-datetime-format': 'unix' }, ...payloadOf(route) }),
      400,
    );
  });
});

describe('headers on every response', () => {
  it('RequestID is unique per request, also on 404s, 405s and CORS preflight', async () => {
    const ids = new Set<string>();
    const responses = [
      await send(api.app, 'GET', `/v3/accounts/${ACCOUNT}`),
      await send(api.app, 'GET', '/v3/nothing-here'),
      await send(api.app, 'DELETE', `/v3/accounts/${ACCOUNT}`),
      await send(api.app, 'GET', `/v3/accounts/${OTHER}`, { token: OTHER_TOKEN }),
      await send(api.app, 'OPTIONS', `/v3/accounts/${ACCOUNT}/orders`, {
        headers: { origin: 'http://x.test', 'access-control-request-method': 'POST' },
      }),
    ];
    for (const res of responses) {
      const id = res.headers['requestid'];
      expect(id).toBeTypeOf('string');
      ids.add(String(id));
    }
    expect(ids.size).toBe(responses.length);
  });

  it('an unknown path answers 404 with the v20 error shape', async () => {
    const res = await send(api.app, 'GET', '/v3/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errorMessage: 'The requested resource was not found.' });
  });

  it('CORS exposes RequestID, Location and Link', async () => {
    const res = await send(api.app, 'GET', `/v3/accounts/${ACCOUNT}`, { headers: { origin: 'http://x.test' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/RequestID.*Location.*Link/);
  });

  it('a ClientRequestID is echoed into the transactions as requestID', async () => {
    const res = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
      payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.00000' } },
      headers: { clientrequestid: 'my-request-1' },
    });
    expect((res.body as { orderCreateTransaction: { requestID: string } }).orderCreateTransaction.requestID).toBe('my-request-1');
  });

  it('413 for a body over the limit, 415 for a non-JSON Content-Type, both in the v20 error shape', async () => {
    const big = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
      payload: `{"order":{"type":"MARKET","x":"${'a'.repeat(300_000)}"}}`,
    });
    expectV20(big, 'POST', '/v3/accounts/{accountID}/orders', 413);
    const form = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
      payload: 'order=1',
      contentType: 'application/x-www-form-urlencoded',
    });
    expectV20(form, 'POST', '/v3/accounts/{accountID}/orders', 415);
    // text/plain has a parser in Fastify: the string body then fails the schema (400).
    const text = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, { payload: '{"order":{}}', contentType: 'text/plain' });
    expect([400, 415]).toContain(text.status);
    expectV20(text, 'POST', '/v3/accounts/{accountID}/orders', text.status);
  });
});

describe('requests the router refuses before any route', () => {
  it('a malformed percent-encoding in the path answers 400 in the v20 error shape, with a RequestID', async () => {
    for (const segment of ['%zz', '%FF', '%C0%AF']) {
      const res = await send(api.app, 'GET', `/v3/accounts/${ACCOUNT}/orders/${segment}`);
      expect(res.status).toBe(400);
      expect(res.body, res.text).toHaveProperty('errorMessage');
      expect(res.headers['requestid']).toBeTypeOf('string');
    }
  });

  it('a path parameter over the router limit answers in the v20 error shape, with a RequestID', async () => {
    const res = await send(api.app, 'GET', `/v3/accounts/${ACCOUNT}/orders/@${'x'.repeat(600)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body, res.text).toHaveProperty('errorMessage');
    expect(res.headers['requestid']).toBeTypeOf('string');
  });

  it('OPTIONS without CORS preflight headers answers 204 or a v20 JSON error', async () => {
    const res = await send(api.app, 'OPTIONS', `/v3/accounts/${ACCOUNT}`);
    if (res.status !== 204) expect(res.body, res.text).toHaveProperty('errorMessage');
    expect(res.headers['requestid']).toBeTypeOf('string');
  });
});
