/**
 * A v3 app that served one engine and then another (ReusableApp, the scenario runner's app kept
 * between files) answers the second exactly as a fresh app over it would: whatever the first
 * engine's clients did (orders, candles that fill the kept views, refused and unknown requests),
 * the second sees its own RequestIDs from the start, its own tokens, candles and prices.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, buildReusableApp, type App, type ReusableApp } from '../../src/api/app.js';
import type { ApiOptions } from '../../src/api/context.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { ACCOUNT, T0 } from '../support/constants.js';

const SECOND = 1_000_000;
const BASE_URL = 'http://v20sim.test';
const ORDERS = `/v3/accounts/${ACCOUNT}/orders`;

interface Request {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  readonly body?: unknown;
  /** The token sent (default: the one the engine's options grant). */
  readonly token?: string;
}

/** One engine's service: its token, its quotes (EUR/USD mid prices, a second apart) and its requests. */
interface Service {
  readonly token: string;
  readonly mids: readonly number[];
  readonly requests: readonly Request[];
}

function engineOf(): Engine {
  return createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }], start: T0, seed: 7 });
}

function optionsOf(engine: Engine, token: string): ApiOptions {
  return { engine, tokens: [{ token, accounts: '*' }], baseUrl: BASE_URL };
}

/** What a service answered, request by request: status, RequestID and body. */
async function serve(app: App, engine: Engine, service: Service): Promise<string[]> {
  service.mids.forEach((mid, i) => engine.pushTick({ instrument: 'EUR_USD', time: T0 + (i + 1) * SECOND, bid: mid, ask: mid + 0.0002 }));
  const answers: string[] = [];
  for (const r of service.requests) {
    const res = await app.inject({
      method: r.method,
      url: r.url,
      headers: { authorization: `Bearer ${r.token ?? service.token}`, 'content-type': 'application/json' },
      ...(r.body === undefined ? {} : { payload: JSON.stringify(r.body) }),
    });
    answers.push(`${res.statusCode} ${String(res.headers['requestid'])} ${res.body}`);
  }
  return answers;
}

/** Enough quotes, a second apart, to complete S5 candles: the kept views are those of complete candles. */
const mids = fc.array(
  fc.integer({ min: 10_900, max: 11_100 }).map((n) => n / 10_000),
  { minLength: 11, maxLength: 16 },
);

const CANDLE_QUERIES: readonly Request[] = [
  { method: 'GET', url: '/v3/instruments/EUR_USD/candles?granularity=S5&count=3' },
  { method: 'GET', url: '/v3/instruments/EUR_USD/candles?granularity=M1&price=MBA' },
  { method: 'GET', url: `/v3/accounts/${ACCOUNT}/candles/latest?candleSpecifications=EUR_USD:S5:M` },
];

const request: fc.Arbitrary<Request> = fc.oneof(
  fc
    .integer({ min: -5, max: 5 })
    .filter((n) => n !== 0)
    .map((n) => ({
      method: 'POST' as const,
      url: ORDERS,
      body: { order: { type: 'MARKET', instrument: 'EUR_USD', units: String(n * 1000) } },
    })),
  fc.integer({ min: 10_800, max: 11_200 }).map((n) => ({
    method: 'POST' as const,
    url: ORDERS,
    body: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: (n / 10_000).toFixed(5) } },
  })),
  fc.constantFrom<Request>(
    ...CANDLE_QUERIES,
    { method: 'GET', url: `/v3/accounts/${ACCOUNT}/pricing?instruments=EUR_USD` },
    { method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary` },
    { method: 'GET', url: `/v3/accounts/${ACCOUNT}/orderBook` },
    { method: 'GET', url: '/v3/instruments/EUR_USD/orderBook' },
    { method: 'PUT', url: `${ORDERS}/3/cancel` },
    { method: 'GET', url: '/v3/nowhere' },
    { method: 'POST', url: ORDERS, body: { order: { type: 'LIMIT' } } },
    { method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary`, token: 'not-a-token' },
  ),
);

/** Random requests, then the candle queries: the first service's kept views are there for the next to be served wrongly. */
const service = (token: string): fc.Arbitrary<Service> =>
  fc.record({ token: fc.constant(token), mids, requests: fc.array(request, { maxLength: 12 }).map((r) => [...r, ...CANDLE_QUERIES]) });

const reusables: ReusableApp[] = [];
afterEach(async () => {
  for (const r of reusables.splice(0)) await r.app.close();
});

describe('a reusable app', () => {
  it('answers the engine it serves next as a fresh app would, whatever the one before it was asked', async () => {
    await fc.assert(
      fc.asyncProperty(service('first-token'), service('next-token'), async (first, next) => {
        // The next service also tries the first's token: refused, as by a fresh app.
        const nextWithOld: Service = {
          ...next,
          requests: [...next.requests, { method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary`, token: 'first-token' }],
        };
        const freshEngine = engineOf();
        const fresh = await buildApp(optionsOf(freshEngine, next.token));
        const expected = await serve(fresh, freshEngine, nextWithOld);
        await fresh.close();

        const firstEngine = engineOf();
        const reusable = await buildReusableApp(optionsOf(firstEngine, first.token));
        reusables.push(reusable);
        await serve(reusable.app, firstEngine, first);
        reusable.unbind();
        const nextEngine = engineOf();
        reusable.bind(optionsOf(nextEngine, next.token));
        expect(await serve(reusable.app, nextEngine, nextWithOld)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('is bound to one engine at a time, with the options it was built with, and not once it listened', async () => {
    const reusable = await buildReusableApp(optionsOf(engineOf(), 'a'));
    reusables.push(reusable);
    expect(() => reusable.bind(optionsOf(engineOf(), 'a'))).toThrow('the app serves an engine already');
    reusable.unbind();
    expect(() => reusable.bind({ ...optionsOf(engineOf(), 'a'), baseUrl: 'http://elsewhere.test' })).toThrow(
      'the app was built with another baseUrl',
    );
    reusable.bind(optionsOf(engineOf(), 'a'));
    await reusable.app.listen({ host: '127.0.0.1', port: 0 });
    reusable.unbind();
    expect(() => reusable.bind(optionsOf(engineOf(), 'a'))).toThrow('a listening app serves its engine until it closes');
  });
});
