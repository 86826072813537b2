import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, harness, type Harness } from '../support/api/harness.js';

let h: Harness;
afterEach(async () => h.app.close());
const orders = `/v3/accounts/${ACCOUNT}/orders`;

describe('POST orders', () => {
  it('fills a MARKET order at once: 201, Location, create + fill, related IDs', async () => {
    h = await harness();
    const r = await h.request('POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000' } });
    expect(r.statusCode).toBe(201);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['orderCreateTransaction', 'orderFillTransaction', 'relatedTransactionIDs', 'lastTransactionID']);
    expect(body['orderCreateTransaction']).toMatchObject({ type: 'MARKET_ORDER', id: '3', requestID: r.headers['requestid'] });
    expect(body['orderFillTransaction']).toMatchObject({
      type: 'ORDER_FILL',
      price: '1.10020',
      tradeOpened: { tradeID: '4', units: '1000' },
    });
    expect(body['relatedTransactionIDs']).toEqual(['3', '4']);
    expect(body['lastTransactionID']).toBe('4');
    expect(r.headers['location']).toBe(`http://localhost:80/v3/accounts/${ACCOUNT}/orders/3`);
  });

  it('answers 201 with orderCancelTransaction when the order is created and cancelled at once', async () => {
    h = await harness();
    const r = await h.request('POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', priceBound: '1.09000' } });
    expect(r.statusCode).toBe(201);
    expect(r.json()['orderCancelTransaction']).toMatchObject({ type: 'ORDER_CANCEL', reason: 'BOUNDS_VIOLATION', orderID: '3' });
  });

  it('rejects a well-formed but invalid order with 400, the reject transaction and errorCode', async () => {
    h = await harness();
    const r = await h.request('POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '0', price: '1.1' } });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body['orderRejectTransaction']).toMatchObject({ type: 'LIMIT_ORDER_REJECT', rejectReason: 'UNITS_INVALID', id: '3' });
    expect(body).toMatchObject({
      relatedTransactionIDs: ['3'],
      lastTransactionID: '3',
      errorCode: 'UNITS_INVALID',
      errorMessage: 'Order units specified are invalid',
    });
  });

  it.each([
    [{ type: 'LIMIT', instrument: 'EUR_USD', units: 'abc', price: '1.1' }, 'order.units'],
    [{ type: 'LIMIT', instrument: 'EUR_USD', units: true, price: '1.1' }, 'order.units'],
    [{ type: 'LIMIT', instrument: 'XXX_YYY', units: '100', price: '1.1' }, 'order.instrument'],
    [{ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.1', timeInForce: 'NEVER' }, 'order.timeInForce'],
    [{ type: 'BOGUS', instrument: 'EUR_USD', units: '100' }, 'order.type'],
    [{ instrument: 'EUR_USD', units: '100' }, 'order.type'],
    [{ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.1', timeInForce: 'GTD', gtdTime: 'tomorrow' }, 'order.gtdTime'],
  ])('stops malformed input %j at the edge: 400 Invalid value for %s, no transaction', async (order, field) => {
    h = await harness();
    const before = h.engine.account(ACCOUNT)?.state.lastTransactionID;
    const r = await h.request('POST', orders, { order });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ errorMessage: `Invalid value specified for '${field}'` });
    expect(h.engine.account(ACCOUNT)?.state.lastTransactionID).toBe(before);
  });

  it('answers invalid JSON with 400 and an errorMessage', async () => {
    h = await harness();
    const r = await h.app.inject({
      method: 'POST',
      url: orders,
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      payload: '{"order":',
    });
    expect(r.statusCode).toBe(400);
    expect(typeof r.json()['errorMessage']).toBe('string');
  });

  it('uses ClientRequestID as the transactions requestID', async () => {
    h = await harness();
    const r = await h.request(
      'POST',
      orders,
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1' } },
      { clientrequestid: 'my-req-1' },
    );
    expect(r.json()['orderFillTransaction']['requestID']).toBe('my-req-1');
  });
});

describe('reading orders', () => {
  async function placeLimits(n: number): Promise<void> {
    for (let i = 0; i < n; i += 1) {
      const r = await h.request('POST', orders, {
        order: {
          type: 'LIMIT',
          instrument: 'EUR_USD',
          units: '10',
          price: (1.05 - i * 0.001).toFixed(5),
          clientExtensions: { id: `c${i}` },
        },
      });
      expect(r.statusCode).toBe(201);
    }
  }

  it('lists pending orders newest first and pages with beforeID and a Link header', async () => {
    h = await harness();
    await placeLimits(5);
    const first = await h.request('GET', `${orders}?count=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json()['orders'].map((o: { id: string }) => o.id)).toEqual(['7', '6']);
    expect(first.headers['link']).toBe(`<http://localhost:80/v3/accounts/${ACCOUNT}/orders?count=2&beforeID=6>; rel="next"`);
    const second = await h.request('GET', `${orders}?count=2&beforeID=6`);
    expect(second.json()['orders'].map((o: { id: string }) => o.id)).toEqual(['5', '4']);
    const last = await h.request('GET', `${orders}?count=2&beforeID=4`);
    expect(last.json()['orders'].map((o: { id: string }) => o.id)).toEqual(['3']);
    expect(last.headers['link']).toBeUndefined();
  });

  it('filters by ids, state and instrument; count over 500 is refused', async () => {
    h = await harness();
    await placeLimits(3);
    await h.request('PUT', `${orders}/4/cancel`);
    expect((await h.request('GET', `${orders}?ids=3,4`)).json()['orders'].map((o: { id: string }) => o.id)).toEqual(['3']);
    expect((await h.request('GET', `${orders}?state=CANCELLED`)).json()['orders'].map((o: { id: string }) => o.id)).toEqual(['4']);
    expect((await h.request('GET', `${orders}?state=ALL&instrument=USD_JPY`)).json()['orders']).toEqual([]);
    const tooMany = await h.request('GET', `${orders}?count=501`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ errorMessage: "Maximum value for 'count' exceeded" });
    expect((await h.request('GET', `${orders}?state=WHATEVER`)).statusCode).toBe(400);
  });

  it('gets one order by ID or @clientID; unknown is 404 NO_SUCH_ORDER', async () => {
    h = await harness();
    await placeLimits(1);
    const byId = await h.request('GET', `${orders}/3`);
    expect(byId.json()).toMatchObject({
      order: { id: '3', type: 'LIMIT', state: 'PENDING', clientExtensions: { id: 'c0' } },
      lastTransactionID: '3',
    });
    expect((await h.request('GET', `${orders}/@c0`)).json()['order']['id']).toBe('3');
    const missing = await h.request('GET', `${orders}/99`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      errorCode: 'NO_SUCH_ORDER',
      errorMessage: 'The order ID specified does not exist',
      lastTransactionID: '3',
    });
  });

  it('lists pendingOrders', async () => {
    h = await harness();
    await placeLimits(2);
    const r = await h.request('GET', `/v3/accounts/${ACCOUNT}/pendingOrders`);
    expect(r.json()['orders'].map((o: { id: string }) => o.id)).toEqual(['4', '3']);
  });

  it('prints DateTimes as UNIX seconds when asked', async () => {
    h = await harness();
    await placeLimits(1);
    const r = await h.request('GET', `${orders}/3`, undefined, { 'accept-datetime-format': 'UNIX' });
    expect(r.json()['order']['createTime']).toMatch(/^\d{10}\.\d{9}$/);
    expect((await h.request('GET', `${orders}/3`, undefined, { 'accept-datetime-format': 'LOCAL' })).statusCode).toBe(400);
  });
});

describe('changing orders', () => {
  it('replaces an order: 201 with cancel, create and a Location of the new order', async () => {
    h = await harness();
    await h.request('POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' } });
    const r = await h.request('PUT', `${orders}/3`, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '20', price: '1.04000' } });
    expect(r.statusCode).toBe(201);
    const body = r.json();
    expect(body['orderCancelTransaction']).toMatchObject({ orderID: '3', reason: 'CLIENT_REQUEST_REPLACED', replacedByOrderID: '5' });
    expect(body['orderCreateTransaction']).toMatchObject({ id: '5', reason: 'REPLACEMENT', replacesOrderID: '3' });
    expect(r.headers['location']).toMatch(/\/orders\/5$/);
  });

  it("a replacement that names no client extensions takes the replaced order's, and @clientID then finds it (oandapyV20 fixture)", async () => {
    h = await harness();
    await h.request('POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' } });
    await h.request('PUT', `${orders}/3/clientExtensions`, { clientExtensions: { id: 'myID', comment: 'myComment' } });
    // As the fixture's request: no clientExtensions in the replacing order.
    const r = await h.request('PUT', `${orders}/3`, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-500', price: '1.25000' } });
    expect(r.statusCode).toBe(201);
    expect(r.json()['orderCreateTransaction']).toMatchObject({
      id: '6',
      reason: 'REPLACEMENT',
      clientExtensions: { id: 'myID', comment: 'myComment' },
    });
    const byClient = await h.request('GET', `${orders}/@myID`);
    expect(byClient.json()['order']).toMatchObject({ id: '6', state: 'PENDING', clientExtensions: { id: 'myID', comment: 'myComment' } });
    // Extensions named in the replacement are its own.
    const own = await h.request('PUT', `${orders}/6`, {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-500', price: '1.26000', clientExtensions: { tag: 'new' } },
    });
    expect(own.json()['orderCreateTransaction']['clientExtensions']).toEqual({ tag: 'new' });
  });

  it('replace or cancel of an unknown order is 404 with ORDER_CANCEL_REJECT', async () => {
    h = await harness();
    const r = await h.request('PUT', `${orders}/42`, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '20', price: '1.04000' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({
      orderCancelRejectTransaction: { rejectReason: 'ORDER_DOESNT_EXIST' },
      errorCode: 'ORDER_DOESNT_EXIST',
    });
    const c = await h.request('PUT', `${orders}/@nope/cancel`);
    expect(c.statusCode).toBe(404);
    expect(c.json()['orderCancelRejectTransaction']).toMatchObject({ clientOrderID: 'nope' });
  });

  it('cancels by @clientID and modifies client extensions', async () => {
    h = await harness();
    await h.request('POST', orders, {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000', clientExtensions: { id: 'a' } },
    });
    const m = await h.request('PUT', `${orders}/@a/clientExtensions`, { clientExtensions: { id: 'b', comment: 'moved' } });
    expect(m.statusCode).toBe(200);
    expect(m.json()['orderClientExtensionsModifyTransaction']).toMatchObject({
      orderID: '3',
      clientOrderID: 'a',
      clientExtensionsModify: { id: 'b', comment: 'moved' },
    });
    const empty = await h.request('PUT', `${orders}/@b/clientExtensions`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()['errorCode']).toBe('CLIENT_EXTENSIONS_DATA_MISSING');
    const c = await h.request('PUT', `${orders}/@b/cancel`);
    expect(c.statusCode).toBe(200);
    expect(c.json()['orderCancelTransaction']).toMatchObject({ orderID: '3', clientOrderID: 'b', reason: 'CLIENT_REQUEST' });
  });
});
