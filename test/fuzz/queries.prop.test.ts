/**
 * Malformed query strings on every GET endpoint (streams aside, see paths-headers): random and
 * hostile values for count, ids, state, beforeID, instruments, from, to, pageSize, type, id,
 * since, granularity, ... , unknown and repeated keys. A GET never changes anything, whatever
 * it answers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, checkAnswer, describeErrors, queryString, snapshot } from '../support/api/fuzz.js';
import { ACCOUNT, createTestApi, send, type TestApi } from '../support/api/harness.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
  const A = `/v3/accounts/${ACCOUNT}`;
  await send(api.app, 'POST', `${A}/orders`, {
    payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', takeProfitOnFill: { price: '1.20000' } } },
  });
  await send(api.app, 'POST', `${A}/orders`, {
    payload: { order: { type: 'LIMIT', instrument: 'USD_JPY', units: '-100', price: '155.000' } },
  });
  for (let i = 0; i < 20; i += 1) api.quote('EUR_USD', 1.1 + i * 0.0001, 1.1002 + i * 0.0001);
});
afterAll(async () => api.close());

const A = '/v3/accounts/{accountID}';
const CANDLE_KEYS = [
  'price',
  'granularity',
  'count',
  'from',
  'to',
  'smooth',
  'includeFirst',
  'dailyAlignment',
  'alignmentTimezone',
  'weeklyAlignment',
  'units',
];
const LIST_KEYS = ['ids', 'state', 'instrument', 'count', 'beforeID'];

const GETS: { template: string; url: string; keys: string[] }[] = [
  { template: '/v3/accounts', url: '/v3/accounts', keys: [] },
  { template: A, url: '', keys: [] },
  { template: `${A}/summary`, url: '/summary', keys: [] },
  { template: `${A}/instruments`, url: '/instruments', keys: ['instruments'] },
  { template: `${A}/changes`, url: '/changes', keys: ['sinceTransactionID'] },
  { template: `${A}/orders`, url: '/orders', keys: LIST_KEYS },
  { template: `${A}/pendingOrders`, url: '/pendingOrders', keys: [] },
  { template: `${A}/orders/{orderSpecifier}`, url: '/orders/4', keys: [] },
  { template: `${A}/trades`, url: '/trades', keys: LIST_KEYS },
  { template: `${A}/openTrades`, url: '/openTrades', keys: [] },
  { template: `${A}/trades/{tradeSpecifier}`, url: '/trades/5', keys: [] },
  { template: `${A}/positions`, url: '/positions', keys: [] },
  { template: `${A}/openPositions`, url: '/openPositions', keys: [] },
  { template: `${A}/positions/{instrument}`, url: '/positions/EUR_USD', keys: [] },
  { template: `${A}/transactions`, url: '/transactions', keys: ['from', 'to', 'pageSize', 'type'] },
  { template: `${A}/transactions/{transactionID}`, url: '/transactions/3', keys: [] },
  { template: `${A}/transactions/idrange`, url: '/transactions/idrange', keys: ['from', 'to', 'type'] },
  { template: `${A}/transactions/sinceid`, url: '/transactions/sinceid', keys: ['id', 'type'] },
  { template: `${A}/pricing`, url: '/pricing', keys: ['instruments', 'since', 'includeHomeConversions', 'includeUnitsAvailable'] },
  {
    template: `${A}/candles/latest`,
    url: '/candles/latest',
    keys: ['candleSpecifications', 'units', 'smooth', 'dailyAlignment', 'alignmentTimezone', 'weeklyAlignment'],
  },
  { template: `${A}/instruments/{instrument}/candles`, url: '/instruments/EUR_USD/candles', keys: CANDLE_KEYS },
  { template: '/v3/instruments/{instrument}/candles', url: '/v3/instruments/EUR_USD/candles', keys: CANDLE_KEYS },
];

function urlOf(g: { template: string; url: string }): string {
  return g.template.startsWith(A) ? `/v3/accounts/${ACCOUNT}${g.url}` : g.url;
}

describe.each(GETS.map((g) => [g.template, g] as const))('GET %s', (_name, route) => {
  it('never a 5xx, a JSON body, errorMessage on 4xx, and no state change', async () => {
    const format = fc.constantFrom<Record<string, string>>(
      {},
      {},
      { 'accept-datetime-format': 'UNIX' },
      { 'accept-datetime-format': 'RFC3339' },
    );
    await fc.assert(
      fc.asyncProperty(queryString(route.keys), format, async (query, headers) => {
        const before = await snapshot(api);
        const url = `${urlOf(route)}?${query.text}`;
        const res = await api.app.inject({ method: 'GET', url, headers: authHeaders(headers) });
        checkAnswer(res, res.statusCode >= 500 ? `GET ${url}\n${describeErrors(api)}` : `GET ${url}`);
        expect(await snapshot(api), `GET ${url} changed the account`).toEqual(before);
      }),
      { numRuns: route.keys.length === 0 ? 8 : 35 },
    );
  });
});

it('every GET endpoint answers valid queries 200 (the fuzz reaches the handlers)', async () => {
  for (const g of GETS) {
    const res = await send(api.app, 'GET', urlOf(g));
    const ok =
      g.template.endsWith('/idrange') ||
      g.template.endsWith('/sinceid') ||
      g.template.endsWith('/pricing') ||
      g.template.endsWith('/latest')
        ? 400
        : 200;
    expect(res.status, `${g.template}: ${res.text.slice(0, 200)}`).toBe(ok);
  }
});
