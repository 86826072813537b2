import { describe, expect, it } from 'vitest';
import { orderView, tradeView } from './views.js';
import { ACCOUNT_ID, Sim, USER_ID, fillTx, iso, shape } from './test-helpers.js';
import { funded, given, limitOrder, placeOrder, quote, quoted } from './testing/given.js';

/** A pending LIMIT (3) with client extensions {id "a", tag "t"} under EUR_USD 1.10000 / 1.10020. */
function pending(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', clientExtensions: { id: 'a', tag: 't' } });
  return sim;
}

/** pending() as facts. */
const PENDING = given(
  funded(),
  quoted(1.1, 1.1002),
  limitOrder({ units: '1000', price: '1.09950', clientExtensions: { id: 'a', tag: 't' } }),
);

describe('order client extensions', () => {
  it('are echoed on creation and on the fill as clientOrderID', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'LIMIT', units: '1000', price: '1.09950', clientExtensions: { id: 'a', tag: 't' } }))
      .then({ id: '3', type: 'LIMIT_ORDER', clientExtensions: { id: 'a', tag: 't' } })
      .when(quote(1.0993, 1.0995))
      .then({ id: '4', type: 'ORDER_FILL', orderID: '3', clientOrderID: 'a' });
  });

  it('are modified by order ID: fields merge, the modification is recorded', () => {
    const sim = pending();
    const out = sim.exec({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: { comment: 'c' } });
    expect(out.transactions).toEqual([
      {
        id: '4',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '4',
        time: iso(sim.now),
        type: 'ORDER_CLIENT_EXTENSIONS_MODIFY',
        orderID: '3',
        clientExtensionsModify: { comment: 'c' },
      },
    ]);
    expect(out.response).toEqual({ orderClientExtensionsModifyTransaction: out.transactions[0] });
    const state = sim.account.state;
    expect(orderView(state, state.orders.get(3)!)['clientExtensions']).toEqual({ id: 'a', tag: 't', comment: 'c' });
    expect(state.orders.get(3)?.state).toBe('PENDING');
  });

  it('are modified by @clientID, and a new ID replaces the old one', () => {
    const modified = PENDING.when({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '@a', clientExtensions: { id: 'b' } }).then({
      type: 'ORDER_CLIENT_EXTENSIONS_MODIFY',
      orderID: '3',
      clientOrderID: 'a',
      clientExtensionsModify: { id: 'b' },
    });
    expect(modified.state.clientOrderIds.get('b')).toBe(3);
    expect(modified.state.clientOrderIds.has('a')).toBe(false);
    modified
      .when({ type: 'CANCEL_ORDER', orderSpecifier: '@a' })
      .then({ type: 'ORDER_CANCEL_REJECT', rejectReason: 'ORDER_DOESNT_EXIST' })
      .when({ type: 'CANCEL_ORDER', orderSpecifier: '@b' })
      .then({ type: 'ORDER_CANCEL', orderID: '3', clientOrderID: 'b' });
  });

  it('CLIENT_EXTENSIONS_DATA_MISSING when neither kind is given', () => {
    const sim = pending();
    const out = sim.exec({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3' });
    expect(out.transactions).toEqual([
      {
        id: '4',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '4',
        time: iso(sim.now),
        type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
        orderID: '3',
        rejectReason: 'CLIENT_EXTENSIONS_DATA_MISSING',
      },
    ]);
    expect(out.response).toEqual({ orderClientExtensionsModifyRejectTransaction: out.transactions[0] });
    expect(out.reject).toMatchObject({ errorCode: 'CLIENT_EXTENSIONS_DATA_MISSING', notFound: false });
  });

  it('a client ID held by another pending order is refused', () => {
    const sim = pending();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09900', clientExtensions: { id: 'z' } }); // 4
    const out = sim.exec({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: { id: 'z' } });
    expect(shape(out.transactions)).toEqual(['ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT:CLIENT_ORDER_ID_ALREADY_EXISTS']);
    expect(sim.account.state.orders.get(3)?.clientExtensions).toEqual({ id: 'a', tag: 't' });
    // keeping its own ID is fine
    expect(
      shape(sim.exec({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: { id: 'a' } }).transactions),
    ).toEqual(['ORDER_CLIENT_EXTENSIONS_MODIFY']);
  });

  it('an invalid field is refused with its reason', () => {
    const sim = pending();
    const out = sim.exec({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: { tag: 'x'.repeat(129) } });
    expect(shape(out.transactions)).toEqual(['ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT:CLIENT_ORDER_TAG_INVALID']);
  });
});

describe('trade client extensions', () => {
  it('tradeClientExtensions of the entry order end up on the opened trade', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const fill = fillTx(
      sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', tradeClientExtensions: { id: 'T1', tag: 'strategy' } }),
    );
    expect(fill.tradeOpened?.clientExtensions).toEqual({ id: 'T1', tag: 'strategy' });
    const state = sim.account.state;
    expect(tradeView(state, state.trades.get(4)!)['clientExtensions']).toEqual({ id: 'T1', tag: 'strategy' });
    expect(state.clientTradeIds.get('T1')).toBe(4);
  });

  it('tradeClientExtensions set on a pending order by a modification reach the trade it opens', () => {
    const sim = pending();
    const out = sim.exec({
      type: 'MODIFY_ORDER_CLIENT_EXTENSIONS',
      orderSpecifier: '@a',
      tradeClientExtensions: { id: 'T2', comment: 'x' },
    });
    expect(out.transactions[0]).toMatchObject({
      type: 'ORDER_CLIENT_EXTENSIONS_MODIFY',
      tradeClientExtensionsModify: { id: 'T2', comment: 'x' },
    });
    expect(orderView(sim.account.state, sim.account.state.orders.get(3)!)['tradeClientExtensions']).toEqual({ id: 'T2', comment: 'x' });
    sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.tx(5)).toMatchObject({ type: 'ORDER_FILL', tradeOpened: { tradeID: '5', clientExtensions: { id: 'T2', comment: 'x' } } });
    expect(sim.account.state.clientTradeIds.get('T2')).toBe(5);
  });

  it('are modified by trade ID and by @clientTradeID', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000');
    const byId = sim.exec({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '4', clientExtensions: { id: 'T', tag: 'one' } });
    expect(byId.transactions).toEqual([
      {
        id: '5',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '5',
        time: iso(sim.now),
        type: 'TRADE_CLIENT_EXTENSIONS_MODIFY',
        tradeID: '4',
        tradeClientExtensionsModify: { id: 'T', tag: 'one' },
      },
    ]);
    expect(byId.response).toEqual({ tradeClientExtensionsModifyTransaction: byId.transactions[0] });
    const byClient = sim.exec({
      type: 'MODIFY_TRADE_CLIENT_EXTENSIONS',
      tradeSpecifier: '@T',
      clientExtensions: { id: 'U', comment: 'two' },
    });
    expect(byClient.transactions[0]).toMatchObject({
      tradeID: '4',
      clientTradeID: 'T',
      tradeClientExtensionsModify: { id: 'U', comment: 'two' },
    });
    const state = sim.account.state;
    expect(state.trades.get(4)?.clientExtensions).toEqual({ id: 'U', tag: 'one', comment: 'two' });
    expect([...state.clientTradeIds.entries()]).toEqual([['U', 4]]);
    expect(fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '@U' })).tradesClosed?.[0]).toMatchObject({
      tradeID: '4',
      clientTradeID: 'U',
    });
  });

  it('CLIENT_EXTENSIONS_DATA_MISSING, TRADE_DOESNT_EXIST and CLIENT_TRADE_ID_ALREADY_EXISTS', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000', { tradeClientExtensions: { id: 'first' } }); // 4
    sim.openTrade('EUR_USD', '1000'); // 6
    const missing = sim.exec({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '6' });
    expect(missing.transactions[0]).toMatchObject({
      type: 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
      tradeID: '6',
      rejectReason: 'CLIENT_EXTENSIONS_DATA_MISSING',
    });
    const unknown = sim.exec({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '5', clientExtensions: { tag: 'x' } });
    expect(shape(unknown.transactions)).toEqual(['TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT:TRADE_DOESNT_EXIST']);
    expect(unknown.reject?.notFound).toBe(true);
    const taken = sim.exec({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '6', clientExtensions: { id: 'first' } });
    expect(shape(taken.transactions)).toEqual(['TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT:CLIENT_TRADE_ID_ALREADY_EXISTS']);
    expect(sim.account.state.trades.get(6)?.clientExtensions).toBeUndefined();
  });
});
