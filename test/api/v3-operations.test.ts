/**
 * The v3 operations are the one place for wire checks and v20 answers: the HTTP adapter, the
 * strategy context and in-process callers get the same refusal for the same input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineStrategyContext } from '../../src/backtest/context.js';
import type { V3Call } from '../../src/v3/call.js';
import { createOrderCommand } from '../../src/v3/commands.js';
import { createOrder, listOrders } from '../../src/v3/orders.js';
import { harness, type Harness } from '../support/api/harness.js';
import { ACCOUNT } from '../support/constants.js';

let h: Harness;
afterEach(async () => h.app.close());

const MALFORMED: [string, Record<string, unknown>][] = [
  ['order.instrument', { type: 'LIMIT', instrument: 'XXX_YYY', units: '1', price: '1.1' }],
  ['order.gtdTime', { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.1', timeInForce: 'GTD', gtdTime: 'soon' }],
  [
    'order.takeProfitOnFill.gtdTime',
    { type: 'MARKET', instrument: 'EUR_USD', units: '1', takeProfitOnFill: { price: '1.2', gtdTime: 'x' } },
  ],
  [
    'order.trailingStopLossOnFill.gtdTime',
    { type: 'MARKET', instrument: 'EUR_USD', units: '1', trailingStopLossOnFill: { distance: '0.01', gtdTime: 'x' } },
  ],
];

describe('one wire check for every adapter', () => {
  it.each(MALFORMED)(
    '%s: the same 400 over HTTP, from the v3 operation and from the strategy context, and nothing written',
    async (field, order) => {
      h = await harness();
      const before = h.engine.account(ACCOUNT)?.state.lastTransactionID;
      const message = `Invalid value specified for '${field}'`;
      const http = await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, { order });
      expect(http.statusCode).toBe(400);
      expect(http.json()).toEqual({ errorMessage: message });
      const call: V3Call = { engine: h.engine, accountID: ACCOUNT };
      expect(createOrder(call, order)).toEqual({ status: 400, body: { errorMessage: message } });
      expect(createOrderCommand(call, order).invalid).toEqual({ errorMessage: message });
      const ctx = new EngineStrategyContext(h.engine, ACCOUNT, {});
      expect(ctx.createOrder(order as never).invalid).toEqual({ errorMessage: message });
      expect(h.engine.account(ACCOUNT)?.state.lastTransactionID).toBe(before);
    },
  );
});

describe('v3 operations in process', () => {
  it('answer a create with 201 and Location only when the call has a base URL', async () => {
    h = await harness();
    const order = { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.0' };
    const bare = createOrder({ engine: h.engine, accountID: ACCOUNT }, order);
    expect(bare.status).toBe(201);
    expect(bare.headers).toBeUndefined();
    const located = createOrder({ engine: h.engine, accountID: ACCOUNT, baseUrl: 'http://x.test' }, order);
    expect(located.headers).toEqual({
      Location: `http://x.test/v3/accounts/${ACCOUNT}/orders/${String(located.body['lastTransactionID'])}`,
    });
  });

  it('list newest first with a Link to the next page, as GET orders does', async () => {
    // x.test is a name of this server only when configured: the Host check refuses others.
    h = await harness({ allowedHosts: ['x.test'] });
    for (const price of ['1.0', '1.01', '1.02'])
      createOrder({ engine: h.engine, accountID: ACCOUNT }, { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price });
    const page = listOrders({ engine: h.engine, accountID: ACCOUNT, baseUrl: 'http://x.test' }, { count: '2' });
    const http = await h.request('GET', `/v3/accounts/${ACCOUNT}/orders?count=2`, undefined, { host: 'x.test' });
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).toBe(http.payload);
    expect((page.body['orders'] as { id: string }[]).map((o) => o.id)).toEqual(['5', '4']);
    expect(page.headers).toEqual({ Link: `<http://x.test/v3/accounts/${ACCOUNT}/orders?count=2&beforeID=4>; rel="next"` });
    expect(http.headers['link']).toBe(page.headers?.['Link']);
  });
});
