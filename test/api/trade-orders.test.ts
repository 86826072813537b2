import { describe, expect, it } from 'vitest';
import { call, open, lastId, type Body, useTradesServer } from './trades-server.js';

useTradesServer();

describe('PUT trades/{tradeSpecifier}/clientExtensions', () => {
  it('sets client extensions; the new client ID then specifies the trade', async () => {
    const id = await open('100', 'EUR_USD', 'old');
    const r = await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: { id: 'new', tag: 't', comment: 'c' } });
    expect(r.status).toBe(200);
    expect(r.body['tradeClientExtensionsModifyTransaction']).toMatchObject({
      type: 'TRADE_CLIENT_EXTENSIONS_MODIFY',
      tradeID: id,
      tradeClientExtensionsModify: { id: 'new', tag: 't', comment: 'c' },
    });
    expect(r.body['relatedTransactionIDs']).toEqual([r.body['tradeClientExtensionsModifyTransaction']['id']]);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    expect((await call('GET', '/trades/@new')).body['trade']).toMatchObject({
      id,
      clientExtensions: { id: 'new', tag: 't', comment: 'c' },
    });
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
      tradeClientExtensionsModifyRejectTransaction: {
        type: 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
        rejectReason: 'CLIENT_EXTENSIONS_DATA_MISSING',
      },
      errorCode: 'CLIENT_EXTENSIONS_DATA_MISSING',
      errorMessage: 'No client extensions were specified',
    });
    const invalid = await call('PUT', `/trades/${a}/clientExtensions`, { clientExtensions: { id: '@x' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body['errorCode']).toBe('CLIENT_TRADE_ID_INVALID');
    const duplicate = await call('PUT', `/trades/${a}/clientExtensions`, { clientExtensions: { id: 'b' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({
      errorCode: 'CLIENT_TRADE_ID_ALREADY_EXISTS',
      errorMessage: 'The client Trade ID specified is already assigned to another open Trade',
    });
  });

  it('answers 404 for an unknown trade and 400 for a malformed body', async () => {
    const r = await call('PUT', '/trades/999/clientExtensions', { clientExtensions: { tag: 'x' } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      tradeClientExtensionsModifyRejectTransaction: { rejectReason: 'TRADE_DOESNT_EXIST' },
      errorCode: 'TRADE_DOESNT_EXIST',
      errorMessage: 'The Trade specified does not exist',
    });
    const id = await open('1');
    expect(await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: 'x' })).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'clientExtensions'" },
    });
    expect(await call('PUT', `/trades/${id}/clientExtensions`, { clientExtensions: { tag: false } })).toMatchObject({
      status: 400,
      body: { errorMessage: "Invalid value specified for 'clientExtensions.tag'" },
    });
  });
});

describe('PUT trades/{tradeSpecifier}/orders', () => {
  it('creates take profit, stop loss and trailing stop loss orders', async () => {
    const id = await open('100', 'EUR_USD', 'c1');
    const r = await call('PUT', `/trades/${id}/orders`, {
      takeProfit: { price: '1.20000' },
      stopLoss: { distance: '0.01000', timeInForce: 'GTD', gtdTime: '2024-05-07T12:00:00Z' },
      trailingStopLoss: { distance: '0.00500' },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'takeProfitOrderTransaction',
      'stopLossOrderTransaction',
      'trailingStopLossOrderTransaction',
      'relatedTransactionIDs',
      'lastTransactionID',
    ]);
    expect(r.body['takeProfitOrderTransaction']).toMatchObject({
      type: 'TAKE_PROFIT_ORDER',
      tradeID: id,
      clientTradeID: 'c1',
      price: '1.20000',
      timeInForce: 'GTC',
      reason: 'CLIENT_ORDER',
    });
    expect(r.body['stopLossOrderTransaction']).toMatchObject({
      type: 'STOP_LOSS_ORDER',
      tradeID: id,
      price: '1.09020',
      distance: '0.01000',
      timeInForce: 'GTD',
    });
    expect(r.body['trailingStopLossOrderTransaction']).toMatchObject({
      type: 'TRAILING_STOP_LOSS_ORDER',
      tradeID: id,
      distance: '0.00500',
    });
    expect(r.body['relatedTransactionIDs']).toHaveLength(3);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    const trade = (await call('GET', `/trades/${id}`)).body['trade'] as Body;
    expect(trade['takeProfitOrder']['id']).toBe(r.body['takeProfitOrderTransaction']['id']);
    expect(trade['stopLossOrder']['id']).toBe(r.body['stopLossOrderTransaction']['id']);
    expect(trade['trailingStopLossOrder']['id']).toBe(r.body['trailingStopLossOrderTransaction']['id']);
  });

  it('replaces an existing order and cancels one with null, leaving omitted kinds alone', async () => {
    const id = await open('100', 'EUR_USD', 'c2');
    const first = await call('PUT', `/trades/@c2/orders`, {
      takeProfit: { price: '1.20000' },
      stopLoss: { price: '1.00000' },
      trailingStopLoss: { distance: '0.00500' },
    });
    const tpId = first.body['takeProfitOrderTransaction']['id'] as string;
    const slId = first.body['stopLossOrderTransaction']['id'] as string;
    const tslId = first.body['trailingStopLossOrderTransaction']['id'] as string;
    const r = await call('PUT', `/trades/${id}/orders`, { takeProfit: { price: '1.30000' }, stopLoss: null });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'takeProfitOrderCancelTransaction',
      'takeProfitOrderTransaction',
      'stopLossOrderCancelTransaction',
      'relatedTransactionIDs',
      'lastTransactionID',
    ]);
    const newTp = r.body['takeProfitOrderTransaction'] as Body;
    expect(r.body['takeProfitOrderCancelTransaction']).toMatchObject({
      type: 'ORDER_CANCEL',
      orderID: tpId,
      reason: 'CLIENT_REQUEST_REPLACED',
      replacedByOrderID: newTp['id'],
    });
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
    expect(r.body['takeProfitOrderFillTransaction']).toMatchObject({
      type: 'ORDER_FILL',
      reason: 'TAKE_PROFIT_ORDER',
      tradesClosed: [{ tradeID: id }],
    });
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
      takeProfitOrderRejectTransaction: { rejectReason: 'TRADE_DOESNT_EXIST' },
      errorCode: 'TRADE_DOESNT_EXIST',
      errorMessage: 'The Trade specified does not exist',
    });
    expect((await call('PUT', '/trades/@nobody/orders', { stopLoss: null })).status).toBe(404);
  });

  it('refuses malformed details with 400 and writes nothing', async () => {
    const id = await open('100');
    const before = await lastId();
    const cases: [unknown, string][] = [
      [{ takeProfit: { price: 'abc' } }, 'takeProfit.price'],
      [{ stopLoss: { distance: true } }, 'stopLoss.distance'],
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
