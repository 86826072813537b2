import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, HEDGED, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const A = '/v3/accounts/{accountID}';
const TRADES = `${A}/trades`;
const TRADE = `${A}/trades/{tradeSpecifier}`;
const POSITION = `${A}/positions/{instrument}`;
const url = (suffix = '', account = ACCOUNT): string => `/v3/accounts/${account}${suffix}`;

let api: TestApi;
/** Trades opened in beforeAll, oldest first. */
const tradeIDs: string[] = [];

async function market(units: string, extra: Record<string, unknown> = {}, account = ACCOUNT, instrument = 'EUR_USD'): Promise<string> {
  const res = await send(api.app, 'POST', url('/orders', account), { payload: { order: { type: 'MARKET', instrument, units, ...extra } } });
  expect(res.status, res.text).toBe(201);
  return field<string>(res.body, 'orderFillTransaction', 'tradeOpened', 'tradeID');
}

async function lastTransactionID(): Promise<string> {
  return field<string>((await send(api.app, 'GET', url('/summary'))).body, 'lastTransactionID');
}

beforeAll(async () => {
  api = await createTestApi();
  // Hedged account: four separate long trades of EUR_USD, one with a client ID.
  tradeIDs.push(await market('100', { tradeClientExtensions: { id: 'trade-a', tag: 'x' } }, HEDGED));
  tradeIDs.push(await market('200', {}, HEDGED));
  tradeIDs.push(await market('300', {}, HEDGED));
  tradeIDs.push(await market('400', {}, HEDGED));
  await market('-50', {}, HEDGED);
  // Netting account: a long EUR_USD and a short USD_JPY position.
  await market('1000', { takeProfitOnFill: { price: '1.20000' } });
  await market('-1000', {}, ACCOUNT, 'USD_JPY');
  api.quote('EUR_USD', 1.101, 1.1012);
});
afterAll(async () => api.close());

describe('GET /v3/accounts/{accountID}/trades', () => {
  it('200 open trades newest first; Link to the next page', async () => {
    const res = await send(api.app, 'GET', url('/trades?count=2', HEDGED));
    const body = expectV20(res, 'GET', TRADES, 200);
    const trades = field<{ id: string; state: string }[]>(body, 'trades');
    expect(trades).toHaveLength(2);
    expect(trades.every((t) => t.state === 'OPEN')).toBe(true);
    expect(Number(trades[0]?.id)).toBeGreaterThan(Number(trades[1]?.id));
    const link = String(res.headers['link']);
    expect(link).toMatch(/^<http:\/\/v20sim\.test\/v3\/accounts\/101-004-1234567-002\/trades\?[^>]*beforeID=\d+[^>]*>; rel="next"$/);
    const next = new URL(/^<([^>]+)>/.exec(link)?.[1] ?? '');
    expect(next.searchParams.get('beforeID')).toBe(trades[1]?.id);
    const second = expectV20(await send(api.app, 'GET', `${next.pathname}${next.search}`), 'GET', TRADES, 200);
    expect(field<unknown[]>(second, 'trades').length).toBeGreaterThan(0);
  });

  it('200 with ids, instrument and state filters', async () => {
    const byIds = expectV20(
      await send(api.app, 'GET', url(`/trades?ids=${tradeIDs[0]},${tradeIDs[2]}&state=ALL`, HEDGED)),
      'GET',
      TRADES,
      200,
    );
    expect(field<{ id: string }[]>(byIds, 'trades').map((t) => t.id)).toEqual([tradeIDs[2], tradeIDs[0]]);
    const none = expectV20(await send(api.app, 'GET', url('/trades?instrument=GBP_USD', HEDGED)), 'GET', TRADES, 200);
    expect(field(none, 'trades')).toEqual([]);
  });

  it('400 for malformed queries', async () => {
    for (const q of ['count=0', 'count=x', 'state=PENDING', 'ids=a,b', 'instrument=eur/usd', 'beforeID=-1']) {
      expectV20(await send(api.app, 'GET', url(`/trades?${q}`)), 'GET', TRADES, 400);
    }
  });
});

describe('GET /v3/accounts/{accountID}/openTrades', () => {
  it('200 with every open trade', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/openTrades', HEDGED)), 'GET', `${A}/openTrades`, 200);
    const open = field<{ id: string; state: string }[]>(body, 'trades');
    // Five opened in beforeAll, fewer once the close tests have run.
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((t) => t.state === 'OPEN')).toBe(true);
    const all = field<{ id: string; state: string }[]>(
      (await send(api.app, 'GET', url('/trades?state=ALL&count=500', HEDGED))).body,
      'trades',
    );
    expect(open.map((t) => t.id)).toEqual(all.filter((t) => t.state === 'OPEN').map((t) => t.id));
  });
});

describe('GET /v3/accounts/{accountID}/trades/{tradeSpecifier}', () => {
  it('200 by ID and by @clientID', async () => {
    const byId = expectV20(await send(api.app, 'GET', url(`/trades/${tradeIDs[0]}`, HEDGED)), 'GET', TRADE, 200);
    const byClient = expectV20(await send(api.app, 'GET', url('/trades/@trade-a', HEDGED)), 'GET', TRADE, 200);
    expect(byClient['trade']).toEqual(byId['trade']);
    expect(field(byId, 'trade', 'clientExtensions', 'id')).toBe('trade-a');
  });

  it('404 NO_SUCH_TRADE for an unknown trade', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/trades/999999', HEDGED)), 'GET', TRADE, 404);
    expect(body['errorCode']).toBe('NO_SUCH_TRADE');
    expectV20(await send(api.app, 'GET', url('/trades/@nobody', HEDGED)), 'GET', TRADE, 404);
  });
});

describe('PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/close', () => {
  const T = `${TRADE}/close`;
  it('200 partial close, then close of the rest (body-less too)', async () => {
    const partial = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[1]}/close`, HEDGED), { payload: { units: '50' } }),
      'PUT',
      T,
      200,
    );
    expect(field(partial, 'orderCreateTransaction', 'type')).toBe('MARKET_ORDER');
    expect(field(partial, 'orderFillTransaction', 'tradeReduced', 'units')).toBe('-50');
    const rest = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[1]}/close`, HEDGED), { payload: { units: 'ALL' } }),
      'PUT',
      T,
      200,
    );
    expect(field(rest, 'orderFillTransaction', 'tradesClosed', 0, 'tradeID')).toBe(tradeIDs[1]);
    const bodyless = expectV20(await send(api.app, 'PUT', url(`/trades/${tradeIDs[2]}/close`, HEDGED)), 'PUT', T, 200);
    expect(field(bodyless, 'orderFillTransaction', 'tradesClosed', 0, 'tradeID')).toBe(tradeIDs[2]);
  });

  it('400 for more units than the trade has, 404 for an unknown trade', async () => {
    const tooMany = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/close`, HEDGED), { payload: { units: '100000' } }),
      'PUT',
      T,
      400,
    );
    expect(tooMany['errorCode']).toBeTypeOf('string');
    const unknown = expectV20(
      await send(api.app, 'PUT', url('/trades/999999/close', HEDGED), { payload: { units: 'ALL' } }),
      'PUT',
      T,
      404,
    );
    expect(field(unknown, 'orderRejectTransaction', 'type')).toBe('MARKET_ORDER_REJECT');
    expect(unknown['errorCode']).toBeTypeOf('string');
  });

  it('400 malformed units, no transaction', async () => {
    const before = await lastTransactionID();
    for (const units of ['some', true, '', null]) {
      expectV20(await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/close`), { payload: { units } }), 'PUT', T, 400);
    }
    expect(await lastTransactionID()).toBe(before);
  });
});

describe('PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/clientExtensions', () => {
  const T = `${TRADE}/clientExtensions`;
  it('200 with tradeClientExtensionsModifyTransaction; the trade is addressable by the new ID', async () => {
    const body = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/clientExtensions`, HEDGED), {
        payload: { clientExtensions: { id: 'trade-d', comment: 'c' } },
      }),
      'PUT',
      T,
      200,
    );
    expect(field(body, 'tradeClientExtensionsModifyTransaction', 'type')).toBe('TRADE_CLIENT_EXTENSIONS_MODIFY');
    expectV20(await send(api.app, 'GET', url('/trades/@trade-d', HEDGED)), 'GET', TRADE, 200);
  });

  it('404 for an unknown trade, 400 malformed', async () => {
    expectV20(
      await send(api.app, 'PUT', url('/trades/999999/clientExtensions', HEDGED), { payload: { clientExtensions: { tag: 'x' } } }),
      'PUT',
      T,
      404,
    );
    expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/clientExtensions`, HEDGED), { payload: { clientExtensions: 'x' } }),
      'PUT',
      T,
      400,
    );
  });
});

describe('PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/orders', () => {
  const T = `${TRADE}/orders`;
  it('200 creates, replaces and cancels dependent orders', async () => {
    const set = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/orders`, HEDGED), {
        payload: { takeProfit: { price: '1.20000' }, stopLoss: { price: '1.00000' }, trailingStopLoss: { distance: '0.01000' } },
      }),
      'PUT',
      T,
      200,
    );
    expect(field(set, 'takeProfitOrderTransaction', 'type')).toBe('TAKE_PROFIT_ORDER');
    expect(field(set, 'stopLossOrderTransaction', 'type')).toBe('STOP_LOSS_ORDER');
    expect(field(set, 'trailingStopLossOrderTransaction', 'type')).toBe('TRAILING_STOP_LOSS_ORDER');
    const replace = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/orders`, HEDGED), {
        payload: { takeProfit: { price: '1.25000' }, stopLoss: null },
      }),
      'PUT',
      T,
      200,
    );
    expect(field(replace, 'takeProfitOrderCancelTransaction', 'type')).toBe('ORDER_CANCEL');
    expect(field(replace, 'stopLossOrderCancelTransaction', 'type')).toBe('ORDER_CANCEL');
  });

  it('400 business reject (losing take profit), 404 unknown trade, 400 malformed', async () => {
    const reject = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/orders`, HEDGED), { payload: { stopLoss: { price: '1.0000001' } } }),
      'PUT',
      T,
      400,
    );
    expect(reject['errorCode']).toBeTypeOf('string');
    // A valid take profit beside the refused stop loss: the 400 holds the reject alone, and the
    // take profit the trade has is still the one the 200 above made.
    const before = expectV20(await send(api.app, 'GET', url(`/trades/${tradeIDs[3]}`, HEDGED)), 'GET', TRADE, 200);
    const mixed = expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/orders`, HEDGED), {
        payload: { takeProfit: { price: '1.30000' }, stopLoss: { price: '1.0000001' } },
      }),
      'PUT',
      T,
      400,
    );
    expect(Object.keys(mixed).sort()).toEqual([
      'errorCode',
      'errorMessage',
      'lastTransactionID',
      'relatedTransactionIDs',
      'stopLossOrderRejectTransaction',
    ]);
    const after = expectV20(await send(api.app, 'GET', url(`/trades/${tradeIDs[3]}`, HEDGED)), 'GET', TRADE, 200);
    expect(field(after, 'trade', 'takeProfitOrder')).toEqual(field(before, 'trade', 'takeProfitOrder'));
    expectV20(
      await send(api.app, 'PUT', url('/trades/999999/orders', HEDGED), { payload: { takeProfit: { price: '1.20000' } } }),
      'PUT',
      T,
      404,
    );
    expectV20(
      await send(api.app, 'PUT', url(`/trades/${tradeIDs[3]}/orders`, HEDGED), { payload: { takeProfit: { price: [1.2] } } }),
      'PUT',
      T,
      400,
    );
  });
});

describe('GET /v3/accounts/{accountID}/positions and openPositions', () => {
  it('200 with every position ever held, and the open ones', async () => {
    const all = expectV20(await send(api.app, 'GET', url('/positions')), 'GET', `${A}/positions`, 200);
    expect(
      field<{ instrument: string }[]>(all, 'positions')
        .map((p) => p.instrument)
        .sort(),
    ).toEqual(['EUR_USD', 'USD_JPY']);
    const open = expectV20(await send(api.app, 'GET', url('/openPositions')), 'GET', `${A}/openPositions`, 200);
    // Both before the close tests, EUR_USD alone after them: the ones with units on a side.
    type Side = { units: string };
    const held = (p: { long: Side; short: Side }): boolean => p.long.units !== '0' || p.short.units !== '0';
    const positions = field<{ instrument: string; long: Side; short: Side }[]>(all, 'positions');
    expect(field<{ instrument: string }[]>(open, 'positions').map((p) => p.instrument)).toEqual(
      positions.filter(held).map((p) => p.instrument),
    );
    expect(field(open, 'positions', 0, 'long', 'units')).toMatch(/^-?\d/);
  });
});

describe('GET /v3/accounts/{accountID}/positions/{instrument}', () => {
  it('200 for a held and for a never traded instrument', async () => {
    // A position of its own: the hedged account's EUR_GBP, which no other test trades.
    await market('-700', {}, HEDGED, 'EUR_GBP');
    const held = expectV20(await send(api.app, 'GET', url('/positions/EUR_GBP', HEDGED)), 'GET', POSITION, 200);
    expect(field(held, 'position', 'short', 'units')).toBe('-700');
    const flat = expectV20(await send(api.app, 'GET', url('/positions/AUD_CAD')), 'GET', POSITION, 200);
    expect(field(flat, 'position', 'long', 'units')).toBe('0');
  });

  it('400 for an unknown or malformed instrument', async () => {
    expectV20(await send(api.app, 'GET', url('/positions/XXX_YYY')), 'GET', POSITION, 400);
    expectV20(await send(api.app, 'GET', url('/positions/eur-usd')), 'GET', POSITION, 400);
  });
});

describe('PUT /v3/accounts/{accountID}/positions/{instrument}/close', () => {
  const T = `${POSITION}/close`;
  it('200 closes a short side; Location documented', async () => {
    const body = expectV20(await send(api.app, 'PUT', url('/positions/USD_JPY/close'), { payload: { shortUnits: 'ALL' } }), 'PUT', T, 200);
    expect(field(body, 'shortOrderCreateTransaction', 'type')).toBe('MARKET_ORDER');
    expect(field(body, 'shortOrderFillTransaction', 'type')).toBe('ORDER_FILL');
  });

  it('200 partial close of a long side', async () => {
    const body = expectV20(await send(api.app, 'PUT', url('/positions/EUR_USD/close'), { payload: { longUnits: '400' } }), 'PUT', T, 200);
    expect(field(body, 'longOrderFillTransaction', 'units')).toBe('-400');
  });

  it('400 closing a side that is flat; 400 malformed', async () => {
    const flat = expectV20(await send(api.app, 'PUT', url('/positions/GBP_USD/close'), { payload: { longUnits: 'ALL' } }), 'PUT', T, 400);
    expect(flat['errorCode']).toBeTypeOf('string');
    expectV20(await send(api.app, 'PUT', url('/positions/EUR_USD/close'), { payload: { longUnits: 'HALF' } }), 'PUT', T, 400);
  });
});
