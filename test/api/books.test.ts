import { afterEach, describe, expect, it } from 'vitest';
import { MICROS_PER_MINUTE } from '../../src/domain/time.js';
import { ACCOUNT, SECOND_ACCOUNT as OTHER, T0 as START, harness, type Harness, type JsonBody } from '../support/api/harness.js';

// START is 2024-01-02T12:00:00Z, itself a boundary: the first snapshot the API sees is 12:20.
const AT_1220 = START + 20 * MICROS_PER_MINUTE;
const AT_1240 = START + 40 * MICROS_PER_MINUTE;
const ORDER_BOOK = '/v3/instruments/EUR_USD/orderBook';
const POSITION_BOOK = '/v3/instruments/EUR_USD/positionBook';

let h: Harness;
afterEach(async () => h.app.close());

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: JsonBody }> {
  const res = await h.request('GET', url, undefined, headers);
  return { status: res.statusCode, body: res.json() };
}

async function order(account: string, order: Record<string, unknown>): Promise<void> {
  const res = await h.request('POST', `/v3/accounts/${account}/orders`, { order });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()['orderCancelTransaction'], res.body).toBeUndefined();
}

/** Two accounts: resting orders on both sides, trades long and short with a take profit and a stop loss. */
async function placeBook(): Promise<void> {
  await order(ACCOUNT, { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000' });
  await order(ACCOUNT, { type: 'LIMIT', instrument: 'EUR_USD', units: '-100', price: '1.11040' });
  await order(ACCOUNT, { type: 'MARKET', instrument: 'EUR_USD', units: '-50' });
  await order(OTHER, {
    type: 'MARKET',
    instrument: 'EUR_USD',
    units: '100',
    takeProfitOnFill: { price: '1.12000' },
    stopLossOnFill: { price: '1.08010' },
  });
  await order(OTHER, { type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '10', price: '1.09010' });
}

describe('GET orderBook and positionBook', () => {
  it('404 until the clock has crossed a 20-minute boundary', async () => {
    h = await harness();
    await placeBook();
    for (const url of [ORDER_BOOK, POSITION_BOOK]) {
      const res = await get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errorMessage: 'The requested resource was not found.' });
    }
  });

  it('shows both accounts bucketed at 12:20 with the mid price before it, and keeps it after', async () => {
    h = await harness();
    await placeBook();
    // The clock crosses 12:20 with this quote: the snapshot is the state before it.
    h.engine.pushTick({ instrument: 'EUR_USD', time: AT_1220 + 1_000_000, bid: 1.101, ask: 1.1012 });
    const orders = await get(ORDER_BOOK);
    expect(orders.status).toBe(200);
    // 5 orders: buy LIMIT 1.09000 and MARKET_IF_TOUCHED 1.09010 share the 1.09000 bucket; the sells are the LIMIT
    // at 1.11040, and the take profit (1.12000) and stop loss (1.08010) of the long trade.
    expect(orders.body).toEqual({
      orderBook: {
        instrument: 'EUR_USD',
        time: '2024-01-02T12:20:00Z',
        unixTime: '1704198000',
        price: '1.10010',
        bucketWidth: '0.00050',
        buckets: [
          { price: '1.08000', longCountPercent: '0.0000', shortCountPercent: '20.0000' },
          { price: '1.09000', longCountPercent: '40.0000', shortCountPercent: '0.0000' },
          { price: '1.11000', longCountPercent: '0.0000', shortCountPercent: '20.0000' },
          { price: '1.12000', longCountPercent: '0.0000', shortCountPercent: '20.0000' },
        ],
      },
    });
    const positions = await get(POSITION_BOOK);
    expect(positions.status).toBe(200);
    // The short trade opened at the bid 1.10000, the long one at the ask 1.10020: one bucket.
    expect(positions.body).toEqual({
      positionBook: {
        instrument: 'EUR_USD',
        time: '2024-01-02T12:20:00Z',
        unixTime: '1704198000',
        price: '1.10010',
        bucketWidth: '0.00050',
        buckets: [{ price: '1.10000', longCountPercent: '50.0000', shortCountPercent: '50.0000' }],
      },
    });

    // A new order shows from the next boundary on; `time` still finds the 12:20 book.
    await order(ACCOUNT, { type: 'LIMIT', instrument: 'EUR_USD', units: '5', price: '1.09499' });
    expect((await get(ORDER_BOOK)).body).toEqual(orders.body);
    h.engine.advanceTo(AT_1240);
    const later = await get(ORDER_BOOK);
    expect(later.body['orderBook']['time']).toBe('2024-01-02T12:40:00Z');
    expect(later.body['orderBook']['price']).toBe('1.10110');
    expect(later.body['orderBook']['buckets']).toEqual([
      { price: '1.08000', longCountPercent: '0.0000', shortCountPercent: '16.6667' },
      { price: '1.09000', longCountPercent: '33.3333', shortCountPercent: '0.0000' },
      { price: '1.09450', longCountPercent: '16.6667', shortCountPercent: '0.0000' },
      { price: '1.11000', longCountPercent: '0.0000', shortCountPercent: '16.6667' },
      { price: '1.12000', longCountPercent: '0.0000', shortCountPercent: '16.6667' },
    ]);
    for (const time of ['2024-01-02T12:39:59.999999Z', '1704199199', '2024-01-02T07:20:00-05:00', '1704198000.5']) {
      expect((await get(`${ORDER_BOOK}?time=${encodeURIComponent(time)}`)).body, time).toEqual(orders.body);
    }
    expect((await get(`${ORDER_BOOK}?time=2024-01-02T12:40:00Z`)).body).toEqual(later.body);
    expect((await get(`${ORDER_BOOK}?time=2024-01-02T12:19:59Z`)).status).toBe(404);
  });

  it('prints time as UNIX seconds under Accept-Datetime-Format: UNIX', async () => {
    h = await harness();
    h.engine.advanceTo(AT_1220);
    const res = await get(POSITION_BOOK, { 'accept-datetime-format': 'UNIX' });
    expect(res.status).toBe(200);
    expect(res.body['positionBook']).toMatchObject({ time: '1704198000.000000000', unixTime: '1704198000', buckets: [] });
  });

  it('an instrument quoted but without orders has an empty book; one never quoted has none', async () => {
    h = await harness();
    h.engine.advanceTo(AT_1220);
    const jpy = await get('/v3/instruments/USD_JPY/orderBook');
    expect(jpy.body).toEqual({
      orderBook: {
        instrument: 'USD_JPY',
        time: '2024-01-02T12:20:00Z',
        unixTime: '1704198000',
        price: '150.010',
        bucketWidth: '0.050',
        buckets: [],
      },
    });
    expect((await get('/v3/instruments/GBP_USD/orderBook')).status).toBe(404);
  });

  it('400 for an unknown instrument or an unreadable time, as the candles path', async () => {
    h = await harness();
    h.engine.advanceTo(AT_1220);
    for (const [url, field] of [
      ['/v3/instruments/XXX_YYY/orderBook', 'instrument'],
      ['/v3/instruments/XXX_YYY/positionBook', 'instrument'],
      [`${ORDER_BOOK}?time=yesterday`, 'time'],
      [`${POSITION_BOOK}?time=2024-13-01T00:00:00Z`, 'time'],
    ] as const) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toEqual({ errorMessage: `Invalid value specified for '${field}'` });
    }
  });
});
