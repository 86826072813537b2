import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { ACCOUNT } from '../support/constants.js';
import { A, TIME, call, open, lastId, ids, server, type Body, useTradesServer } from './trades-server.js';

useTradesServer();

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
      id: first,
      instrument: 'EUR_USD',
      price: '1.10020',
      openTime: TIME,
      state: 'OPEN',
      initialUnits: '100',
      currentUnits: '100',
      realizedPL: '0.0000',
      unrealizedPL: '-0.0200',
      financing: '0.0000',
      clientExtensions: { id: 'one' },
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
    expect(closed).toMatchObject({
      id: a,
      state: 'CLOSED',
      currentUnits: '0',
      realizedPL: '-0.0200',
      averageClosePrice: '1.10000',
      closeTime: TIME,
    });
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
    const page2 = await server.app.inject({ method: 'GET', url: next, headers: { authorization: 'Bearer T' } });
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
    await server.app.close();
    server.app = await buildApp({
      engine: server.engine,
      tokens: [{ token: 'T', accounts: '*' }],
      baseUrl: 'https://api-fxpractice.oanda.com',
    });
    await open('1');
    const b = await open('2');
    const r = await call('GET', '/trades?count=1');
    expect(r.headers['link']).toBe(`<https://api-fxpractice.oanda.com${A}/trades?count=1&beforeID=${b}>; rel="next"`);
  });

  it('refuses a count over 500, a count of 0 and malformed filters with 400', async () => {
    expect(await call('GET', '/trades?count=501')).toMatchObject({
      status: 400,
      body: { errorMessage: "Maximum value for 'count' exceeded" },
    });
    expect((await call('GET', '/trades?count=500')).status).toBe(200);
    expect(await call('GET', '/trades?count=0')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'count'" },
    });
    expect(await call('GET', '/trades?count=ten')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'count'" },
    });
    expect(await call('GET', '/trades?state=PENDING')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'state'" },
    });
    expect(await call('GET', '/trades?instrument=eurusd')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'instrument'" },
    });
    expect(await call('GET', '/trades?ids=1,x')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'ids'" },
    });
    expect(await call('GET', '/trades?beforeID=0')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'beforeID'" },
    });
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
    await call('PUT', `/trades/${id}/orders`, {
      takeProfit: { price: '1.20000' },
      stopLoss: { price: '1.00000' },
      trailingStopLoss: { distance: '0.00500' },
    });
    const byId = await call('GET', `/trades/${id}`);
    expect(byId.status).toBe(200);
    expect(byId.body['lastTransactionID']).toBe(await lastId());
    const trade = byId.body['trade'] as Body;
    expect(trade).toMatchObject({ id, state: 'OPEN', currentUnits: '100', clientExtensions: { id: 'mine' } });
    expect(trade['takeProfitOrder']).toMatchObject({
      type: 'TAKE_PROFIT',
      price: '1.20000',
      tradeID: id,
      clientTradeID: 'mine',
      state: 'PENDING',
      timeInForce: 'GTC',
    });
    expect(trade['stopLossOrder']).toMatchObject({ type: 'STOP_LOSS', price: '1.00000', tradeID: id, state: 'PENDING' });
    expect(trade['trailingStopLossOrder']).toMatchObject({
      type: 'TRAILING_STOP_LOSS',
      distance: '0.00500',
      tradeID: id,
      state: 'PENDING',
      trailingStopValue: '1.09500',
    });
    const byClient = await call('GET', '/trades/@mine');
    expect(byClient.status).toBe(200);
    expect(byClient.body).toEqual(byId.body);
  });

  it('answers 404 NO_SUCH_TRADE for an unknown trade or client ID', async () => {
    const last = await lastId();
    for (const spec of ['999', '@nobody', '1']) {
      const r = await call('GET', `/trades/${spec}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        errorCode: 'NO_SUCH_TRADE',
        errorMessage: 'The Trade ID specified does not exist',
        lastTransactionID: last,
      });
    }
  });

  it('finds a closed trade by ID and by its client ID', async () => {
    const id = await open('100', 'EUR_USD', 'gone');
    await call('PUT', `/trades/${id}/close`);
    const r = await call('GET', `/trades/${id}`);
    expect(r.status).toBe(200);
    expect(r.body['trade']).toMatchObject({ id, state: 'CLOSED', currentUnits: '0' });
    const byClientId = await call('GET', '/trades/@gone');
    expect(byClientId.status).toBe(200);
    expect(byClientId.body['trade']).toEqual(r.body['trade']);
  });

  it('refuses a malformed specifier with 400', async () => {
    expect(await call('GET', '/trades/abc')).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'tradeSpecifier'" },
    });
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
    expect(await call('GET', `/trades/${id}`, undefined, { 'accept-datetime-format': 'EPOCH' })).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'Accept-Datetime-Format'" },
    });
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
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '-40',
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'TRADE_CLOSE',
      tradeClose: { tradeID: id, units: '40' },
      accountID: ACCOUNT,
      time: TIME,
    });
    expect(fill).toMatchObject({
      type: 'ORDER_FILL',
      orderID: create['id'],
      units: '-40',
      price: '1.10000',
      reason: 'MARKET_ORDER_TRADE_CLOSE',
      tradeReduced: { tradeID: id, units: '-40' },
    });
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
      orderRejectTransaction: {
        type: 'MARKET_ORDER_REJECT',
        rejectReason: 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE',
        tradeClose: { tradeID: id, units: '101' },
      },
      errorCode: 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE',
      errorMessage: 'The units specified exceed the current size of the Trade',
    });
    expect(r.body['relatedTransactionIDs']).toEqual([r.body['orderRejectTransaction']['id']]);
    expect(r.body['lastTransactionID']).toBe(r.body['orderRejectTransaction']['id']);
    expect((await call('GET', `/trades/${id}`)).body['trade']['currentUnits']).toBe('100');
  });

  it('rejects zero, negative and over-precise units (400)', async () => {
    const id = await open('100');
    for (const [units, code] of [
      ['0', 'UNITS_INVALID'],
      ['-5', 'UNITS_INVALID'],
      ['1.5', 'UNITS_PRECISION_EXCEEDED'],
    ] as const) {
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
      orderRejectTransaction: {
        type: 'MARKET_ORDER_REJECT',
        rejectReason: 'TRADE_DOESNT_EXIST',
        tradeClose: { tradeID: '999', units: 'ALL' },
      },
      errorCode: 'TRADE_DOESNT_EXIST',
      errorMessage: 'The Trade specified does not exist',
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
    for (const units of ['abc', 'all', '', true]) {
      const r = await call('PUT', `/trades/${id}/close`, { units });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessage: "Invalid value specified for 'units'" });
    }
    expect(await lastId()).toBe(before);
  });
});

describe('trades paths: auth, account and method', () => {
  it('answers 401 without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'T' }]) {
      const r = await server.app.inject({ method: 'GET', url: `${A}/trades`, headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ errorMessage: 'Insufficient authorization to perform request.' });
    }
    const close = await server.app.inject({ method: 'PUT', url: `${A}/trades/4/close` });
    expect(close.statusCode).toBe(401);
  });

  it('answers 404 for an unknown account and 403 for an account the token may not use', async () => {
    const r = await server.app.inject({
      method: 'GET',
      url: '/v3/accounts/101-004-1234567-999/trades',
      headers: { authorization: 'Bearer T' },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ errorMessage: 'The specified Account does not exist.' });
    const put = await server.app.inject({
      method: 'PUT',
      url: '/v3/accounts/101-004-1234567-999/trades/4/close',
      headers: { authorization: 'Bearer T' },
    });
    expect(put.statusCode).toBe(404);
    await server.app.close();
    server.app = await buildApp({ engine: server.engine, tokens: [{ token: 'T', accounts: ['101-004-1234567-002'] }] });
    expect((await call('GET', '/openTrades')).status).toBe(403);
  });

  it('answers 405 for a wrong method on a trades path', async () => {
    const id = await open('1');
    for (const [method, path] of [
      ['DELETE', `/trades/${id}`],
      ['POST', '/trades'],
      ['GET', `/trades/${id}/close`],
      ['POST', `/trades/${id}/orders`],
      ['PATCH', '/openTrades'],
    ] as const) {
      const r = await call(method, path);
      expect(r.status).toBe(405);
      expect(r.body).toEqual({ errorMessage: 'The method is not allowed for the requested resource.' });
    }
    expect((await call('GET', `/trades/${id}/nothing`)).status).toBe(404);
  });
});
