import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MICROS_PER_MINUTE } from '../../src/domain/time.js';
import { expectDefinition } from '../support/api/contract.js';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, HEDGED, T0, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const ORDER_BOOK = '/v3/instruments/{instrument}/orderBook';
const POSITION_BOOK = '/v3/instruments/{instrument}/positionBook';
const BOOKS = [
  [ORDER_BOOK, 'orderBook', 'OrderBook', 'OrderBookBucket'],
  [POSITION_BOOK, 'positionBook', 'PositionBook', 'PositionBookBucket'],
] as const;
const url = (template: string, instrument = 'EUR_USD', query = ''): string => template.replace('{instrument}', instrument) + query;

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
  const orders = [
    [ACCOUNT, { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000' }],
    [ACCOUNT, { type: 'MARKET', instrument: 'EUR_USD', units: '-10', takeProfitOnFill: { price: '1.05000' } }],
    [HEDGED, { type: 'MARKET', instrument: 'EUR_USD', units: '20', trailingStopLossOnFill: { distance: '0.00500' } }],
  ] as const;
  for (const [account, order] of orders)
    expect((await send(api.app, 'POST', `/v3/accounts/${account}/orders`, { payload: { order } })).status).toBe(201);
  api.engine.advanceTo(T0 + 20 * MICROS_PER_MINUTE);
});
afterAll(async () => api.close());

describe.each(BOOKS)('GET %s', (template, key, definition, bucketDefinition) => {
  it(`200 with a valid ${definition}, buckets valid ${bucketDefinition}s`, async () => {
    const body = expectV20(await send(api.app, 'GET', url(template)), 'GET', template, 200);
    const book = field<Record<string, unknown>>(body, key);
    expectDefinition(definition, book);
    const buckets = field<Record<string, string>[]>(book, 'buckets');
    expect(buckets.length).toBeGreaterThan(0);
    for (const b of buckets) {
      expectDefinition(bucketDefinition, b);
      expect(b['longCountPercent']).toMatch(/^\d+\.\d{4}$/);
    }
    const unix = expectV20(
      await send(api.app, 'GET', url(template), { headers: { 'accept-datetime-format': 'UNIX' } }),
      'GET',
      template,
      200,
    );
    expect(field(unix, key, 'time')).toMatch(/^\d+\.\d{9}$/);
  });

  it('200 with time as RFC 3339 or UNIX seconds', async () => {
    for (const time of ['2024-01-02T12:30:00Z', '1704198600']) {
      expectV20(await send(api.app, 'GET', url(template, 'EUR_USD', `?time=${time}`)), 'GET', template, 200);
    }
  });

  it('400 for an unknown instrument or a bad time', async () => {
    expectV20(await send(api.app, 'GET', url(template, 'XXX_YYY')), 'GET', template, 400);
    expectV20(await send(api.app, 'GET', url(template, 'EUR_USD', '?time=soon')), 'GET', template, 400);
  });

  it('404 before the first snapshot', async () => {
    expectV20(await send(api.app, 'GET', url(template, 'EUR_USD', '?time=2024-01-02T12:00:00Z')), 'GET', template, 404);
  });
});
