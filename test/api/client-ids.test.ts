import { describe, expect, it } from 'vitest';
import { call, useTradesServer, type Body } from './trades-server.js';

useTradesServer();

/**
 * @clientID lookups find orders and trades in any state, and a client ID is given to one order
 * (or trade) for the account's lifetime, as a bot relying on client IDs to avoid duplicate
 * orders expects (OrderSpecifier/TradeSpecifier, oanda-v20-openapi.json: the ClientID prefixed by "@").
 */
describe('client IDs across the life of orders and trades', () => {
  it('GET orders/@id finds a filled MARKET order and a cancelled LIMIT, as their numeric IDs do', async () => {
    const market = await call('POST', '/orders', {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', clientExtensions: { id: 'm-1' } },
    });
    expect(market.status).toBe(201);
    const filled = await call('GET', '/orders/@m-1');
    expect(filled.status).toBe(200);
    expect(filled.body['order']).toMatchObject({ type: 'MARKET', state: 'FILLED', clientExtensions: { id: 'm-1' } });
    expect(filled.body['order']).toEqual(
      (await call('GET', `/orders/${(market.body['orderCreateTransaction'] as Body)['id']}`)).body['order'],
    );

    await call('POST', '/orders', {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000', clientExtensions: { id: 'l-1' } },
    });
    const cancel = await call('PUT', '/orders/@l-1/cancel');
    expect(cancel.status).toBe(200);
    expect(cancel.body['orderCancelTransaction']).toMatchObject({ clientOrderID: 'l-1', reason: 'CLIENT_REQUEST' });
    expect((await call('GET', '/orders/@l-1')).body['order']).toMatchObject({ state: 'CANCELLED' });
    // Cancelling it again is v20's 404 ORDER_DOESNT_EXIST, by either specifier.
    expect((await call('PUT', '/orders/@l-1/cancel')).status).toBe(404);
  });

  it('a client order ID once used is refused for a new order: CLIENT_ORDER_ID_ALREADY_EXISTS', async () => {
    await call('POST', '/orders', { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', clientExtensions: { id: 'once' } } });
    const again = await call('POST', '/orders', {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000', clientExtensions: { id: 'once' } },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      errorCode: 'CLIENT_ORDER_ID_ALREADY_EXISTS',
      orderRejectTransaction: { type: 'LIMIT_ORDER_REJECT', rejectReason: 'CLIENT_ORDER_ID_ALREADY_EXISTS' },
    });
  });

  it('a closed trade is found by its client trade ID, which no new trade may take', async () => {
    const open = await call('POST', '/orders', {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', tradeClientExtensions: { id: 't-1' } },
    });
    expect(open.status).toBe(201);
    expect((await call('PUT', '/trades/@t-1/close')).status).toBe(200);
    expect((await call('GET', '/trades/@t-1')).body['trade']).toMatchObject({ state: 'CLOSED', clientExtensions: { id: 't-1' } });
    const again = await call('POST', '/orders', {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', tradeClientExtensions: { id: 't-1' } },
    });
    expect(again.body).toMatchObject({ errorCode: 'CLIENT_TRADE_ID_ALREADY_EXISTS' });
  });
});
