/**
 * The contract validator itself: real OANDA responses (facts sheet section 11, live captures)
 * must pass, so its format checks are not stricter than real servers; broken bodies must fail,
 * so a passing contract test means something.
 */
import { describe, expect, it } from 'vitest';
import {
  conformanceErrors,
  expectConformsTo,
  expectTransactionStreamLine,
  responseContract,
  specOperations,
  subtypeDefinition,
} from '../support/api/contract.js';

const ORDERS = '/v3/accounts/{accountID}/orders';

const MARKET_201 = {
  orderCreateTransaction: {
    type: 'MARKET_ORDER',
    instrument: 'EUR_USD',
    units: '10000',
    timeInForce: 'FOK',
    positionFill: 'DEFAULT',
    reason: 'CLIENT_ORDER',
    id: '2503',
    accountID: '101-004-1435156-001',
    userID: 1435156,
    batchID: '2503',
    requestID: '24910393117751396',
    time: '2016-11-11T19:59:43.253587917Z',
  },
  orderFillTransaction: {
    type: 'ORDER_FILL',
    orderID: '2503',
    instrument: 'EUR_USD',
    units: '10000',
    requestedUnits: '10000',
    price: '1.08463',
    fullVWAP: '1.08463',
    fullPrice: {
      closeoutBid: '1.08445',
      closeoutAsk: '1.08467',
      timestamp: '2016-11-11T19:59:42.901Z',
      bids: [{ price: '1.08449', liquidity: '10000000' }],
      asks: [{ price: '1.08463', liquidity: '10000000' }],
    },
    reason: 'MARKET_ORDER',
    pl: '0.0000',
    quotePL: '0',
    financing: '0.0000',
    baseFinancing: '0',
    commission: '0.0000',
    guaranteedExecutionFee: '0.0000',
    quoteGuaranteedExecutionFee: '0',
    accountBalance: '97864.8813',
    homeConversionFactors: {
      gainQuoteHome: { factor: '1' },
      lossQuoteHome: { factor: '1' },
      gainBaseHome: { factor: '1.07913720' },
      lossBaseHome: { factor: '1.08998280' },
    },
    tradeOpened: {
      tradeID: '2504',
      units: '10000',
      price: '1.08463',
      guaranteedExecutionFee: '0.0000',
      halfSpreadCost: '0.7000',
      initialMarginRequired: '216.9120',
    },
    halfSpreadCost: '0.7000',
    id: '2504',
    accountID: '101-004-1435156-001',
    userID: 1435156,
    batchID: '2503',
    requestID: '24910393117751396',
    time: '2016-11-11T19:59:43.253587917Z',
  },
  relatedTransactionIDs: ['2503', '2504'],
  lastTransactionID: '2504',
};

const LIMIT_201 = {
  orderCreateTransaction: {
    id: '13',
    accountID: '001-004-1234567-001',
    userID: 1234567,
    batchID: '13',
    requestID: '132995756821141501',
    time: '2022-02-03T11:38:15.490811234Z',
    type: 'LIMIT_ORDER',
    instrument: 'USD_JPY',
    units: '-1',
    price: '101.000',
    timeInForce: 'GTC',
    triggerCondition: 'DEFAULT',
    partialFill: 'DEFAULT',
    positionFill: 'DEFAULT',
    reason: 'CLIENT_ORDER',
  },
  relatedTransactionIDs: ['13'],
  lastTransactionID: '13',
};

const CANCEL_200 = {
  orderCancelTransaction: {
    id: '51',
    accountID: '001-004-1234567-001',
    userID: 1234567,
    batchID: '51',
    requestID: '78953047329468193',
    time: '2022-02-04T17:58:18.182828031Z',
    type: 'ORDER_CANCEL',
    orderID: '50',
    reason: 'CLIENT_REQUEST',
  },
  relatedTransactionIDs: ['51'],
  lastTransactionID: '51',
};

const REJECT_400 = {
  orderRejectTransaction: {
    id: '64',
    accountID: '001-004-123456-001',
    userID: 123456,
    batchID: '64',
    requestID: '24910393117751396',
    time: '2022-02-06T07:40:36.837630106Z',
    type: 'LIMIT_ORDER_REJECT',
    instrument: 'EUR_USD',
    units: '0',
    price: '1212',
    timeInForce: 'GTC',
    triggerCondition: 'DEFAULT',
    partialFill: 'DEFAULT',
    positionFill: 'DEFAULT',
    reason: 'CLIENT_ORDER',
    rejectReason: 'UNITS_INVALID',
  },
  relatedTransactionIDs: ['64'],
  lastTransactionID: '64',
  errorMessage: 'Order units specified are invalid',
  errorCode: 'UNITS_INVALID',
};

describe('real OANDA responses pass', () => {
  it('MARKET create 201 (2016 capture; its 2022 fields are extra properties the spec allows)', () => {
    // 2022 captures carry liquidity as a string; the 2018 spec says integer. Ours sends integers.
    const problems = conformanceErrors('POST', ORDERS, 201, MARKET_201);
    expect(problems.filter((p) => !p.includes('/liquidity'))).toEqual([]);
  });

  it('LIMIT create 201, cancel 200, reject 400', () => {
    expectConformsTo('POST', ORDERS, 201, LIMIT_201);
    expectConformsTo('PUT', `${ORDERS}/{orderSpecifier}/cancel`, 200, CANCEL_200);
    expectConformsTo('POST', ORDERS, 400, REJECT_400);
  });

  it('stream heartbeat lines', () => {
    expectTransactionStreamLine({ type: 'HEARTBEAT', lastTransactionID: '2311', time: '2016-10-28T11:56:12.002855862Z' });
    expectTransactionStreamLine({ type: 'HEARTBEAT', lastTransactionID: '2311', time: '1477655772.002855862' });
  });
});

describe('broken bodies fail', () => {
  const fill = MARKET_201.orderFillTransaction;
  const cases: [string, unknown, RegExp][] = [
    ['a number where a decimal string belongs', { ...MARKET_201, orderFillTransaction: { ...fill, units: 10000 } }, /units must be string/],
    ['a decimal that is not one', { ...MARKET_201, orderFillTransaction: { ...fill, price: '1,08463' } }, /price is not a PriceValue/],
    [
      'an enum value the spec does not have',
      { ...MARKET_201, orderFillTransaction: { ...fill, reason: 'MARKET' } },
      /reason must be equal to one of/,
    ],
    [
      'a transaction type the spec does not have',
      { ...MARKET_201, orderCreateTransaction: { type: 'BOGUS_ORDER' } },
      /no Transaction definition for type "BOGUS_ORDER"/,
    ],
    ['a malformed DateTime', { ...MARKET_201, orderFillTransaction: { ...fill, time: '2016-11-11 19:59:43' } }, /time is not a DateTime/],
    ['a malformed account ID', { ...MARKET_201, orderFillTransaction: { ...fill, accountID: '5271115' } }, /accountID is not a AccountID/],
    ['a string userID', { ...MARKET_201, orderFillTransaction: { ...fill, userID: '1435156' } }, /userID must be integer/],
    ['no lastTransactionID on success', { ...LIMIT_201, lastTransactionID: undefined }, /without lastTransactionID/],
    [
      'a subtype field of the wrong type (checked through the base Transaction ref)',
      { ...LIMIT_201, orderCreateTransaction: { ...LIMIT_201.orderCreateTransaction, price: 101 } },
      /price must be string \(in LimitOrderTransaction\)/,
    ],
  ];
  it.each(cases)('%s', (_name, body, message) => {
    expect(() => expectConformsTo('POST', ORDERS, 201, JSON.parse(JSON.stringify(body)))).toThrow(message);
  });

  it('an error body without errorMessage', () => {
    expect(() => expectConformsTo('POST', ORDERS, 400, { errorCode: 'UNITS_INVALID' })).toThrow(/without errorMessage/);
    expect(() => expectConformsTo('POST', ORDERS, 415, {})).toThrow(/without errorMessage/);
  });

  it('an Order in a list, checked by its own type', () => {
    const body = { orders: [{ id: '1', type: 'LIMIT', state: 'PENDING', price: 'x' }], lastTransactionID: '1' };
    expect(() => expectConformsTo('GET', ORDERS, 200, body)).toThrow(/orders\/0\/price is not a PriceValue \(in LimitOrder\)/);
  });
});

describe("the interface's Order resource spellings (INTERFACE_SPELLINGS)", () => {
  const limit = { id: '3', type: 'LIMIT', state: 'PENDING', instrument: 'EUR_USD', units: '100', price: '1.10000', timeInForce: 'GTC' };
  const order = { ...limit, positionFill: 'POSITION_DEFAULT', triggerCondition: 'TRIGGER_DEFAULT', partialFill: 'DEFAULT_FILL' };

  it("pass in Order resources: lists, one order, changes, a trade's dependent orders", () => {
    expectConformsTo('GET', ORDERS, 200, { orders: [order], lastTransactionID: '3' });
    expectConformsTo('GET', `${ORDERS}/{orderSpecifier}`, 200, { order, lastTransactionID: '3' });
    const takeProfit = {
      id: '5',
      type: 'TAKE_PROFIT',
      state: 'PENDING',
      tradeID: '4',
      price: '1.20000',
      triggerCondition: 'TRIGGER_DEFAULT',
    };
    const trade = { id: '4', instrument: 'EUR_USD', price: '1.10000', state: 'OPEN', takeProfitOrder: takeProfit };
    expectConformsTo('GET', '/v3/accounts/{accountID}/trades/{tradeSpecifier}', 200, { trade, lastTransactionID: '5' });
    expectConformsTo('GET', '/v3/accounts/{accountID}/changes', 200, {
      changes: { ordersCreated: [order], ordersCancelled: [], ordersFilled: [], transactions: [] },
      lastTransactionID: '3',
    });
  });

  it('fail in transactions, and for another field or value', () => {
    const created = { ...LIMIT_201, orderCreateTransaction: { ...LIMIT_201.orderCreateTransaction, positionFill: 'POSITION_DEFAULT' } };
    expect(() => expectConformsTo('POST', ORDERS, 201, created)).toThrow(/orderCreateTransaction\/positionFill must be equal to one of/);
    const triggered = {
      ...LIMIT_201,
      orderCreateTransaction: { ...LIMIT_201.orderCreateTransaction, triggerCondition: 'TRIGGER_DEFAULT' },
    };
    expect(() => expectConformsTo('POST', ORDERS, 201, triggered)).toThrow(/triggerCondition must be equal to one of/);
    const swapped = { ...order, positionFill: 'TRIGGER_DEFAULT' };
    expect(() => expectConformsTo('GET', ORDERS, 200, { orders: [swapped], lastTransactionID: '3' })).toThrow(
      /orders\/0\/positionFill must be equal to one of/,
    );
    const bogus = { ...order, triggerCondition: 'LAST' };
    expect(() => expectConformsTo('GET', ORDERS, 200, { orders: [bogus], lastTransactionID: '3' })).toThrow(
      /triggerCondition must be equal/,
    );
  });
});

describe('status fallbacks', () => {
  it('an unlisted error status uses the shared error response; an unlisted success status is an error', () => {
    expect(responseContract('GET', '/v3/accounts/{accountID}', 404).source).toBe('responses.404 (not listed for the operation)');
    expect(responseContract('GET', '/v3/accounts/{accountID}', 413).source).toBe('generic v20 error shape (status not in spec)');
    expect(() => responseContract('GET', '/v3/accounts/{accountID}', 201)).toThrow(/documents no 201/);
  });

  it('every transaction and order type of the spec maps to its definition', () => {
    for (const type of [
      'MARKET_ORDER',
      'ORDER_FILL',
      'RESET_RESETTABLE_PL',
      'MARKET_IF_TOUCHED_ORDER_REJECT',
      'DAILY_FINANCING',
      'CLIENT_CONFIGURE_REJECT',
    ]) {
      expect(subtypeDefinition('Transaction', type), type).toBeDefined();
    }
    for (const type of ['MARKET', 'LIMIT', 'STOP', 'MARKET_IF_TOUCHED', 'TAKE_PROFIT', 'STOP_LOSS', 'TRAILING_STOP_LOSS', 'FIXED_PRICE']) {
      expect(subtypeDefinition('Order', type), type).toBeDefined();
    }
    expect(specOperations().length).toBeGreaterThan(35);
  });
});
