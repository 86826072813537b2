/**
 * Malformed bodies on every route that takes one: random JSON, one field of a valid body replaced
 * by a wrong type / invalid enum / invalid decimal / huge string / deep nesting / prototype
 * pollution key, invalid JSON text, and other Content-Types. See support/api/fuzz.ts for the
 * invariants checked on every answer.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anyBodyText,
  authHeaders,
  badFieldValueText,
  contentTypes,
  expectNoPrototypePollution,
  fuzzRequest,
  saysNothingHappened,
} from '../support/api/fuzz.js';
import { ACCOUNT, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

let api: TestApi;
let tradeID = '';

beforeAll(async () => {
  api = await createTestApi();
  const trade = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
    payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '500000' } },
  });
  tradeID = field<string>(trade.body, 'orderFillTransaction', 'tradeOpened', 'tradeID');
  await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
    payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000', clientExtensions: { id: 'fuzz-pending' } } },
  });
});
afterAll(async () => {
  expectNoPrototypePollution();
  await api.close();
});

interface BodyRoute {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly template: string;
  readonly url: () => string;
  /** Valid bodies: mutations start from one of them. */
  readonly bases: () => Record<string, unknown>[];
}

const A = `/v3/accounts/${ACCOUNT}`;
const ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    template: '/v3/accounts/{accountID}/orders',
    url: () => `${A}/orders`,
    bases: () => [
      {
        order: {
          type: 'MARKET',
          instrument: 'EUR_USD',
          units: '1',
          timeInForce: 'FOK',
          positionFill: 'DEFAULT',
          priceBound: '1.20000',
          clientExtensions: { id: 'c', tag: 't', comment: 'x' },
          tradeClientExtensions: { id: 'tc' },
          takeProfitOnFill: { price: '1.30000', timeInForce: 'GTC' },
          stopLossOnFill: { distance: '0.05000' },
          trailingStopLossOnFill: { distance: '0.05000' },
        },
      },
      {
        order: {
          type: 'LIMIT',
          instrument: 'EUR_USD',
          units: '-1',
          price: '1.30000',
          timeInForce: 'GTD',
          gtdTime: '2024-02-01T00:00:00Z',
          triggerCondition: 'DEFAULT',
        },
      },
      { order: { type: 'STOP', instrument: 'USD_JPY', units: '1', price: '160.000', priceBound: '161.000', timeInForce: 'GTC' } },
      { order: { type: 'MARKET_IF_TOUCHED', instrument: 'GBP_USD', units: '1', price: '1.20000', timeInForce: 'GFD' } },
      { order: { type: 'TAKE_PROFIT', tradeID, price: '1.40000', clientTradeID: 'x' } },
      { order: { type: 'STOP_LOSS', tradeID, distance: '0.10000' } },
      { order: { type: 'TRAILING_STOP_LOSS', tradeID, distance: '0.10000' } },
    ],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/orders/{orderSpecifier}',
    url: () => `${A}/orders/@fuzz-pending`,
    bases: () => [
      { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000', clientExtensions: { id: 'fuzz-pending' } } },
    ],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/orders/{orderSpecifier}/clientExtensions',
    url: () => `${A}/orders/@fuzz-pending/clientExtensions`,
    bases: () => [{ clientExtensions: { id: 'fuzz-pending', tag: 't', comment: 'c' }, tradeClientExtensions: { id: 'x', tag: 't' } }],
  },
  {
    method: 'PATCH',
    template: '/v3/accounts/{accountID}/configuration',
    url: () => `${A}/configuration`,
    bases: () => [{ alias: 'fuzz', marginRate: '0.05' }],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/trades/{tradeSpecifier}/close',
    url: () => `${A}/trades/${tradeID}/close`,
    bases: () => [{ units: '1' }],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/trades/{tradeSpecifier}/clientExtensions',
    url: () => `${A}/trades/${tradeID}/clientExtensions`,
    bases: () => [{ clientExtensions: { id: 'fuzz-trade', tag: 't', comment: 'c' } }],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/trades/{tradeSpecifier}/orders',
    url: () => `${A}/trades/${tradeID}/orders`,
    bases: () => [
      {
        takeProfit: { price: '1.50000', timeInForce: 'GTC' },
        stopLoss: { distance: '0.20000' },
        trailingStopLoss: { distance: '0.20000' },
      },
    ],
  },
  {
    method: 'PUT',
    template: '/v3/accounts/{accountID}/positions/{instrument}/close',
    url: () => `${A}/positions/EUR_USD/close`,
    bases: () => [{ longUnits: '1', longClientExtensions: { tag: 'x' }, shortUnits: 'NONE' }],
  },
];

const PLACEHOLDER = '@@fuzz-placeholder@@';
const EXTRA_KEYS = ['fuzzExtra', '__proto__', 'constructor', 'prototype', 'toString', ''];

/** Every path to a value in a JSON object (objects only, not arrays). */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  const out: string[][] = prefix.length > 0 ? [prefix] : [];
  for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

/** The JSON text of `base` with the value at `path` replaced by raw JSON text. */
function withRawValue(base: Record<string, unknown>, path: string[], raw: string): string {
  const copy = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const fresh: Record<string, unknown> = {};
      Object.defineProperty(node, key, { value: fresh, enumerable: true, writable: true, configurable: true });
      node = fresh;
    } else {
      node = next as Record<string, unknown>;
    }
  }
  // defineProperty, so that '__proto__' becomes an own key that JSON.stringify writes out.
  Object.defineProperty(node, path[path.length - 1] as string, {
    value: PLACEHOLDER,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), raw);
}

const DECIMAL_FIELDS = new Set(['units', 'price', 'distance', 'priceBound']);
/**
 * The values each enumerated field of an OrderRequest takes (written out here, not imported: the
 * test says what v20 accepts). positionFill and triggerCondition also take the Order resource's
 * spellings of DEFAULT, so a client may send back what it read (domain/enum-spelling.ts).
 */
const VALID_ENUMS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['type', new Set(['MARKET', 'LIMIT', 'STOP', 'MARKET_IF_TOUCHED', 'TAKE_PROFIT', 'STOP_LOSS', 'TRAILING_STOP_LOSS'])],
  ['timeInForce', new Set(['GTC', 'GTD', 'GFD', 'FOK', 'IOC'])],
  ['positionFill', new Set(['DEFAULT', 'OPEN_ONLY', 'REDUCE_FIRST', 'REDUCE_ONLY', 'POSITION_DEFAULT'])],
  ['triggerCondition', new Set(['DEFAULT', 'INVERSE', 'BID', 'ASK', 'MID', 'TRIGGER_DEFAULT'])],
]);

/** Whether the value put at `path` is malformed beyond doubt (wrong JSON type, bad enum, bad decimal). */
function isMalformed(base: Record<string, unknown>, path: string[], raw: string): boolean {
  let original: unknown = base;
  for (const key of path)
    original = original !== null && typeof original === 'object' ? (original as Record<string, unknown>)[key] : undefined;
  if (typeof original !== 'string') return false;
  const name = path.at(-1) ?? '';
  // {"takeProfit": null} cancels; only leaves that must be strings are judged.
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return false;
  }
  // A JSON number in a v3 body is read as its exact source text (src/api/plugins/json-body.ts),
  // as real v20 accepts "units": 100: judged as that string.
  if (typeof value === 'number') value = raw.trim();
  if (typeof value !== 'string') return true;
  const valid = VALID_ENUMS.get(name);
  if (path[0] === 'order' && path.length === 2 && valid !== undefined) return !valid.has(value);
  if (DECIMAL_FIELDS.has(name)) return !/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) && !['ALL', 'NONE'].includes(value);
  return false;
}

const RUNS = { random: 30, mutation: 60, text: 25 } as const;

describe.each(ROUTES.map((r) => [`${r.method} ${r.template}`, r] as const))('%s', (_name, route) => {
  it('random JSON and non-JSON text with Content-Type application/json', async () => {
    await fc.assert(
      fc.asyncProperty(anyBodyText, async (text) => {
        await fuzzRequest(api, {
          method: route.method,
          url: route.url(),
          headers: authHeaders({ 'content-type': 'application/json' }),
          payload: text.text,
        });
      }),
      { numRuns: RUNS.random },
    );
  });

  it('one field of a valid body replaced by a hostile value (or a hostile extra key)', async () => {
    const targets = fc.constantFrom(...route.bases()).chain((base) =>
      fc.tuple(
        fc.constant(base),
        fc.oneof(
          fc.constantFrom(...paths(base)),
          fc
            .tuple(fc.constantFrom(...paths(base).filter((p) => p.length <= 2), []), fc.constantFrom(...EXTRA_KEYS))
            .map(([p, k]) => [...p, k]),
        ),
        badFieldValueText,
      ),
    );
    await fc.assert(
      fc.asyncProperty(targets, async ([base, path, rawText]) => {
        const raw = rawText.text;
        const text = withRawValue(base, path, raw);
        const answer = await fuzzRequest(
          api,
          { method: route.method, url: route.url(), headers: authHeaders({ 'content-type': 'application/json' }), payload: text },
          `${route.method} ${route.template} ${path.join('.')}=${raw.slice(0, 80)}`,
        );
        // Unknown request fields are ignored, never echoed into transactions.
        if (answer.status < 300 && path.at(-1) === 'fuzzExtra') expect(answer.text).not.toContain('fuzzExtra');
        // Malformed input (DESIGN.md, failure kind 2) stops at the edge: 400, no transaction.
        if (isMalformed(base, path, raw)) {
          // 413 when the hostile value made the body too large: refused before reading, just as well.
          expect([400, 413], `${path.join('.')}=${raw.slice(0, 80)} -> ${answer.text.slice(0, 300)}`).toContain(answer.status);
          expect(
            saysNothingHappened(answer),
            `${path.join('.')}=${raw.slice(0, 80)} wrote a transaction: ${answer.text.slice(0, 300)}`,
          ).toBe(true);
        }
        expectNoPrototypePollution();
      }),
      { numRuns: RUNS.mutation },
    );
  });

  it('any text under any Content-Type', async () => {
    await fc.assert(
      fc.asyncProperty(anyBodyText, contentTypes, async (text, contentType) => {
        const headers = authHeaders(contentType === '' ? {} : { 'content-type': contentType });
        await fuzzRequest(api, { method: route.method, url: route.url(), headers, payload: text.text });
      }),
      { numRuns: RUNS.text },
    );
  });
});

describe('bodies that are not text', () => {
  it('binary bodies, empty bodies and oversized bodies on POST orders', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        await fuzzRequest(api, {
          method: 'POST',
          url: `${A}/orders`,
          headers: authHeaders({ 'content-type': 'application/json' }),
          payload: Buffer.from(bytes),
        });
      }),
      { numRuns: 30 },
    );
    const empty = await fuzzRequest(api, {
      method: 'POST',
      url: `${A}/orders`,
      headers: authHeaders({ 'content-type': 'application/json' }),
      payload: '',
    });
    expect(empty.status).toBe(400);
    const big = await fuzzRequest(api, {
      method: 'POST',
      url: `${A}/orders`,
      headers: authHeaders({ 'content-type': 'application/json' }),
      payload: `{"order":"${'x'.repeat(400_000)}"}`,
    });
    expect(big.status).toBe(413);
  });
});
