import { describe, expect, it } from 'vitest';
import { orderView } from './views.js';
import { ACCOUNT_ID, Sim, USER_ID, bookSnapshot, field, iso, shape } from './test-helpers.js';
import { funded, given, limitOrder, orderCreated, quoted, tradeOpened } from './testing/given.js';

/** A pending buy LIMIT 1000 EUR_USD @ 1.09950 (order 3, client ID "mine") under 1.10000 / 1.10020. */
function pendingLimit(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', clientExtensions: { id: 'mine', tag: 'a' } });
  expect(sim.lastId).toBe(3);
  return sim;
}

/** pendingLimit() as facts. */
const PENDING_LIMIT = given(
  funded(),
  quoted(1.1, 1.1002),
  limitOrder({ units: '1000', price: '1.09950', clientExtensions: { id: 'mine', tag: 'a' } }),
);

describe('REPLACE_ORDER', () => {
  it('cancels the old order CLIENT_REQUEST_REPLACED and creates the new one as REPLACEMENT, in one batch', () => {
    const sim = pendingLimit();
    const out = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '2000', price: '1.09800' },
    });
    const t = iso(sim.now);
    const header = { accountID: ACCOUNT_ID, userID: USER_ID, batchID: '4', time: t };
    expect(out.transactions).toEqual([
      {
        id: '4',
        ...header,
        type: 'ORDER_CANCEL',
        orderID: '3',
        clientOrderID: 'mine',
        reason: 'CLIENT_REQUEST_REPLACED',
        replacedByOrderID: '5',
      },
      {
        id: '5',
        ...header,
        type: 'LIMIT_ORDER',
        instrument: 'EUR_USD',
        units: '2000',
        price: '1.09800',
        timeInForce: 'GTC',
        triggerCondition: 'DEFAULT',
        partialFill: 'DEFAULT',
        positionFill: 'DEFAULT',
        // Named no client extensions: takes the replaced order's (oandapyV20's replace fixture).
        clientExtensions: { id: 'mine', tag: 'a' },
        reason: 'REPLACEMENT',
        replacesOrderID: '3',
        cancellingTransactionID: '4',
      },
    ]);
    expect(out.response).toEqual({ orderCancelTransaction: out.transactions[0], orderCreateTransaction: out.transactions[1] });
    const state = sim.account.state;
    expect(orderView(state, state.orders.get(3)!)).toMatchObject({
      state: 'CANCELLED',
      cancellingTransactionID: '4',
      cancelledTime: t,
      replacedByOrderID: '5',
    });
    expect(orderView(state, state.orders.get(5)!)).toMatchObject({
      state: 'PENDING',
      replacesOrderID: '3',
      units: '2000',
      price: '1.09800',
    });
    expect(state.pendingCount).toBe(1);
    // The client ID went with the extensions: @mine finds the replacement.
    expect(state.clientOrderIds.get('mine')).toBe(5);
    // only the new order rests in the index
    sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.lastId).toBe(5);
    sim.quote('EUR_USD', 1.0978, 1.098);
    expect(sim.since(5)).toEqual([expect.objectContaining({ type: 'ORDER_FILL', orderID: '5', units: '2000', price: '1.09800' })]);
  });

  it('works by @clientID, and the replacement may keep the client ID', () => {
    const replaced = PENDING_LIMIT.when({
      type: 'REPLACE_ORDER',
      orderSpecifier: '@mine',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900', clientExtensions: { id: 'mine', tag: 'b' } },
    }).then(
      { type: 'ORDER_CANCEL', orderID: '3', reason: 'CLIENT_REQUEST_REPLACED', replacedByOrderID: '5' },
      { type: 'LIMIT_ORDER', reason: 'REPLACEMENT' },
    );
    expect(replaced.state.clientOrderIds.get('mine')).toBe(5);
    expect(replaced.state.orders.get(5)?.clientExtensions).toEqual({ id: 'mine', tag: 'b' });
  });

  it('an invalid replacement is rejected and leaves the old order pending', () => {
    const sim = pendingLimit();
    const before = bookSnapshot(sim.account);
    const out = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.099501' },
    });
    expect(out.transactions).toEqual([
      {
        id: '4',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '4',
        time: iso(sim.now),
        type: 'LIMIT_ORDER_REJECT',
        instrument: 'EUR_USD',
        units: '1000',
        price: '1.099501',
        timeInForce: 'GTC',
        triggerCondition: 'DEFAULT',
        partialFill: 'DEFAULT',
        positionFill: 'DEFAULT',
        reason: 'REPLACEMENT',
        intendedReplacesOrderID: '3',
        rejectReason: 'PRICE_PRECISION_EXCEEDED',
      },
    ]);
    expect(out.reject?.errorCode).toBe('PRICE_PRECISION_EXCEEDED');
    expect(bookSnapshot(sim.account)).toEqual(before);
    sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.tx(5)).toMatchObject({ type: 'ORDER_FILL', orderID: '3' });
  });

  it('a replacement refused by an account rule (client order ID in use) leaves the old order pending', () => {
    const sim = pendingLimit();
    sim.order({ type: 'STOP', instrument: 'EUR_USD', units: '1000', price: '1.10500', clientExtensions: { id: 'other' } }); // 4
    const before = bookSnapshot(sim.account);
    const out = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900', clientExtensions: { id: 'other' } },
    });
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER_REJECT:CLIENT_ORDER_ID_ALREADY_EXISTS']);
    expect(bookSnapshot(sim.account)).toEqual(before);
  });

  it('a MARKET_IF_TOUCHED replacement without a quote is rejected and leaves the old order pending', () => {
    const sim = new Sim();
    sim.order({ type: 'LIMIT', instrument: 'GBP_USD', units: '1000', price: '1.25000' }); // 3, no GBP_USD quote yet
    const before = bookSnapshot(sim.account);
    const out = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'MARKET_IF_TOUCHED', instrument: 'GBP_USD', units: '1000', price: '1.24000' },
    });
    expect(shape(out.transactions)).toEqual(['MARKET_IF_TOUCHED_ORDER_REJECT:INSTRUMENT_PRICE_UNKNOWN']);
    expect(out.transactions[0]).toMatchObject({ reason: 'REPLACEMENT', intendedReplacesOrderID: '3' });
    expect(out.response['orderCancelTransaction']).toBeUndefined();
    expect(bookSnapshot(sim.account)).toEqual(before);
    expect(sim.account.state.orders.get(3)?.state).toBe('PENDING');
  });

  it('a marketable replacement fills in the same batch', () => {
    const replaced = PENDING_LIMIT.when({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.10100' },
    }).then(
      { type: 'ORDER_CANCEL', reason: 'CLIENT_REQUEST_REPLACED' },
      { type: 'LIMIT_ORDER', reason: 'REPLACEMENT' },
      { id: '6', batchID: '4', type: 'ORDER_FILL', orderID: '5', price: '1.10020', reason: 'LIMIT_ORDER' },
    );
    expect(Object.keys(replaced.outcome?.response ?? {})).toEqual([
      'orderCancelTransaction',
      'orderCreateTransaction',
      'orderFillTransaction',
    ]);
  });

  it('a FOK replacement that cannot fill is cancelled as replacingOrderCancelTransaction', () => {
    const sim = pendingLimit();
    const out = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900', timeInForce: 'FOK' },
    });
    expect(Object.keys(out.response)).toEqual(['orderCancelTransaction', 'orderCreateTransaction', 'replacingOrderCancelTransaction']);
    expect(out.response['orderCancelTransaction']).toMatchObject({ orderID: '3', reason: 'CLIENT_REQUEST_REPLACED' });
    expect(out.response['replacingOrderCancelTransaction']).toMatchObject({ orderID: '5', reason: 'TIME_IN_FORCE_EXPIRED' });
    expect(sim.account.state.pendingCount).toBe(0);
  });

  it("the replaced order's GTD deadline does not touch the replacement", () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const gtd = sim.now + 3_600_000_000;
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GTD', gtdTime: iso(gtd) }); // 3
    sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900' },
    }); // 4, 5
    sim.advanceTo(gtd + 1);
    expect(sim.lastId).toBe(5);
    expect(sim.account.state.orders.get(5)?.state).toBe('PENDING');
  });

  it('replacing a dependent order keeps it on its trade', () => {
    const replaced = given(
      funded(),
      quoted(1.1, 1.1002),
      tradeOpened('1000', '1.10020'),
      orderCreated('TAKE_PROFIT_ORDER', { tradeID: '4', price: '1.10500' }),
    )
      .when({ type: 'REPLACE_ORDER', orderSpecifier: '5', order: { type: 'TAKE_PROFIT', tradeID: '4', price: '1.10600' } })
      .then({ type: 'ORDER_CANCEL', reason: 'CLIENT_REQUEST_REPLACED' }, { id: '7', type: 'TAKE_PROFIT_ORDER', reason: 'REPLACEMENT' });
    expect(replaced.state.trades.get(4)?.takeProfitOrderID).toBe(7);
  });

  it('an unknown, filled or already replaced order: ORDER_CANCEL_REJECT ORDER_DOESNT_EXIST', () => {
    const sim = pendingLimit();
    sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900' },
    });
    for (const spec of ['3', '99', '@nope']) {
      const out = sim.exec({
        type: 'REPLACE_ORDER',
        orderSpecifier: spec,
        order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900' },
      });
      expect(shape(out.transactions)).toEqual(['ORDER_CANCEL_REJECT:ORDER_DOESNT_EXIST']);
      expect(out.reject).toMatchObject({ errorCode: 'ORDER_DOESNT_EXIST', notFound: true });
      expect(field(out.transactions[0], 'clientOrderID')).toBe(spec === '@nope' ? 'nope' : undefined);
    }
    expect(sim.account.state.orders.get(5)?.state).toBe('PENDING');
  });
});
