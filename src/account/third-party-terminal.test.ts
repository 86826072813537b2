import { describe, expect, it } from 'vitest';
import type { AccountCommand } from './commands.js';
import type { AccountState } from './state.js';
import type { Transaction } from '../domain/transactions.js';
import { ACCOUNT_ID, Sim, USER_ID, iso } from './test-helpers.js';
import { funded, givenAccount, limitOrder, placeOrder, quoted, tradeOpened } from './testing/given.js';
import { accountView, orderView, tradeView } from './views.js';

/**
 * Accounts tied to a third-party terminal (MT4): every client extension a client sends is refused
 * with the *_REJECT transaction of the operation and the reason of the first field sent
 * (third-party-terminal.ts says why those reasons); nothing else changes.
 */

const MT4 = { mt4AccountID: 5012345 };

const types = (transactions: readonly Transaction[]): string[] => transactions.map((tx) => tx.type);

/** An MT4 account with EUR_USD quoted, a pending LIMIT (3) and an open trade (5, by MARKET order 4). */
const MT4_BOOK = givenAccount(
  MT4,
  funded(),
  quoted(1.1, 1.1002),
  limitOrder({ units: '1000', price: '1.09000' }),
  tradeOpened('1000', '1.10020'),
);

/** What a client can see of the account, but the last transaction ID; and the client ID maps. */
function clientView(state: AccountState): unknown {
  const account = { ...(accountView(state) as Record<string, unknown>) };
  delete account['lastTransactionID'];
  return JSON.parse(
    JSON.stringify({
      account,
      orders: [...state.orders.values()].map((o) => orderView(state, o)),
      trades: [...state.trades.values()].map((t) => tradeView(state, t)),
      clientOrderIds: [...state.clientOrderIds],
      clientTradeIds: [...state.clientTradeIds],
      pendingCount: state.pendingCount,
    }),
  );
}

/** Runs a command on MT4_BOOK: the one transaction it wrote must be a reject and nothing else may change. */
function refused(command: AccountCommand): { type: string; rejectReason: string } & Record<string, unknown> {
  const before = MT4_BOOK.play();
  const view = clientView(before.state);
  const after = before.when(command);
  expect(after.transactions).toHaveLength(1);
  expect(after.outcome?.reject).toBeDefined();
  expect(after.state.lastTransactionID).toBe(6);
  expect(clientView(after.state)).toEqual(view);
  return after.transactions[0] as never;
}

describe('order creation on an MT4 account', () => {
  it('clientExtensions: the order type reject with CLIENT_ORDER_ID_INVALID, the request echoed, nothing created', () => {
    const sim = new Sim(MT4);
    sim.quote('EUR_USD', 1.1, 1.1002);
    const out = sim.order({
      type: 'LIMIT',
      instrument: 'EUR_USD',
      units: '1000',
      price: '1.09950',
      clientExtensions: { id: 'a', tag: 't' },
    });
    expect(out.transactions).toEqual([
      {
        id: '3',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '3',
        time: iso(sim.now),
        type: 'LIMIT_ORDER_REJECT',
        instrument: 'EUR_USD',
        units: '1000',
        price: '1.09950',
        timeInForce: 'GTC',
        triggerCondition: 'DEFAULT',
        partialFill: 'DEFAULT',
        positionFill: 'DEFAULT',
        clientExtensions: { id: 'a', tag: 't' },
        reason: 'CLIENT_ORDER',
        rejectReason: 'CLIENT_ORDER_ID_INVALID',
      },
    ]);
    expect(out.response).toEqual({ orderRejectTransaction: out.transactions[0] });
    expect(out.reject).toEqual({
      errorCode: 'CLIENT_ORDER_ID_INVALID',
      errorMessage: 'The client Order ID specified is invalid',
      notFound: false,
    });
    const state = sim.account.state;
    expect([state.orders.size, state.pendingCount, state.clientOrderIds.size]).toEqual([0, 0, 0]);
  });

  it.each([
    [{ clientExtensions: { tag: 't' } }, 'CLIENT_ORDER_TAG_INVALID'],
    [{ clientExtensions: { comment: 'c' } }, 'CLIENT_ORDER_COMMENT_INVALID'],
    [{ clientExtensions: { tag: 't', comment: 'c' } }, 'CLIENT_ORDER_TAG_INVALID'],
    [{ clientExtensions: {} }, 'CLIENT_ORDER_ID_INVALID'],
    [{ tradeClientExtensions: { id: 'T' } }, 'CLIENT_TRADE_ID_INVALID'],
    [{ tradeClientExtensions: { comment: 'c' } }, 'CLIENT_TRADE_COMMENT_INVALID'],
    [{ clientExtensions: { comment: 'c' }, tradeClientExtensions: { id: 'T' } }, 'CLIENT_ORDER_COMMENT_INVALID'],
    [{ takeProfitOnFill: { price: '1.20000', clientExtensions: { id: 'tp' } } }, 'TAKE_PROFIT_ON_FILL_CLIENT_ORDER_ID_INVALID'],
    [{ stopLossOnFill: { distance: '0.01000', clientExtensions: { tag: 's' } } }, 'STOP_LOSS_ON_FILL_CLIENT_ORDER_TAG_INVALID'],
    [
      { trailingStopLossOnFill: { distance: '0.01000', clientExtensions: { comment: 'c' } } },
      'TRAILING_STOP_LOSS_ON_FILL_CLIENT_ORDER_COMMENT_INVALID',
    ],
  ])('%j: MARKET_ORDER_REJECT %s', (fields, reason) => {
    const tx = refused(placeOrder({ type: 'MARKET', units: '100', ...fields }));
    expect(tx).toMatchObject({ type: 'MARKET_ORDER_REJECT', reason: 'CLIENT_ORDER', rejectReason: reason, ...fields });
  });

  it('a dependent order with clientExtensions: TAKE_PROFIT_ORDER_REJECT, the trade keeps no take profit', () => {
    const tx = refused(placeOrder({ type: 'TAKE_PROFIT', tradeID: '5', price: '1.20000', clientExtensions: { id: 'tp' } }));
    expect(tx).toMatchObject({ type: 'TAKE_PROFIT_ORDER_REJECT', tradeID: '5', rejectReason: 'CLIENT_ORDER_ID_INVALID' });
  });

  it('on-fill orders and null members without extensions are accepted: the refusal is about the extensions only', () => {
    MT4_BOOK.when(
      placeOrder({ type: 'MARKET', units: '100', clientExtensions: null, takeProfitOnFill: { price: '1.20000', clientExtensions: null } }),
    ).then(
      { type: 'MARKET_ORDER', takeProfitOnFill: { price: '1.20000' } },
      { type: 'ORDER_FILL', tradeOpened: { tradeID: '7' } },
      { type: 'TAKE_PROFIT_ORDER', tradeID: '7', price: '1.20000' },
    );
  });

  it('a malformed field keeps its own reason, checked first as on any account', () => {
    const tx = refused(placeOrder({ type: 'MARKET', units: '100', clientExtensions: { id: '@x' }, tradeClientExtensions: { id: 'T' } }));
    expect(tx.rejectReason).toBe('CLIENT_ORDER_ID_INVALID');
    const units = refused(placeOrder({ type: 'MARKET', units: 'x', clientExtensions: { tag: 't' } }));
    expect(units.rejectReason).toBe('UNITS_INVALID');
  });
});

describe('order replacement on an MT4 account', () => {
  it('a replacement with clientExtensions is refused (REPLACEMENT, intendedReplacesOrderID); the order stays pending', () => {
    const tx = refused({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '2000', price: '1.08000', clientExtensions: { id: 'new' } },
    });
    expect(tx).toMatchObject({
      type: 'LIMIT_ORDER_REJECT',
      reason: 'REPLACEMENT',
      intendedReplacesOrderID: '3',
      rejectReason: 'CLIENT_ORDER_ID_INVALID',
    });
  });

  it('PUT trades/{id}/orders with takeProfit.clientExtensions: TAKE_PROFIT_ORDER_REJECT under its kind key', () => {
    const then = MT4_BOOK.when({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '5',
      takeProfit: { price: '1.20000', clientExtensions: { tag: 'x' } },
    });
    then.then({ type: 'TAKE_PROFIT_ORDER_REJECT', tradeID: '5', rejectReason: 'CLIENT_ORDER_TAG_INVALID' });
    expect(then.outcome?.response).toEqual({ takeProfitOrderRejectTransaction: then.transactions[0] });
    expect(then.state.trades.get(5)?.takeProfitOrderID).toBeUndefined();
  });
});

describe('client extensions modifications on an MT4 account', () => {
  it('PUT orders/{id}/clientExtensions: ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT, the refused extensions recorded', () => {
    const tx = refused({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: { comment: 'c' } });
    expect(tx).toEqual({
      id: '6',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '6',
      time: tx['time'],
      type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
      orderID: '3',
      clientExtensionsModify: { comment: 'c' },
      rejectReason: 'CLIENT_ORDER_COMMENT_INVALID',
    });
  });

  it.each([
    [{ tradeClientExtensions: { id: 'T' } }, 'CLIENT_TRADE_ID_INVALID'],
    [{ clientExtensions: {}, tradeClientExtensions: { tag: 'x' } }, 'CLIENT_ORDER_ID_INVALID'],
    [{}, 'CLIENT_EXTENSIONS_DATA_MISSING'],
  ])('order extensions %j: %s', (fields, reason) => {
    const tx = refused({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', ...fields });
    expect(tx).toMatchObject({ type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT', rejectReason: reason });
  });

  it('an unknown order is still ORDER_DOESNT_EXIST (404)', () => {
    const then = MT4_BOOK.when({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '99', clientExtensions: { id: 'a' } });
    then.then({ type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT', rejectReason: 'ORDER_DOESNT_EXIST' });
    expect(then.outcome?.reject?.notFound).toBe(true);
  });

  it.each([
    [{ id: 'T' }, 'CLIENT_TRADE_ID_INVALID'],
    [{ tag: 't', comment: 'c' }, 'CLIENT_TRADE_TAG_INVALID'],
    [{ comment: '' }, 'CLIENT_TRADE_COMMENT_INVALID'],
  ])('PUT trades/{id}/clientExtensions %j: TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT %s', (clientExtensions, reason) => {
    const tx = refused({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '5', clientExtensions });
    expect(tx).toMatchObject({
      type: 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
      tradeID: '5',
      tradeClientExtensionsModify: clientExtensions,
      rejectReason: reason,
    });
  });
});

describe('what an MT4 account still does', () => {
  it('orders, replacements, trade orders and closes without extensions go through as on any account', () => {
    const sim = new Sim(MT4);
    sim.quote('EUR_USD', 1.1, 1.1002);
    expect(types(sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' }).transactions)).toEqual([
      'LIMIT_ORDER',
    ]);
    const replace = sim.exec({
      type: 'REPLACE_ORDER',
      orderSpecifier: '3',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.08000' },
    });
    expect(types(replace.transactions)).toEqual(['ORDER_CANCEL', 'LIMIT_ORDER']);
    const trade = String(sim.openTrade('EUR_USD', '1000'));
    expect(types(sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: trade, stopLoss: { distance: '0.01000' } }).transactions)).toEqual([
      'STOP_LOSS_ORDER',
    ]);
    expect(types(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: trade }).transactions)).toEqual([
      'MARKET_ORDER',
      'ORDER_FILL',
      'ORDER_CANCEL',
    ]);
  });

  it('an ordinary account takes the same extensions', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    expect(types(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '100', clientExtensions: { id: 'a' } }).transactions)).toEqual([
      'MARKET_ORDER',
      'ORDER_FILL',
    ]);
  });
});
