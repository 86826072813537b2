import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefinition } from '../support/api/contract.js';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const A = '/v3/accounts/{accountID}';
const PRICING = `${A}/pricing`;
const CANDLES = '/v3/instruments/{instrument}/candles';
const ACCOUNT_CANDLES = `${A}/instruments/{instrument}/candles`;
const LATEST = `${A}/candles/latest`;
const url = (suffix = ''): string => `/v3/accounts/${ACCOUNT}${suffix}`;

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
  // Two minutes of EUR_USD quotes, one every 2 s.
  for (let i = 0; i < 60; i += 1) {
    const mid = 1.1 + Math.sin(i / 5) * 0.001;
    api.engine.pushTick({
      instrument: 'EUR_USD',
      bid: Number((mid - 0.0001).toFixed(5)),
      ask: Number((mid + 0.0001).toFixed(5)),
      time: api.engine.now + 2_000_000,
    });
  }
});
afterAll(async () => api.close());

describe('GET /v3/accounts/{accountID}/pricing', () => {
  it('200 with a ClientPrice per instrument and the time to poll from', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/pricing?instruments=EUR_USD,USD_JPY')), 'GET', PRICING, 200);
    const prices = field<{ instrument: string; type: string; bids: unknown[] }[]>(body, 'prices');
    expect(prices.map((p) => p.instrument)).toEqual(['EUR_USD', 'USD_JPY']);
    for (const p of prices) expectDefinition('ClientPrice', p);
    // The deprecated per-account fields real GET pricing bodies carry (oandapyV20 responses/pricing.py).
    for (const p of prices as unknown as Record<string, unknown>[]) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['unitsAvailable', 'quoteHomeConversionFactors']));
      expectDefinition('UnitsAvailable', p['unitsAvailable']);
      for (const d of Object.values(p['unitsAvailable'] as Record<string, unknown>)) expectDefinition('UnitsAvailableDetails', d);
      expectDefinition('QuoteHomeConversionFactors', p['quoteHomeConversionFactors']);
    }
    expect(body['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(body['homeConversions']).toBeUndefined();
  });

  it('200 with home conversions, and only the changed prices since a time', async () => {
    const first = expectV20(
      await send(api.app, 'GET', url('/pricing?instruments=EUR_USD,USD_JPY&includeHomeConversions=true')),
      'GET',
      PRICING,
      200,
    );
    const conversions = field<{ currency: string }[]>(first, 'homeConversions');
    expect(conversions.map((c) => c.currency)).toContain('USD');
    for (const c of conversions) expectDefinition('HomeConversions', c);
    api.quote('USD_JPY', 150.1, 150.12);
    const since = expectV20(
      await send(api.app, 'GET', url(`/pricing?instruments=EUR_USD,USD_JPY&since=${String(first['time'])}`)),
      'GET',
      PRICING,
      200,
    );
    expect(field<{ instrument: string }[]>(since, 'prices').map((p) => p.instrument)).toEqual(['USD_JPY']);
  });

  it('400 without instruments, with an unknown one, or a bad since', async () => {
    for (const q of [
      '',
      'instruments=',
      'instruments=XXX_YYY',
      'instruments=EUR_USD&since=nope',
      'instruments=EUR_USD&includeHomeConversions=yes',
    ]) {
      expectV20(await send(api.app, 'GET', url(`/pricing?${q}`)), 'GET', PRICING, 400);
    }
  });
});

describe('GET /v3/instruments/{instrument}/candles', () => {
  it('200 with mid candles by default and bid/ask on request', async () => {
    const mid = expectV20(await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles?granularity=S10&count=5'), 'GET', CANDLES, 200);
    expect(mid['instrument']).toBe('EUR_USD');
    expect(mid['granularity']).toBe('S10');
    const candles = field<{ mid?: unknown; bid?: unknown; volume: number; complete: boolean }[]>(mid, 'candles');
    expect(candles).toHaveLength(5);
    expect(candles.every((c) => c.mid !== undefined && c.bid === undefined && Number.isInteger(c.volume))).toBe(true);
    const ba = expectV20(
      await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles?granularity=M1&price=BA&count=2'),
      'GET',
      CANDLES,
      200,
    );
    expect(field(ba, 'candles', 0, 'bid', 'o')).toMatch(/^\d+\.\d{5}$/);
    expect(field(ba, 'candles', 0, 'ask', 'c')).toMatch(/^\d+\.\d{5}$/);
  });

  it('200 with from/to and with UNIX times', async () => {
    const body = expectV20(
      await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles?granularity=S30&from=2024-01-02T12:00:00Z&to=2024-01-02T12:01:00Z'),
      'GET',
      CANDLES,
      200,
    );
    expect(field<unknown[]>(body, 'candles').length).toBeGreaterThan(0);
    const unix = expectV20(
      await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles?granularity=S30&count=1', {
        headers: { 'accept-datetime-format': 'UNIX' },
      }),
      'GET',
      CANDLES,
      200,
    );
    expect(field(unix, 'candles', 0, 'time')).toMatch(/^\d+\.\d{9}$/);
  });

  it('400 for bad granularity, count, price, too wide a span, count with from and to', async () => {
    for (const q of [
      'granularity=S7',
      'count=0',
      'count=5001',
      'price=X',
      'granularity=S5&from=2024-01-01T00:00:00Z&to=2024-02-01T00:00:00Z',
      'count=5&from=2024-01-02T12:00:00Z&to=2024-01-02T12:01:00Z',
      'dailyAlignment=24',
      'alignmentTimezone=Mars/Base',
      'weeklyAlignment=Someday',
    ]) {
      expectV20(await send(api.app, 'GET', `/v3/instruments/EUR_USD/candles?${q}`), 'GET', CANDLES, 400);
    }
    expectV20(await send(api.app, 'GET', '/v3/instruments/XXX_YYY/candles'), 'GET', CANDLES, 400);
  });

  it('401 without a token', async () => {
    expectV20(await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles', { token: null }), 'GET', CANDLES, 401);
  });
});

describe('GET /v3/accounts/{accountID}/instruments/{instrument}/candles', () => {
  it('200, the same candles as the instrument path', async () => {
    const body = expectV20(
      await send(api.app, 'GET', url('/instruments/EUR_USD/candles?granularity=S10&count=3')),
      'GET',
      ACCOUNT_CANDLES,
      200,
    );
    const plain = await send(api.app, 'GET', '/v3/instruments/EUR_USD/candles?granularity=S10&count=3');
    expect(body).toEqual(plain.body);
  });
});

describe('GET /v3/accounts/{accountID}/candles/latest (not in the 2018 spec)', () => {
  it('200 with latestCandles, each candle a valid Candlestick', async () => {
    const body = expectV20(
      await send(api.app, 'GET', url('/candles/latest?candleSpecifications=EUR_USD:S10:BM,USD_JPY:M1:A')),
      'GET',
      LATEST,
      200,
      { notInSpec: true },
    );
    const latest = field<{ instrument: string; granularity: string; candles: unknown[] }[]>(body, 'latestCandles');
    expect(latest.map((l) => `${l.instrument}:${l.granularity}`)).toEqual(['EUR_USD:S10', 'USD_JPY:M1']);
    for (const l of latest) for (const c of l.candles) expectDefinition('Candlestick', c);
  });

  it('400 for a malformed specification', async () => {
    for (const spec of ['EUR_USD', 'EUR_USD:S7:M', 'XXX_YYY:S5:M', 'EUR_USD:S5:Q', 'EUR_USD:S5:M:X']) {
      expectV20(await send(api.app, 'GET', url(`/candles/latest?candleSpecifications=${spec}`)), 'GET', LATEST, 400, { notInSpec: true });
    }
  });
});
