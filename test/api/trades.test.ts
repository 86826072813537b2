import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.js';
import type { Engine } from '../../src/engine/engine.js';
import { startTestApi } from '../support/api/harness.js';
import { ACCOUNT, MAY_T0 as START, SECOND } from '../support/constants.js';

const A = `/v3/accounts/${ACCOUNT}`;
const TIME = '2024-05-06T12:00:01.000000000Z';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are read field by field

interface Reply {
  status: number;
  body: Body;
  headers: Record<string, unknown>;
}

let engine: Engine;
let app: App;

beforeEach(async () => {
  ({ app, engine } = await startTestApi({
    accounts: [{ id: ACCOUNT, currency: 'USD' }],
    start: START,
    tokens: [{ token: 'T', accounts: '*' }],
    quotes: [
      { instrument: 'EUR_USD', time: START + SECOND, bid: 1.1, ask: 1.1002 },
      { instrument: 'USD_JPY', time: START + SECOND, bid: 150, ask: 150.02 },
    ],
  }));
});

afterEach(async () => {
  await app.close();
});

async function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH', path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await app.inject({
    method, url: `${A}${path}`, headers: { authorization: 'Bearer T', ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** Opens a trade with a market order; returns the trade ID. */
async function open(units: string, instrument = 'EUR_USD', clientTradeID?: string): Promise<string> {
  const order: Body = { type: 'MARKET', instrument, units };
  if (clientTradeID !== undefined) order['tradeClientExtensions'] = { id: clientTradeID };
  const r = await call('POST', '/orders', { order });
  expect(r.status).toBe(201);
  return r.body['orderFillTransaction'].tradeOpened.tradeID as string;
}

async function lastId(): Promise<string> {
  return (await call('GET', '/summary')).body['lastTransactionID'] as string;
}

const ids = (body: Body): string[] => (body['trades'] as Body[]).map((t) => t['id'] as string);

describe('GET trades', () => {
  it('lists open trades newest first with the full Trade resource', async () => {
    const first = await open('100', 'EUR_USD', 'one');
    await call('PUT', `/trades/${first}/orders`, { takeProfit: { price: '1.20000' } });
    const second = await open('-50', 'USD_JPY');
    const r = await call('GET', '/trades');
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([second, first]);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    expect(r.headers['link']).toBeUndefined();
    const t = (r.body['trades'] as Body[])[1] as Body;
    expect(t).toMatchObject({
      id: first, instrument: 'EUR_USD', price: '1.10020', openTime: TIME, state: 'OPEN', initialUnits: '100', currentUnits: '100',
      realizedPL: '0.0000', unrealizedPL: '-0.0200', financing: '0.0000', clientExtensions: { id: 'one' },
    });
    expect(t['takeProfitOrder']).toMatchObject({ type: 'TAKE_PROFIT', tradeID: first, price: '1.20000', state: 'PENDING' });
    expect(t['takeProfitOrderID']).toBeUndefined();
  });

  it('an account without trades lists none', async () => {
    const r = await call('GET', '/trades');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ trades: [], lastTransactionID: await lastId() });
  });

  it('filters by state, instrument and ids', async () => {
    const a = await open('100');
    const b = await open('-10', 'USD_JPY');
    const c = await open('200');
    expect((await call('PUT', `/trades/${a}/close`)).status).toBe(200);
    expect(ids((await call('GET', '/trades')).body)).toEqual([c, b]);
    expect(ids((await call('GET', '/trades?state=OPEN')).body)).toEqual([c, b]);
    expect(ids((await call('GET', '/trades?state=CLOSED')).body)).toEqual([a]);
    expect(ids((await call('GET', '/trades?state=ALL')).body)).toEqual([c, b, a]);
    expect(ids((await call('GET', '/trades?state=CLOSE_WHEN_TRADEABLE')).body)).toEqual([]);
    expect(ids((await call('GET', '/trades?state=ALL&instrument=EUR_USD')).body)).toEqual([c, a]);
    expect(ids((await call('GET', '/trades?instrument=GBP_USD')).body)).toEqual([]);
    expect(ids((await call('GET', `/trades?state=ALL&ids=${a},${b}`)).body)).toEqual([b, a]);
    expect(ids((await call('GET', `/trades?ids=${a},${b}`)).body)).toEqual([b]);
    const closed = (await call('GET', '/trades?state=CLOSED')).body['trades'][0] as Body;
    expect(closed).toMatchObject({ id: a, state: 'CLOSED', currentUnits: '0', realizedPL: '-0.0200', averageClosePrice: '1.10000', closeTime: TIME });
    expect(closed['unrealizedPL']).toBeUndefined();
    expect(closed['marginUsed']).toBeUndefined();
  });

  it('pages with count and an exclusive beforeID, linking the next page with the same filters', async () => {
    const opened: string[] = [];
    for (let i = 0; i < 5; i += 1) opened.push(await open(String(10 + i)));
    const newestFirst = [...opened].reverse();
    const page1 = await call('GET', '/trades?state=ALL&instrument=EUR_USD&count=2');
    expect(page1.status).toBe(200);
    expect(ids(page1.body)).toEqual(newestFirst.slice(0, 2));
    const link = page1.headers['link'] as string;
    expect(link).toBe(`<http://localhost:80${A}/trades?state=ALL&instrument=EUR_USD&count=2&beforeID=${newestFirst[1]}>; rel="next"`);
    const next = /^<http:\/\/localhost:80([^>]+)>/.exec(link)?.[1] as string;
    const page2 = await app.inject({ method: 'GET', url: next, headers: { authorization: 'Bearer T' } });
    expect(page2.json()['trades'].map((t: Body) => t['id'])).toEqual(newestFirst.slice(2, 4));
    const page3 = await call('GET', `/trades?state=ALL&instrument=EUR_USD&count=2&beforeID=${newestFirst[3]}`);
    expect(ids(page3.body)).toEqual(newestFirst.slice(4));
    expect(page3.headers['link']).toBeUndefined();
    // Exactly count left: no next page.
    const exact = await call('GET', `/trades?count=5`);
    expect(ids(exact.body)).toEqual(newestFirst);
    expect(exact.headers['link']).toBeUndefined();
    // The default page is 50.
    expect(ids((await call('GET', `/trades?beforeID=${opened[2]}`)).body)).toEqual(opened.slice(0, 2).reverse());
  });

  it('uses the configured baseUrl in the Link header', async () => {
    await app.close();
    app = await buildApp({ engine, tokens: [{ token: 'T', accounts: '*' }], baseUrl: 'https://api-fxpractice.oanda.com' });
    await open('1');
    const b = await open('2');
    const r = await call('GET', '/trades?count=1');
    expect(r.headers['link']).toBe(`<https://api-fxpractice.oanda.com${A}/trades?count=1&beforeID=${b}>; rel="next"`);
  });

  it('refuses a count over 500, a count of 0 and malformed filters with 400', async () => {
    expect(await call('GET', '/trades?count=501')).toMatchObject({ status: 400, body: { errorMessage: "Maximum value for 'count' exceeded" } });
    expect((await call('GET', '/trades?count=500')).status).toBe(200);
    expect(await call('GET', '/trades?count=0')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'count'" } });
    expect(await call('GET', '/trades?count=ten')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'count'" } });
    expect(await call('GET', '/trades?state=PENDING')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'state'" } });
    expect(await call('GET', '/trades?instrument=eurusd')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'instrument'" } });
    expect(await call('GET', '/trades?ids=1,x')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'ids'" } });
    expect(await call('GET', '/trades?beforeID=0')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'beforeID'" } });
  });
});

describe('GET openTrades', () => {
  it('lists only open trades, newest first', async () => {
    expect((await call('GET', '/openTrades')).body).toEqual({ trades: [], lastTransactionID: await lastId() });
    const a = await open('100');
    const b = await open('-5', 'USD_JPY');
    const c = await open('30');
    await call('PUT', `/trades/${b}/close`);
    const r = await call('GET', '/openTrades');
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([c, a]);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    expect((r.body['trades'] as Body[]).every((t) => t['state'] === 'OPEN')).toBe(true);
  });
});

describe('GET trades/{tradeSpecifier}', () => {
  it('returns the trade by ID and by @clientTradeID, with its dependent orders', async () => {
    const id = await open('100', 'EUR_USD', 'mine');
    await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.20000' }, stopLoss: { price: '1.00000' }, trailingStopLoss: { distance: '0.00500' } });
    const byId = await call('GET', `/trades/${id}`);
    expect(byId.status).toBe(200);
    expect(byId.body['lastTransactionID']).toBe(await lastId());
    const trade = byId.body['trade'] as Body;
    expect(trade).toMatchObject({ id, state: 'OPEN', currentUnits: '100', clientExtensions: { id: 'mine' } });
    expect(trade['takeProfitOrder']).toMatchObject({ type: 'TAKE_PROFIT', price: '1.20000', tradeID: id, clientTradeID: 'mine', state: 'PENDING', timeInForce: 'GTC' });
    expect(trade['stopLossOrder']).toMatchObject({ type: 'STOP_LOSS', price: '1.00000', tradeID: id, state: 'PENDING' });
    expect(trade['trailingStopLossOrder']).toMatchObject({ type: 'TRAILING_STOP_LOSS', distance: '0.00500', tradeID: id, state: 'PENDING', trailingStopValue: '1.09500' });
    const byClient = await call('GET', '/trades/@mine');
    expect(byClient.status).toBe(200);
    expect(byClient.body).toEqual(byId.body);
  });

  it('answers 404 NO_SUCH_TRADE for an unknown trade or client ID', async () => {
    const last = await lastId();
    for (const spec of ['999', '@nobody', '1']) {
      const r = await call('GET', `/trades/${spec}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ errorCode: 'NO_SUCH_TRADE', errorMessage: 'The Trade ID specified does not exist', lastTransactionID: last });
    }
  });

  it('finds a closed trade by ID but no longer by its client ID', async () => {
    const id = await open('100', 'EUR_USD', 'gone');
    await call('PUT', `/trades/${id}/close`);
    const r = await call('GET', `/trades/${id}`);
    expect(r.status).toBe(200);
    expect(r.body['trade']).toMatchObject({ id, state: 'CLOSED', currentUnits: '0' });
    expect((await call('GET', '/trades/@gone')).status).toBe(404);
  });

  it('refuses a malformed specifier with 400', async () => {
    expect(await call('GET', '/trades/abc')).toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'tradeSpecifier'" } });
  });

  it('answers DateTimes as UNIX seconds with Accept-Datetime-Format: UNIX', async () => {
    const id = await open('100');
    await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.20000' } });
    const r = await call('GET', `/trades/${id}`, undefined, { 'accept-datetime-format': 'UNIX' });
    expect(r.status).toBe(200);
    const unix = String(Date.UTC(2024, 4, 6, 12, 0, 1) / 1000);
    expect(r.body['trade']['openTime']).toBe(`${unix}.000000000`);
    expect(r.body['trade']['takeProfitOrder']['createTime']).toBe(`${unix}.000000000`);
    expect((await call('GET', `/trades/${id}`)).body['trade']['openTime']).toBe(TIME);
    expect(await call('GET', `/trades/${id}`, undefined, { 'accept-datetime-format': 'EPOCH' }))
      .toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'Accept-Datetime-Format'" } });
  });
});

describe('PUT trades/{tradeSpecifier}/close', () => {
  it('closes part of a trade', async () => {
    const id = await open('100');
    const r = await call('PUT', `/trades/${id}/close`, { units: '40' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['orderCreateTransaction', 'orderFillTransaction', 'relatedTransactionIDs', 'lastTransactionID']);
    const create = r.body['orderCreateTransaction'] as Body;
    const fill = r.body['orderFillTransaction'] as Body;
    expect(create).toMatchObject({
      type: 'MARKET_ORDER', instrument: 'EUR_USD', units: '-40', timeInForce: 'FOK', positionFill: 'REDUCE_ONLY', reason: 'TRADE_CLOSE',
      tradeClose: { tradeID: id, units: '40' }, accountID: ACCOUNT, time: TIME,
    });
    expect(fill).toMatchObject({ type: 'ORDER_FILL', orderID: create['id'], units: '-40', price: '1.10000', reason: 'MARKET_ORDER_TRADE_CLOSE', tradeReduced: { tradeID: id, units: '-40' } });
    expect(r.body['relatedTransactionIDs']).toEqual([create['id'], fill['id']]);
    expect(r.body['lastTransactionID']).toBe(fill['id']);
    const trade = (await call('GET', `/trades/${id}`)).body['trade'] as Body;
    expect(trade).toMatchObject({ state: 'OPEN', currentUnits: '60', initialUnits: '100', closingTransactionIDs: [fill['id']] });
  });

  it('closes the whole trade without a body, cancelling its dependent orders', async () => {
    const id = await open('-100', 'USD_JPY');
    const set = await call('PUT', `/trades/${id}/orders`, { stopLoss: { price: '151.000' } });
    const slId = set.body['stopLossOrderTransaction']['id'] as string;
    const r = await call('PUT', `/trades/${id}/close`);
    expect(r.status).toBe(200);
    expect(r.body['orderCreateTransaction']).toMatchObject({ units: '100', tradeClose: { tradeID: id, units: 'ALL' } });
    expect(r.body['orderFillTransaction']).toMatchObject({ price: '150.020', tradesClosed: [{ tradeID: id, units: '100' }] });
    expect(r.body['relatedTransactionIDs']).toHaveLength(3);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    const trade = (await call('GET', `/trades/${id}`)).body['trade'] as Body;
    expect(trade).toMatchObject({ state: 'CLOSED', currentUnits: '0' });
    expect(trade['stopLossOrder']).toBeUndefined();
    expect((await call('GET', `/orders/${slId}`)).body['order']).toMatchObject({ state: 'CANCELLED' });
  });

  it('closes ALL by @clientTradeID with an explicit body', async () => {
    const id = await open('100', 'EUR_USD', 'tag-1');
    const r = await call('PUT', '/trades/@tag-1/close', { units: 'ALL' });
    expect(r.status).toBe(200);
    expect(r.body['orderCreateTransaction']['tradeClose']).toEqual({ tradeID: id, clientTradeID: 'tag-1', units: 'ALL' });
    expect(r.body['orderFillTransaction']['tradesClosed'][0]).toMatchObject({ tradeID: id, clientTradeID: 'tag-1', units: '-100' });
    // An empty object is ALL too.
    const other = await open('5');
    expect((await call('PUT', `/trades/${other}/close`, {})).body['orderCreateTransaction']['units']).toBe('-5');
  });

  it('rejects closing more units than the trade has (400)', async () => {
    const id = await open('100');
    const r = await call('PUT', `/trades/${id}/close`, { units: '101' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      orderRejectTransaction: { type: 'MARKET_ORDER_REJECT', rejectReason: 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE', tradeClose: { tradeID: id, units: '101' } },
      errorCode: 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE',
      errorMessage: 'The units specified exceed the current size of the Trade',
    });
    expect(r.body['relatedTransactionIDs']).toEqual([r.body['orderRejectTransaction']['id']]);
    expect(r.body['lastTransactionID']).toBe(r.body['orderRejectTransaction']['id']);
    expect((await call('GET', `/trades/${id}`)).body['trade']['currentUnits']).toBe('100');
  });

  it('rejects zero, negative and over-precise units (400)', async () => {
    const id = await open('100');
    for (const [units, code] of [['0', 'UNITS_INVALID'], ['-5', 'UNITS_INVALID'], ['1.5', 'UNITS_PRECISION_EXCEEDED']] as const) {
      const r = await call('PUT', `/trades/${id}/close`, { units });
      expect(r.status).toBe(400);
      expect(r.body['errorCode']).toBe(code);
      expect(r.body['orderRejectTransaction']['rejectReason']).toBe(code);
    }
  });

  it('answers 404 with the reject transaction for an unknown or closed trade', async () => {
    const r = await call('PUT', '/trades/999/close', {});
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      orderRejectTransaction: { type: 'MARKET_ORDER_REJECT', rejectReason: 'TRADE_DOESNT_EXIST', tradeClose: { tradeID: '999', units: 'ALL' } },
      errorCode: 'TRADE_DOESNT_EXIST', errorMessage: 'The Trade specified does not exist',
    });
    expect(r.body['lastTransactionID']).toBe(r.body['orderRejectTransaction']['id']);
    const id = await open('10');
    await call('PUT', `/trades/${id}/close`);
    expect((await call('PUT', `/trades/${id}/close`)).status).toBe(404);
    expect((await call('PUT', '/trades/@nobody/close')).status).toBe(404);
  });

  it('refuses malformed units with 400 and writes nothing', async () => {
    const id = await open('100');
    const before = await lastId();
    for (const units of ['abc', 'all', '', 5]) {
      const r = await call('PUT', `/trades/${id}/close`, { units });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessage: "Invalid value specified for 'units'" });
    }
    expect(await lastId()).toBe(before);
  });
});

describe('PUT trades/{tradeSpecifier}/clientExtensions', () => {
  it('sets client extensions; the new client ID then specifies the trade', async () => {
    const id = await open('100', 'EUR_USD', 'old');
    const r = await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: { id: 'new', tag: 't', comment: 'c' } });
    expect(r.status).toBe(200);
    expect(r.body['tradeClientExtensionsModifyTransaction']).toMatchObject({
      type: 'TRADE_CLIENT_EXTENSIONS_MODIFY', tradeID: id, tradeClientExtensionsModify: { id: 'new', tag: 't', comment: 'c' },
    });
    expect(r.body['relatedTransactionIDs']).toEqual([r.body['tradeClientExtensionsModifyTransaction']['id']]);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    expect((await call('GET', '/trades/@new')).body['trade']).toMatchObject({ id, clientExtensions: { id: 'new', tag: 't', comment: 'c' } });
    expect((await call('GET', '/trades/@old')).status).toBe(404);
    const byClient = await call('PUT', '/trades/@new/clientExtensions', { clientExtensions: { comment: 'again' } });
    expect(byClient.status).toBe(200);
    expect(byClient.body['tradeClientExtensionsModifyTransaction']).toMatchObject({ tradeID: id, clientTradeID: 'new' });
  });

  it('rejects missing, invalid or duplicate extensions with 400', async () => {
    const a = await open('100', 'EUR_USD', 'a');
    await open('100', 'EUR_USD', 'b');
    const missing = await call('PUT', `/trades/${a}/clientExtensions`, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      tradeClientExtensionsModifyRejectTransaction: { type: 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT', rejectReason: 'CLIENT_EXTENSIONS_DATA_MISSING' },
      errorCode: 'CLIENT_EXTENSIONS_DATA_MISSING', errorMessage: 'No client extensions were specified',
    });
    const invalid = await call('PUT', `/trades/${a}/clientExtensions`, { clientExtensions: { id: '@x' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body['errorCode']).toBe('CLIENT_TRADE_ID_INVALID');
    const duplicate = await call('PUT', `/trades/${a}/clientExtensions`, { clientExtensions: { id: 'b' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({ errorCode: 'CLIENT_TRADE_ID_ALREADY_EXISTS', errorMessage: 'The client Trade ID specified is already assigned to another open Trade' });
  });

  it('answers 404 for an unknown trade and 400 for a malformed body', async () => {
    const r = await call('PUT', '/trades/999/clientExtensions', { clientExtensions: { tag: 'x' } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      tradeClientExtensionsModifyRejectTransaction: { rejectReason: 'TRADE_DOESNT_EXIST' }, errorCode: 'TRADE_DOESNT_EXIST', errorMessage: 'The Trade specified does not exist',
    });
    const id = await open('1');
    expect(await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: 'x' }))
      .toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'clientExtensions'" } });
    expect(await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: { tag: 7 } }))
      .toMatchObject({ status: 400, body: { errorMessage: "Invalid value specified for 'clientExtensions.tag'" } });
  });
});

describe('PUT trades/{tradeSpecifier}/orders', () => {
  it('creates take profit, stop loss and trailing stop loss orders', async () => {
    const id = await open('100', 'EUR_USD', 'c1');
    const r = await call('PUT', `/trades/${id}/orders`, {
      takeProfit: { price: '1.20000' }, stopLoss: { distance: '0.01000', timeInForce: 'GTD', gtdTime: '2024-05-07T12:00:00Z' }, trailingStopLoss: { distance: '0.00500' },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['takeProfitOrderTransaction', 'stopLossOrderTransaction', 'trailingStopLossOrderTransaction', 'relatedTransactionIDs', 'lastTransactionID']);
    expect(r.body['takeProfitOrderTransaction']).toMatchObject({ type: 'TAKE_PROFIT_ORDER', tradeID: id, clientTradeID: 'c1', price: '1.20000', timeInForce: 'GTC', reason: 'CLIENT_ORDER' });
    expect(r.body['stopLossOrderTransaction']).toMatchObject({ type: 'STOP_LOSS_ORDER', tradeID: id, price: '1.09020', distance: '0.01000', timeInForce: 'GTD' });
    expect(r.body['trailingStopLossOrderTransaction']).toMatchObject({ type: 'TRAILING_STOP_LOSS_ORDER', tradeID: id, distance: '0.00500' });
    expect(r.body['relatedTransactionIDs']).toHaveLength(3);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    const trade = (await call('GET', `/trades/${id}`)).body['trade'] as Body;
    expect(trade['takeProfitOrder']['id']).toBe(r.body['takeProfitOrderTransaction']['id']);
    expect(trade['stopLossOrder']['id']).toBe(r.body['stopLossOrderTransaction']['id']);
    expect(trade['trailingStopLossOrder']['id']).toBe(r.body['trailingStopLossOrderTransaction']['id']);
  });

  it('replaces an existing order and cancels one with null, leaving omitted kinds alone', async () => {
    const id = await open('100', 'EUR_USD', 'c2');
    const first = await call('PUT', `/trades/@c2/orders`, { takeProfit: { price: '1.20000' }, stopLoss: { price: '1.00000' }, trailingStopLoss: { distance: '0.00500' } });
    const tpId = first.body['takeProfitOrderTransaction']['id'] as string;
    const slId = first.body['stopLossOrderTransaction']['id'] as string;
    const tslId = first.body['trailingStopLossOrderTransaction']['id'] as string;
    const r = await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.30000' }, stopLoss: null });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['takeProfitOrderCancelTransaction', 'takeProfitOrderTransaction', 'stopLossOrderCancelTransaction', 'relatedTransactionIDs', 'lastTransactionID']);
    const newTp = r.body['takeProfitOrderTransaction'] as Body;
    expect(r.body['takeProfitOrderCancelTransaction']).toMatchObject({ type: 'ORDER_CANCEL', orderID: tpId, reason: 'CLIENT_REQUEST_REPLACED', replacedByOrderID: newTp['id'] });
    expect(newTp).toMatchObject({ type: 'TAKE_PROFIT_ORDER', price: '1.30000', reason: 'REPLACEMENT', replacesOrderID: tpId });
    expect(r.body['stopLossOrderCancelTransaction']).toMatchObject({ type: 'ORDER_CANCEL', orderID: slId, reason: 'CLIENT_REQUEST' });
    const trade = (await call('GET', `/trades/${id}`)).body['trade'] as Body;
    expect(trade['takeProfitOrder']).toMatchObject({ id: newTp['id'], price: '1.30000', replacesOrderID: tpId });
    expect(trade['stopLossOrder']).toBeUndefined();
    expect(trade['trailingStopLossOrder']['id']).toBe(tslId);
    // null on a kind the trade does not have, or an empty body: nothing happens.
    const none = await call('PUT', `/trades/${id}/orders`, { stopLoss: null });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ relatedTransactionIDs: [], lastTransactionID: r.body['lastTransactionID'] });
    expect((await call('PUT', `/trades/${id}/orders`, {})).body['relatedTransactionIDs']).toEqual([]);
    expect((await call('PUT', `/trades/${id}/orders`, { guaranteedStopLoss: null })).status).toBe(200);
  });

  it('a take profit already reached fills at once and closes the trade', async () => {
    const id = await open('100');
    const r = await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.05000' } });
    expect(r.status).toBe(200);
    expect(r.body['takeProfitOrderTransaction']).toMatchObject({ type: 'TAKE_PROFIT_ORDER', price: '1.05000' });
    expect(r.body['takeProfitOrderFillTransaction']).toMatchObject({ type: 'ORDER_FILL', reason: 'TAKE_PROFIT_ORDER', tradesClosed: [{ tradeID: id }] });
    expect((await call('GET', `/trades/${id}`)).body['trade']['state']).toBe('CLOSED');
  });

  it('rejects a dependent order the core refuses (400) with its reject transaction', async () => {
    const id = await open('100');
    const r = await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.200001' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      takeProfitOrderRejectTransaction: { type: 'TAKE_PROFIT_ORDER_REJECT', tradeID: id, rejectReason: 'PRICE_PRECISION_EXCEEDED' },
      errorCode: 'PRICE_PRECISION_EXCEEDED',
    });
    expect(r.body['lastTransactionID']).toBe(await lastId());
    const sl = await call('PUT', `/trades/${id}/orders`, { stopLoss: { price: '1.00000', timeInForce: 'FOK' } });
    expect(sl.status).toBe(400);
    expect(sl.body['stopLossOrderRejectTransaction']).toMatchObject({ type: 'STOP_LOSS_ORDER_REJECT', rejectReason: sl.body['errorCode'] });
  });

  it('answers 404 for an unknown trade', async () => {
    const r = await call('PUT', '/trades/999/orders', { takeProfit: { price: '1.20000' } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      takeProfitOrderRejectTransaction: { rejectReason: 'TRADE_DOESNT_EXIST' }, errorCode: 'TRADE_DOESNT_EXIST', errorMessage: 'The Trade specified does not exist',
    });
    expect((await call('PUT', '/trades/@nobody/orders', { stopLoss: null })).status).toBe(404);
  });

  it('refuses malformed details with 400 and writes nothing', async () => {
    const id = await open('100');
    const before = await lastId();
    const cases: [unknown, string][] = [
      [{ takeProfit: { price: 'abc' } }, 'takeProfit.price'],
      [{ stopLoss: { distance: 1 } }, 'stopLoss.distance'],
      [{ trailingStopLoss: { distance: '0.005', timeInForce: 'NEVER' } }, 'trailingStopLoss.timeInForce'],
      [{ takeProfit: { price: '1.2', timeInForce: 'GTD', gtdTime: 'tomorrow' } }, 'takeProfit.gtdTime'],
      [{ takeProfit: 'cancel' }, 'takeProfit'],
      // Guaranteed stop losses are disabled on simulated accounts.
      [{ guaranteedStopLoss: { distance: '0.01000' } }, 'guaranteedStopLoss'],
    ];
    for (const [payload, field] of cases) {
      const r = await call('PUT', `/trades/${id}/orders`, payload);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessage: `Invalid value specified for '${field}'` });
    }
    expect(await lastId()).toBe(before);
  });
});

describe('trades paths: auth, account and method', () => {
  it('answers 401 without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'T' }]) {
      const r = await app.inject({ method: 'GET', url: `${A}/trades`, headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ errorMessage: 'Insufficient authorization to perform request.' });
    }
    const close = await app.inject({ method: 'PUT', url: `${A}/trades/4/close` });
    expect(close.statusCode).toBe(401);
  });

  it('answers 404 for an unknown account and 403 for an account the token may not use', async () => {
    const r = await app.inject({ method: 'GET', url: '/v3/accounts/101-004-1234567-999/trades', headers: { authorization: 'Bearer T' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ errorMessage: 'The specified Account does not exist.' });
    const put = await app.inject({ method: 'PUT', url: '/v3/accounts/101-004-1234567-999/trades/4/close', headers: { authorization: 'Bearer T' } });
    expect(put.statusCode).toBe(404);
    await app.close();
    app = await buildApp({ engine, tokens: [{ token: 'T', accounts: ['101-004-1234567-002'] }] });
    expect((await call('GET', '/openTrades')).status).toBe(403);
  });

  it('answers 405 for a wrong method on a trades path', async () => {
    const id = await open('1');
    for (const [method, path] of [['DELETE', `/trades/${id}`], ['POST', '/trades'], ['GET', `/trades/${id}/close`], ['POST', `/trades/${id}/orders`], ['PATCH', '/openTrades']] as const) {
      const r = await call(method, path);
      expect(r.status).toBe(405);
      expect(r.body).toEqual({ errorMessage: 'The method is not allowed for the requested resource.' });
    }
    expect((await call('GET', `/trades/${id}/nothing`)).status).toBe(404);
  });
});
