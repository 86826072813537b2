import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { Account } from './account.js';
import { rejectMessage } from '../domain/reject-reasons.js';
import type { OrderRequest } from '../orders/request.js';
import type { AccountCommand } from './commands.js';
import { ACCOUNT_ID, Sim, USER_ID, bookSnapshot, field, iso, rejectTx, shape } from './test-helpers.js';
import { funded, given, limitOrder, orderCreated, quoted, tradeOpened } from './testing/given.js';

/**
 * An account with something in every part of its book: a quote, an open long trade (4) with a
 * take profit (5), and a pending LIMIT (6) whose client order ID is "taken".
 */
function busyAccount(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', tradeClientExtensions: { id: 'trade-a' } }); // 3, 4
  sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10500' }); // 5
  sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000', clientExtensions: { id: 'taken' } }); // 6
  expect(sim.lastId).toBe(6);
  return sim;
}

const limit = (over: Record<string, unknown>): OrderRequest => ({
  type: 'LIMIT',
  instrument: 'EUR_USD',
  units: '1000',
  price: '1.09950',
  ...over,
});
const market = (over: Record<string, unknown>): OrderRequest => ({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', ...over });

const ORDER_REJECTS: readonly [string, OrderRequest, string, string][] = [
  ['units 0', market({ units: '0' }), 'MARKET_ORDER_REJECT', 'UNITS_INVALID'],
  ['units "abc"', limit({ units: 'abc' }), 'LIMIT_ORDER_REJECT', 'UNITS_INVALID'],
  ['units as a JSON number', market({ units: 1000 }), 'MARKET_ORDER_REJECT', 'UNITS_INVALID'],
  ['units missing', market({ units: undefined }), 'MARKET_ORDER_REJECT', 'UNITS_MISSING'],
  ['units "1.5" on EUR_USD', market({ units: '1.5' }), 'MARKET_ORDER_REJECT', 'UNITS_PRECISION_EXCEEDED'],
  ['units beyond maximumOrderUnits', limit({ units: '-100000001' }), 'LIMIT_ORDER_REJECT', 'UNITS_LIMIT_EXCEEDED'],
  ['price "1.123456"', limit({ price: '1.123456' }), 'LIMIT_ORDER_REJECT', 'PRICE_PRECISION_EXCEEDED'],
  ['price "-1.1"', limit({ price: '-1.1' }), 'LIMIT_ORDER_REJECT', 'PRICE_INVALID'],
  ['LIMIT without price', limit({ price: undefined }), 'LIMIT_ORDER_REJECT', 'PRICE_MISSING'],
  ['STOP without price', { type: 'STOP', instrument: 'EUR_USD', units: '1000' }, 'STOP_ORDER_REJECT', 'PRICE_MISSING'],
  [
    'MIT without price',
    { type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '1000' },
    'MARKET_IF_TOUCHED_ORDER_REJECT',
    'PRICE_MISSING',
  ],
  ['an unknown instrument', market({ instrument: 'EUR_XYZ' }), 'MARKET_ORDER_REJECT', 'INSTRUMENT_UNKNOWN'],
  ['no instrument', limit({ instrument: undefined }), 'LIMIT_ORDER_REJECT', 'INSTRUMENT_MISSING'],
  ['triggerCondition "SOMETIMES"', limit({ triggerCondition: 'SOMETIMES' }), 'LIMIT_ORDER_REJECT', 'TRIGGER_CONDITION_INVALID'],
  ['positionFill "SOMETIMES"', market({ positionFill: 'SOMETIMES' }), 'MARKET_ORDER_REJECT', 'ORDER_FILL_POSITION_ACTION_INVALID'],
  [
    'a client order ID held by a pending order',
    limit({ clientExtensions: { id: 'taken' } }),
    'LIMIT_ORDER_REJECT',
    'CLIENT_ORDER_ID_ALREADY_EXISTS',
  ],
  [
    'a client trade ID held by an open trade',
    market({ tradeClientExtensions: { id: 'trade-a' } }),
    'MARKET_ORDER_REJECT',
    'CLIENT_TRADE_ID_ALREADY_EXISTS',
  ],
  ['a client order ID starting with @', limit({ clientExtensions: { id: '@x' } }), 'LIMIT_ORDER_REJECT', 'CLIENT_ORDER_ID_INVALID'],
  ['a priceBound with too many decimals', market({ priceBound: '1.100201' }), 'MARKET_ORDER_REJECT', 'PRICE_BOUND_PRECISION_EXCEEDED'],
  ['takeProfitOnFill without price', market({ takeProfitOnFill: {} }), 'MARKET_ORDER_REJECT', 'TAKE_PROFIT_ON_FILL_PRICE_MISSING'],
  [
    'stopLossOnFill with price and distance',
    market({ stopLossOnFill: { price: '1.09', distance: '0.001' } }),
    'MARKET_ORDER_REJECT',
    'STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_SPECIFIED',
  ],
  [
    'trailingStopLossOnFill below the minimum distance',
    market({ trailingStopLossOnFill: { distance: '0.00010' } }),
    'MARKET_ORDER_REJECT',
    'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MINIMUM_NOT_MET',
  ],
  [
    'TAKE_PROFIT on an unknown trade',
    { type: 'TAKE_PROFIT', tradeID: '999', price: '1.10500' },
    'TAKE_PROFIT_ORDER_REJECT',
    'TRADE_DOESNT_EXIST',
  ],
  [
    'TAKE_PROFIT on an unknown client trade ID',
    { type: 'TAKE_PROFIT', clientTradeID: 'nope', price: '1.10500' },
    'TAKE_PROFIT_ORDER_REJECT',
    'TRADE_DOESNT_EXIST',
  ],
  ['TAKE_PROFIT without trade', { type: 'TAKE_PROFIT', price: '1.10500' }, 'TAKE_PROFIT_ORDER_REJECT', 'TRADE_ID_UNSPECIFIED'],
  [
    'a second TAKE_PROFIT on trade 4',
    { type: 'TAKE_PROFIT', tradeID: '4', price: '1.10600' },
    'TAKE_PROFIT_ORDER_REJECT',
    'TAKE_PROFIT_ORDER_ALREADY_EXISTS',
  ],
  [
    'STOP_LOSS with price and distance',
    { type: 'STOP_LOSS', tradeID: '4', price: '1.09000', distance: '0.00100' },
    'STOP_LOSS_ORDER_REJECT',
    'STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_SPECIFIED',
  ],
  [
    'STOP_LOSS with neither price nor distance',
    { type: 'STOP_LOSS', tradeID: '4' },
    'STOP_LOSS_ORDER_REJECT',
    'STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_MISSING',
  ],
  [
    'TRAILING_STOP_LOSS beyond the maximum distance',
    { type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '1.00001' },
    'TRAILING_STOP_LOSS_ORDER_REJECT',
    'PRICE_DISTANCE_MAXIMUM_EXCEEDED',
  ],
  [
    'TRAILING_STOP_LOSS without distance',
    { type: 'TRAILING_STOP_LOSS', tradeID: '4' },
    'TRAILING_STOP_LOSS_ORDER_REJECT',
    'PRICE_DISTANCE_MISSING',
  ],
];

/** busyAccount() as facts: the same book, given as its transactions. */
const BUSY = given(
  funded(),
  quoted(1.1, 1.1002),
  tradeOpened('1000', '1.10020', 'EUR_USD', { id: 'trade-a' }), // 3, 4
  orderCreated('TAKE_PROFIT_ORDER', { tradeID: '4', price: '1.10500' }), // 5
  limitOrder({ units: '1000', price: '1.09000', clientExtensions: { id: 'taken' } }), // 6
);

describe('order rejects', () => {
  it.each(ORDER_REJECTS)('%s -> %s %s: one transaction, nothing else changes', (_, order, txType, reason) => {
    const before = bookSnapshot(BUSY.play().account);
    const rejected = BUSY.when({ type: 'CREATE_ORDER', order });
    const tx = rejected.transactions[0];
    rejected.then({
      id: '7',
      batchID: '7',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      time: tx?.time,
      type: txType,
      rejectReason: reason,
      reason: 'CLIENT_ORDER',
    });
    expect(rejected.outcome?.response).toEqual({ orderRejectTransaction: tx });
    expect(rejected.outcome?.reject).toEqual({
      errorCode: reason,
      errorMessage: rejectMessage(reason),
      notFound: reason === 'TRADE_DOESNT_EXIST',
    });
    expect(rejected.outcome?.reject?.errorMessage).not.toBe('');
    expect(rejected.state.lastTransactionID).toBe(7);
    expect(bookSnapshot(rejected.account)).toEqual(before);
  });

  it('the facts of the table above are the book busyAccount() builds', () => {
    expect(bookSnapshot(BUSY.play().account)).toEqual(bookSnapshot(busyAccount().account));
  });

  it('units 100000000 (the maximum) are accepted', () => {
    const sim = busyAccount();
    const out = sim.order(limit({ units: '100000000' }));
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER:CLIENT_ORDER']);
  });

  it('the reject echoes the request with its defaults and its price as sent, like v20', () => {
    // A live reject (spec/oanda-v20-facts.md §11): units "0", price "1212" echoed as "1212"; an
    // accepted order prints its price at the instrument's precision.
    const sim = busyAccount();
    const out = sim.order(limit({ units: '0', price: '1.2120' }));
    expect(rejectTx(out)).toEqual({
      id: '7',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '7',
      time: iso(sim.now),
      type: 'LIMIT_ORDER_REJECT',
      instrument: 'EUR_USD',
      units: '0',
      price: '1.2120',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      partialFill: 'DEFAULT',
      positionFill: 'DEFAULT',
      reason: 'CLIENT_ORDER',
      rejectReason: 'UNITS_INVALID',
    });
    expect(rejectTx(sim.order(limit({ units: '0', price: '1212' })))).toMatchObject({ price: '1212', rejectReason: 'UNITS_INVALID' });
    // Refused by the account after the request's checks (the client ID is taken): as sent too.
    const taken = sim.order(limit({ price: '1.2', clientExtensions: { id: 'taken' } }));
    expect(rejectTx(taken)).toMatchObject({ price: '1.2', rejectReason: 'CLIENT_ORDER_ID_ALREADY_EXISTS' });
    expect(sim.order(limit({ price: '1.2' })).response['orderCreateTransaction']).toMatchObject({ price: '1.20000' });
  });

  it('a request ID is stamped on the reject', () => {
    const sim = busyAccount();
    sim.step();
    const out = sim.account.execute({ type: 'CREATE_ORDER', order: market({ units: '0' }) }, sim.now, 'req-1');
    expect(field(rejectTx(out), 'requestID')).toBe('req-1');
  });

  it('a client order ID stays taken after its order has ended: unique for the account lifetime', () => {
    const sim = busyAccount();
    sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '6' });
    const out = sim.order(limit({ clientExtensions: { id: 'taken' } }));
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER_REJECT:CLIENT_ORDER_ID_ALREADY_EXISTS']);
    expect(sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '@taken' }).reject?.errorCode).toBe('ORDER_DOESNT_EXIST');
  });
});

describe('malformed input', () => {
  it.each([
    ['an unknown order type', { type: 'ICEBERG', instrument: 'EUR_USD', units: '1000' }],
    ['no order type', { instrument: 'EUR_USD', units: '1000' }],
    ['a FIXED_PRICE order', { type: 'FIXED_PRICE', instrument: 'EUR_USD', units: '1000', price: '1.1' }],
  ])('%s is invalid and writes no transaction', (_, order) => {
    const sim = busyAccount();
    const before = bookSnapshot(sim.account);
    const out = sim.order(order);
    expect(out.invalid).toEqual({ errorMessage: "Invalid value specified for 'order.type'" });
    expect(out.transactions).toEqual([]);
    expect(out.response).toEqual({});
    expect(out.reject).toBeUndefined();
    expect(sim.lastId).toBe(6);
    expect(sim.account.log).toHaveLength(6);
    expect(bookSnapshot(sim.account)).toEqual(before);
  });
});

describe('cancel rejects', () => {
  const cases: readonly [string, string, Record<string, unknown>][] = [
    ['an unknown order ID', '999', { rejectReason: 'ORDER_DOESNT_EXIST' }],
    ['an unknown client order ID', '@nope', { clientOrderID: 'nope', rejectReason: 'ORDER_DOESNT_EXIST' }],
    ['a filled MARKET order', '3', { orderID: '3', rejectReason: 'ORDER_DOESNT_EXIST' }],
    ['a malformed specifier', '0x10', { rejectReason: 'ORDER_DOESNT_EXIST' }],
  ];
  it.each(cases)('%s -> ORDER_CANCEL_REJECT ORDER_DOESNT_EXIST, notFound', (_, specifier, fields) => {
    const sim = busyAccount();
    const before = bookSnapshot(sim.account);
    const out = sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: specifier });
    expect(out.transactions).toEqual([
      {
        id: '7',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '7',
        time: iso(sim.now),
        type: 'ORDER_CANCEL_REJECT',
        ...fields,
      },
    ]);
    expect(out.response).toEqual({ orderCancelRejectTransaction: out.transactions[0] });
    expect(out.reject).toEqual({ errorCode: 'ORDER_DOESNT_EXIST', errorMessage: 'The Order specified does not exist', notFound: true });
    expect(bookSnapshot(sim.account)).toEqual(before);
  });

  it('cancelling a cancelled order is refused the second time', () => {
    const sim = busyAccount();
    const first = sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '@taken' });
    expect(first.transactions).toEqual([
      {
        id: '7',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '7',
        time: iso(sim.now),
        type: 'ORDER_CANCEL',
        orderID: '6',
        clientOrderID: 'taken',
        reason: 'CLIENT_REQUEST',
      },
    ]);
    const second = sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '6' });
    expect(shape(second.transactions)).toEqual(['ORDER_CANCEL_REJECT:ORDER_DOESNT_EXIST']);
  });
});

describe('other command rejects consume one transaction ID and change nothing', () => {
  const cases: readonly [string, AccountCommand, string, string, boolean][] = [
    ['close an unknown trade', { type: 'CLOSE_TRADE', tradeSpecifier: '77' }, 'MARKET_ORDER_REJECT', 'TRADE_DOESNT_EXIST', true],
    [
      'close more units than the trade has',
      { type: 'CLOSE_TRADE', tradeSpecifier: '4', units: '1001' },
      'MARKET_ORDER_REJECT',
      'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE',
      false,
    ],
    [
      'close "1.5" units',
      { type: 'CLOSE_TRADE', tradeSpecifier: '4', units: '1.5' },
      'MARKET_ORDER_REJECT',
      'UNITS_PRECISION_EXCEEDED',
      false,
    ],
    [
      'close a short side that does not exist',
      { type: 'CLOSE_POSITION', instrument: 'EUR_USD', shortUnits: 'ALL' },
      'MARKET_ORDER_REJECT',
      'CLOSEOUT_POSITION_DOESNT_EXIST',
      false,
    ],
    [
      'close more than the long side',
      { type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: '1001' },
      'MARKET_ORDER_REJECT',
      'CLOSEOUT_POSITION_UNITS_EXCEED_POSITION_SIZE',
      false,
    ],
    [
      'close a position naming no side',
      { type: 'CLOSE_POSITION', instrument: 'EUR_USD' },
      'MARKET_ORDER_REJECT',
      'CLOSEOUT_POSITION_INCOMPLETE_SPECIFICATION',
      false,
    ],
    [
      'modify extensions of an unknown order',
      { type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '99', clientExtensions: { tag: 'x' } },
      'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
      'ORDER_DOESNT_EXIST',
      true,
    ],
    [
      'modify extensions with no data',
      { type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '6' },
      'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
      'CLIENT_EXTENSIONS_DATA_MISSING',
      false,
    ],
    [
      'modify trade extensions with no data',
      { type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '4' },
      'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
      'CLIENT_EXTENSIONS_DATA_MISSING',
      false,
    ],
    ['configure a zero margin rate', { type: 'CONFIGURE', marginRate: '0' }, 'CLIENT_CONFIGURE_REJECT', 'MARGIN_RATE_INVALID', false],
    [
      'withdraw more than the withdrawal limit',
      { type: 'TRANSFER_FUNDS', amount: '-100000' },
      'TRANSFER_FUNDS_REJECT',
      'INSUFFICIENT_FUNDS',
      false,
    ],
  ];
  it.each(cases)('%s -> %s %s', (_, command, txType, reason, notFound) => {
    const sim = busyAccount();
    const before = bookSnapshot(sim.account);
    const out = sim.exec(command);
    expect(out.transactions).toHaveLength(1);
    expect(out.transactions[0]).toMatchObject({ id: '7', batchID: '7', type: txType, rejectReason: reason });
    expect(out.reject).toEqual({ errorCode: reason, errorMessage: rejectMessage(reason), notFound });
    expect(sim.lastId).toBe(7);
    expect(bookSnapshot(sim.account)).toEqual(before);
  });
});

describe('on-fill client order IDs', () => {
  it('two on-fill orders with the same client order ID are refused with ORDERS_ON_FILL_DUPLICATE_CLIENT_ORDER_IDS', () => {
    const account = Account.open({ id: '101-004-1234567-001', currency: 'USD' }, buildCatalogue(), Date.UTC(2024, 0, 2) * 1000);
    account.onQuote({ instrument: 'EUR_USD', time: Date.UTC(2024, 0, 2) * 1000 + 1, bid: 1.1, ask: 1.1001 });
    const out = account.execute(
      {
        type: 'CREATE_ORDER',
        order: {
          type: 'MARKET',
          instrument: 'EUR_USD',
          units: '10',
          takeProfitOnFill: { price: '1.20000', clientExtensions: { id: 'same' } },
          stopLossOnFill: { price: '1.00000', clientExtensions: { id: 'same' } },
        },
      },
      Date.UTC(2024, 0, 2) * 1000 + 2,
    );
    expect(out.reject?.errorCode).toBe('ORDERS_ON_FILL_DUPLICATE_CLIENT_ORDER_IDS');
    expect(out.transactions.map((t) => t.type)).toEqual(['MARKET_ORDER_REJECT']);
  });
});
