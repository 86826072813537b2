import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const A = '/v3/accounts/{accountID}';
const ORDERS = `${A}/orders`;
const ORDER = `${A}/orders/{orderSpecifier}`;
const url = (suffix = ''): string => `/v3/accounts/${ACCOUNT}${suffix}`;
const LOCATION = (id: string): string => `http://v20sim.test/v3/accounts/${ACCOUNT}/orders/${id}`;

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api.close());

async function create(order: Record<string, unknown>, status = 201): Promise<Record<string, unknown>> {
  const res = await send(api.app, 'POST', url('/orders'), { payload: { order } });
  const created = status === 201 ? field<string | undefined>(res.body, 'orderCreateTransaction', 'id') : undefined;
  return expectV20(res, 'POST', ORDERS, status, created === undefined ? {} : { location: LOCATION(created) });
}

let clientSeq = 0;

/** A LIMIT resting far below the market under a client ID of its own: for the tests that read or change one order. */
async function restingLimit(): Promise<{ id: string; clientID: string }> {
  clientSeq += 1;
  const clientID = `resting-${clientSeq}`;
  const body = await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000', clientExtensions: { id: clientID } });
  return { id: field<string>(body, 'orderCreateTransaction', 'id'), clientID };
}

async function lastTransactionID(): Promise<string> {
  return field<string>((await send(api.app, 'GET', url('/summary'))).body, 'lastTransactionID');
}

describe('POST /v3/accounts/{accountID}/orders', () => {
  it('201 MARKET: create + fill (tradeOpened), Location of the order', async () => {
    // GBP_USD: the other tests only buy it, so this fill opens a trade whichever ran before.
    const body = await create({ type: 'MARKET', instrument: 'GBP_USD', units: '1000' });
    expect(field(body, 'orderCreateTransaction', 'type')).toBe('MARKET_ORDER');
    expect(field(body, 'orderFillTransaction', 'type')).toBe('ORDER_FILL');
    expect(field(body, 'orderFillTransaction', 'tradeOpened', 'tradeID')).toBe(field(body, 'orderFillTransaction', 'id'));
    expect(field(body, 'relatedTransactionIDs')).toEqual([
      field(body, 'orderCreateTransaction', 'id'),
      field(body, 'orderFillTransaction', 'id'),
    ]);
    expect(body['lastTransactionID']).toBe(field(body, 'orderFillTransaction', 'id'));
  });

  it('201 MARKET with take profit, stop loss and trailing stop on fill', async () => {
    const body = await create({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '-2000',
      clientExtensions: { id: 'm-with-deps', tag: 't' },
      takeProfitOnFill: { price: '1.05000' },
      stopLossOnFill: { distance: '0.01000' },
      trailingStopLossOnFill: { distance: '0.00800' },
    });
    expect(field(body, 'orderFillTransaction', 'units')).toBe('-2000');
    expect(field<string[]>(body, 'relatedTransactionIDs').length).toBeGreaterThanOrEqual(2);
  });

  it('201 MARKET that is created then cancelled (INSUFFICIENT_MARGIN) is still a 201', async () => {
    const body = await create({ type: 'MARKET', instrument: 'EUR_USD', units: '50000000' });
    expect(field(body, 'orderCancelTransaction', 'type')).toBe('ORDER_CANCEL');
    expect(field(body, 'orderCancelTransaction', 'reason')).toBe('INSUFFICIENT_MARGIN');
    expect(field(body, 'orderFillTransaction')).toBeUndefined();
  });

  it('201 LIMIT, STOP and MARKET_IF_TOUCHED resting', async () => {
    const limit = await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000', clientExtensions: { id: 'lim-1' } });
    expect(field(limit, 'orderCreateTransaction', 'type')).toBe('LIMIT_ORDER');
    expect(limit['orderFillTransaction']).toBeUndefined();
    const stop = await create({
      type: 'STOP',
      instrument: 'EUR_USD',
      units: '100',
      price: '1.15000',
      priceBound: '1.16000',
      timeInForce: 'GTD',
      gtdTime: '2024-02-01T00:00:00Z',
    });
    expect(field(stop, 'orderCreateTransaction', 'type')).toBe('STOP_ORDER');
    const mit = await create({
      type: 'MARKET_IF_TOUCHED',
      instrument: 'USD_JPY',
      units: '-100',
      price: '155.000',
      triggerCondition: 'MID',
    });
    expect(field(mit, 'orderCreateTransaction', 'type')).toBe('MARKET_IF_TOUCHED_ORDER');
  });

  it('201 marketable LIMIT fills at once', async () => {
    const body = await create({ type: 'LIMIT', instrument: 'GBP_USD', units: '100', price: '1.30000' });
    expect(field(body, 'orderFillTransaction', 'reason')).toBe('LIMIT_ORDER');
  });

  it('201 TAKE_PROFIT, STOP_LOSS and TRAILING_STOP_LOSS on a trade', async () => {
    const market = await create({ type: 'MARKET', instrument: 'USD_JPY', units: '100' });
    const tradeID = field<string>(market, 'orderFillTransaction', 'tradeOpened', 'tradeID');
    const tp = await create({ type: 'TAKE_PROFIT', tradeID, price: '160.000' });
    expect(field(tp, 'orderCreateTransaction', 'type')).toBe('TAKE_PROFIT_ORDER');
    const sl = await create({ type: 'STOP_LOSS', tradeID, price: '140.000' });
    expect(field(sl, 'orderCreateTransaction', 'type')).toBe('STOP_LOSS_ORDER');
    const tsl = await create({ type: 'TRAILING_STOP_LOSS', tradeID, distance: '1.000' });
    expect(field(tsl, 'orderCreateTransaction', 'type')).toBe('TRAILING_STOP_LOSS_ORDER');
  });

  it('400 business reject: a reject transaction, errorCode and errorMessage', async () => {
    const zero = await create({ type: 'MARKET', instrument: 'EUR_USD', units: '0' }, 400);
    expect(field(zero, 'orderRejectTransaction', 'type')).toBe('MARKET_ORDER_REJECT');
    expect(field(zero, 'orderRejectTransaction', 'rejectReason')).toBe('UNITS_INVALID');
    expect(zero['errorCode']).toBe('UNITS_INVALID');
    expect(zero['relatedTransactionIDs']).toEqual([field(zero, 'orderRejectTransaction', 'id')]);
    const precision = await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.0500001' }, 400);
    expect(precision['errorCode']).toBe('PRICE_PRECISION_EXCEEDED');
    const missing = await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '10' }, 400);
    expect(field(missing, 'orderRejectTransaction', 'type')).toBe('LIMIT_ORDER_REJECT');
    const noTrade = await create({ type: 'TAKE_PROFIT', tradeID: '999999', price: '1.20000' }, 400);
    expect(field(noTrade, 'orderRejectTransaction', 'type')).toBe('TAKE_PROFIT_ORDER_REJECT');
  });

  it('400 malformed: no transaction, no state change', async () => {
    const before = await lastTransactionID();
    const cases: unknown[] = [
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: 'abc' } },
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: true } },
      { order: { type: 'WHATEVER', instrument: 'EUR_USD', units: '1' } },
      { order: { type: 'MARKET', instrument: 'XXX_YYY', units: '1' } },
      { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.1', timeInForce: 'GTD', gtdTime: 'tomorrow' } },
      { notAnOrder: true },
      [],
      'just a string',
    ];
    for (const payload of cases) {
      const body = expectV20(await send(api.app, 'POST', url('/orders'), { payload: JSON.stringify(payload) }), 'POST', ORDERS, 400);
      expect(body['orderRejectTransaction'], JSON.stringify(payload)).toBeUndefined();
      expect(body['errorMessage']).toMatch(/./);
    }
    const units = expectV20(
      await send(api.app, 'POST', url('/orders'), { payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: 'abc' } } }),
      'POST',
      ORDERS,
      400,
    );
    expect(units['errorMessage']).toBe("Invalid value specified for 'order.units'");
    expectV20(await send(api.app, 'POST', url('/orders'), { payload: '{"order": {' }), 'POST', ORDERS, 400);
    expect(await lastTransactionID()).toBe(before);
  });
});

describe('GET /v3/accounts/{accountID}/orders', () => {
  // Orders of every state for the lists, whichever tests ran before: pending EUR_USD and USD_JPY
  // entries, a filled and a cancelled GBP_USD MARKET (GBP_USD is only bought in this file).
  beforeAll(async () => {
    for (const price of ['1.05000', '1.04000', '1.03000', '1.02000'])
      await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price });
    await create({ type: 'MARKET_IF_TOUCHED', instrument: 'USD_JPY', units: '-100', price: '155.000' });
    await create({ type: 'MARKET', instrument: 'GBP_USD', units: '100' });
    await create({ type: 'MARKET', instrument: 'GBP_USD', units: '50000000' });
  });

  it('200 lists pending orders newest first, all states with state=ALL', async () => {
    const pending = expectV20(await send(api.app, 'GET', url('/orders')), 'GET', ORDERS, 200);
    const ids = field<{ id: string; state: string }[]>(pending, 'orders');
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.every((o) => o.state === 'PENDING')).toBe(true);
    expect(ids.map((o) => Number(o.id))).toEqual(ids.map((o) => Number(o.id)).sort((a, b) => b - a));
    const all = expectV20(await send(api.app, 'GET', url('/orders?state=ALL&count=500')), 'GET', ORDERS, 200);
    const states = new Set(field<{ state: string }[]>(all, 'orders').map((o) => o.state));
    expect(states).toContain('FILLED');
    expect(states).toContain('CANCELLED');
  });

  it('Link header to the next page, with the filters kept', async () => {
    const res = await send(api.app, 'GET', url('/orders?state=ALL&count=2&instrument=EUR_USD'));
    const body = expectV20(res, 'GET', ORDERS, 200);
    const page = field<{ id: string }[]>(body, 'orders');
    expect(page).toHaveLength(2);
    const link = String(res.headers['link']);
    expect(link).toMatch(/^<http:\/\/v20sim\.test\/v3\/accounts\/[^>]+\/orders\?[^>]*>; rel="next"$/);
    const next = new URL(/^<([^>]+)>/.exec(link)?.[1] ?? '');
    expect(next.searchParams.get('state')).toBe('ALL');
    expect(next.searchParams.get('instrument')).toBe('EUR_USD');
    expect(next.searchParams.get('count')).toBe('2');
    expect(next.searchParams.get('beforeID')).toBe(page[1]?.id);
    const second = expectV20(await send(api.app, 'GET', `${next.pathname}${next.search}`), 'GET', ORDERS, 200);
    expect(Number(field(second, 'orders', 0, 'id'))).toBeLessThan(Number(page[1]?.id));
  });

  it('filters by ids and instrument', async () => {
    const all = field<{ id: string; instrument?: string }[]>(
      (await send(api.app, 'GET', url('/orders?state=ALL&count=500'))).body,
      'orders',
    );
    const pick = all.slice(0, 2).map((o) => o.id);
    const byIds = expectV20(await send(api.app, 'GET', url(`/orders?state=ALL&ids=${pick.join(',')}`)), 'GET', ORDERS, 200);
    expect(field<{ id: string }[]>(byIds, 'orders').map((o) => o.id)).toEqual(pick);
    const jpy = expectV20(await send(api.app, 'GET', url('/orders?state=ALL&instrument=USD_JPY')), 'GET', ORDERS, 200);
    const jpyOrders = field<{ instrument?: string; tradeID?: string }[]>(jpy, 'orders');
    expect(jpyOrders.length).toBeGreaterThan(0);
    // Dependent orders (TP/SL/TSL) carry the trade, not the instrument.
    expect(jpyOrders.every((o) => o.instrument === 'USD_JPY' || (o.instrument === undefined && o.tradeID !== undefined))).toBe(true);
  });

  it('400 for malformed or too large count, bad state', async () => {
    expectV20(await send(api.app, 'GET', url('/orders?count=abc')), 'GET', ORDERS, 400);
    const big = expectV20(await send(api.app, 'GET', url('/orders?count=501')), 'GET', ORDERS, 400);
    expect(big['errorMessage']).toBe("Maximum value for 'count' exceeded");
    expectV20(await send(api.app, 'GET', url('/orders?state=OPEN')), 'GET', ORDERS, 400);
    expectV20(await send(api.app, 'GET', url('/orders?beforeID=x')), 'GET', ORDERS, 400);
  });
});

describe('GET /v3/accounts/{accountID}/pendingOrders', () => {
  it('200 with every pending order', async () => {
    // One pending order of each kind: three entries, and a trade's take profit, stop loss and trailing stop.
    const created = [
      await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000' }),
      await create({ type: 'STOP', instrument: 'EUR_USD', units: '100', price: '1.15000' }),
      await create({ type: 'MARKET_IF_TOUCHED', instrument: 'USD_JPY', units: '-100', price: '155.000' }),
    ].map((b) => field<string>(b, 'orderCreateTransaction', 'id'));
    // EUR_GBP: no other test trades it, so this fill opens a trade and its dependent orders.
    const market = await create({
      type: 'MARKET',
      instrument: 'EUR_GBP',
      units: '-100',
      takeProfitOnFill: { price: '0.85000' },
      stopLossOnFill: { distance: '0.01000' },
      trailingStopLossOnFill: { distance: '0.00800' },
    });
    // The dependent orders' creations follow the create and the fill among the related transactions.
    created.push(...field<string[]>(market, 'relatedTransactionIDs').slice(2));
    const body = expectV20(await send(api.app, 'GET', url('/pendingOrders')), 'GET', `${A}/pendingOrders`, 200);
    const orders = field<{ id: string; type: string; state: string }[]>(body, 'orders');
    expect(orders.every((o) => o.state === 'PENDING')).toBe(true);
    const listed = new Map(orders.map((o) => [o.id, o.type]));
    expect(created.map((id) => listed.get(id))).toEqual([
      'LIMIT',
      'STOP',
      'MARKET_IF_TOUCHED',
      'TAKE_PROFIT',
      'STOP_LOSS',
      'TRAILING_STOP_LOSS',
    ]);
  });
});

describe('GET /v3/accounts/{accountID}/orders/{orderSpecifier}', () => {
  it('200 by ID and by @clientID', async () => {
    const { id, clientID } = await restingLimit();
    const byClient = expectV20(await send(api.app, 'GET', url(`/orders/@${clientID}`)), 'GET', ORDER, 200);
    expect(field(byClient, 'order', 'clientExtensions', 'id')).toBe(clientID);
    expect(field(byClient, 'order', 'id')).toBe(id);
    const byId = expectV20(await send(api.app, 'GET', url(`/orders/${id}`)), 'GET', ORDER, 200);
    expect(byId['order']).toEqual(byClient['order']);
  });

  it('200 for a filled order', async () => {
    await create({ type: 'MARKET', instrument: 'EUR_USD', units: '100' });
    const all = field<{ id: string; state: string }[]>((await send(api.app, 'GET', url('/orders?state=FILLED'))).body, 'orders');
    const filled = expectV20(await send(api.app, 'GET', url(`/orders/${all[0]?.id ?? '0'}`)), 'GET', ORDER, 200);
    expect(field(filled, 'order', 'state')).toBe('FILLED');
    expect(field(filled, 'order', 'fillingTransactionID')).toMatch(/^\d+$/);
  });

  it('404 NO_SUCH_ORDER for an unknown order, 400 for a malformed specifier', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/orders/999999')), 'GET', ORDER, 404);
    expect(body['errorCode']).toBe('NO_SUCH_ORDER');
    expect(body['lastTransactionID']).toMatch(/^\d+$/);
    expectV20(await send(api.app, 'GET', url('/orders/@no-such-client-id')), 'GET', ORDER, 404);
    expectV20(await send(api.app, 'GET', url('/orders/abc')), 'GET', ORDER, 400);
  });
});

describe('PUT /v3/accounts/{accountID}/orders/{orderSpecifier} (replace)', () => {
  it('201 with the cancel of the old order and the new order, Location of the new order', async () => {
    const old = await create({
      type: 'LIMIT',
      instrument: 'EUR_USD',
      units: '50',
      price: '1.04000',
      clientExtensions: { id: 'to-replace' },
    });
    const oldId = field<string>(old, 'orderCreateTransaction', 'id');
    const res = await send(api.app, 'PUT', url('/orders/@to-replace'), {
      payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '60', price: '1.04500' } },
    });
    const newId = field<string>(res.body, 'orderCreateTransaction', 'id');
    const body = expectV20(res, 'PUT', ORDER, 201, { location: LOCATION(newId) });
    expect(field(body, 'orderCancelTransaction', 'orderID')).toBe(oldId);
    expect(field(body, 'orderCancelTransaction', 'reason')).toBe('CLIENT_REQUEST_REPLACED');
    expect(field(body, 'orderCreateTransaction', 'replacesOrderID')).toBe(oldId);
    expect(field(body, 'orderCreateTransaction', 'reason')).toBe('REPLACEMENT');
  });

  it('404 with orderCancelRejectTransaction for an unknown order', async () => {
    const body = expectV20(
      await send(api.app, 'PUT', url('/orders/999999'), {
        payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '60', price: '1.04500' } },
      }),
      'PUT',
      ORDER,
      404,
    );
    expect(body['errorMessage']).toBeTypeOf('string');
  });

  it('400 business reject and 400 malformed', async () => {
    const target = await create({ type: 'LIMIT', instrument: 'EUR_USD', units: '50', price: '1.03000' });
    const id = field<string>(target, 'orderCreateTransaction', 'id');
    const reject = expectV20(
      await send(api.app, 'PUT', url(`/orders/${id}`), {
        payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '0', price: '1.03000' } },
      }),
      'PUT',
      ORDER,
      400,
    );
    expect(reject['errorCode']).toBeTypeOf('string');
    expectV20(await send(api.app, 'PUT', url(`/orders/${id}`), { payload: { order: { type: 'LIMIT', units: [] } } }), 'PUT', ORDER, 400);
  });
});

describe('PUT /v3/accounts/{accountID}/orders/{orderSpecifier}/cancel', () => {
  const T = `${ORDER}/cancel`;
  it('200 with orderCancelTransaction', async () => {
    const order = await create({ type: 'STOP', instrument: 'EUR_USD', units: '-10', price: '1.00000' });
    const id = field<string>(order, 'orderCreateTransaction', 'id');
    const body = expectV20(await send(api.app, 'PUT', url(`/orders/${id}/cancel`)), 'PUT', T, 200);
    expect(field(body, 'orderCancelTransaction', 'orderID')).toBe(id);
    expect(field(body, 'orderCancelTransaction', 'reason')).toBe('CLIENT_REQUEST');
  });

  it('200 with an empty JSON body as the official client sends it (Content-Type set, no body)', async () => {
    const order = await create({ type: 'STOP', instrument: 'EUR_USD', units: '-10', price: '1.00000' });
    const id = field<string>(order, 'orderCreateTransaction', 'id');
    const res = await api.app.inject({
      method: 'PUT',
      url: url(`/orders/${id}/cancel`),
      headers: { authorization: 'Bearer test-token-all-accounts', 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('404 ORDER_DOESNT_EXIST with orderCancelRejectTransaction; cancelling twice too', async () => {
    const body = expectV20(await send(api.app, 'PUT', url('/orders/999999/cancel')), 'PUT', T, 404);
    expect(field(body, 'orderCancelRejectTransaction', 'rejectReason')).toBe('ORDER_DOESNT_EXIST');
    expect(body['errorCode']).toBe('ORDER_DOESNT_EXIST');
  });
});

describe('PUT /v3/accounts/{accountID}/orders/{orderSpecifier}/clientExtensions', () => {
  const T = `${ORDER}/clientExtensions`;
  it('200 with orderClientExtensionsModifyTransaction', async () => {
    const { clientID } = await restingLimit();
    const body = expectV20(
      await send(api.app, 'PUT', url(`/orders/@${clientID}/clientExtensions`), {
        payload: { clientExtensions: { comment: 'new comment' }, tradeClientExtensions: { id: `trade-of-${clientID}` } },
      }),
      'PUT',
      T,
      200,
    );
    expect(field(body, 'orderClientExtensionsModifyTransaction', 'type')).toBe('ORDER_CLIENT_EXTENSIONS_MODIFY');
  });

  it('404 for an unknown order, 400 malformed', async () => {
    const unknown = expectV20(
      await send(api.app, 'PUT', url('/orders/999999/clientExtensions'), { payload: { clientExtensions: { tag: 'x' } } }),
      'PUT',
      T,
      404,
    );
    expect(unknown['errorMessage']).toBeTypeOf('string');
    expectV20(
      await send(api.app, 'PUT', url('/orders/@lim-1/clientExtensions'), { payload: { clientExtensions: { tag: false } } }),
      'PUT',
      T,
      400,
    );
  });
});

describe('unknown request fields', () => {
  it('are ignored, never stored or echoed: order, clientExtensions, tradeClientExtensions, on-fill details', async () => {
    const body = await create({
      type: 'LIMIT',
      instrument: 'EUR_USD',
      units: '5',
      price: '1.01000',
      unknownTop: 'u1',
      clientExtensions: { id: 'with-extras', unknownInClientExtensions: 'u2' },
      tradeClientExtensions: { tag: 't', unknownInTradeClientExtensions: 'u3' },
      takeProfitOnFill: { price: '1.30000', unknownInTakeProfit: 'u4' },
    });
    const order = await send(api.app, 'GET', url('/orders/@with-extras'));
    const created = await send(api.app, 'GET', url(`/transactions/${field<string>(body, 'orderCreateTransaction', 'id')}`));
    for (const text of [JSON.stringify(body), order.text, created.text]) {
      for (const marker of ['unknownTop', 'unknownInClientExtensions', 'unknownInTradeClientExtensions', 'unknownInTakeProfit']) {
        expect(text, marker).not.toContain(marker);
      }
    }
  });
});

describe('a replace that cannot be written', () => {
  it('deeply nested content in clientExtensions: never a 5xx, and never half a replace (cancelled without a replacement)', async () => {
    const target = await create({
      type: 'LIMIT',
      instrument: 'EUR_USD',
      units: '7',
      price: '1.02000',
      clientExtensions: { id: 'deep-target' },
    });
    const id = field<string>(target, 'orderCreateTransaction', 'id');
    const before = await lastTransactionID();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await send(api.app, 'PUT', url('/orders/@deep-target'), {
      payload: `{"order":{"type":"LIMIT","instrument":"EUR_USD","units":"7","price":"1.02000","clientExtensions":{"id":"deep-target","x":${deep}}}}`,
    });
    expect.soft(res.status, res.text.slice(0, 300)).toBeLessThan(500);
    const order = await send(api.app, 'GET', url(`/orders/${id}`));
    const log = await send(api.app, 'GET', url(`/transactions/sinceid?id=${before}`));
    const written = field<unknown[]>(log.body, 'transactions').length;
    // Either the replace happened (cancel + create, both in the log) or nothing did.
    if (field(order.body, 'order', 'state') === 'CANCELLED') {
      expect(
        written,
        `order ${id} is CANCELLED by transaction ${String(field(order.body, 'order', 'cancellingTransactionID'))}, the log holds ${written} new transactions`,
      ).toBe(2);
    } else {
      expect(await lastTransactionID()).toBe(before);
    }
    expect(Number(await lastTransactionID())).toBe(Number(before) + written);
  });
});
