import { describe, expect, it } from 'vitest';
import { accountSummaryView } from './views.js';
import { funded, given, placeOrder, quote, quoted, tradeOpened } from './testing/given.js';

/**
 * Price rules of OANDA's definitions (oanda-v20-openapi.json) that are easy to get wrong:
 * where a LIMIT/TAKE_PROFIT may fill, and what a dependent order's `distance` is measured from.
 */

describe('a LIMIT whose condition is met at creation but whose fill side is worse rests', () => {
  it('buy LIMIT 1.10000 watching MID at 1.09990 / 1.10010: created, not filled', () => {
    given(funded(), quoted(1.0999, 1.1001))
      .when(placeOrder({ type: 'LIMIT', units: '1000', price: '1.10000', triggerCondition: 'MID' }))
      .then({ id: '3', type: 'LIMIT_ORDER' })
      .when(quote(1.0999, 1.1))
      .then({ id: '4', type: 'ORDER_FILL', orderID: '3', price: '1.10000' });
  });

  it('an IOC one is cancelled rather than filled above its price', () => {
    given(funded(), quoted(1.0999, 1.1001))
      .when(placeOrder({ type: 'LIMIT', units: '1000', price: '1.10000', triggerCondition: 'MID', timeInForce: 'IOC' }))
      .then({ id: '3', type: 'LIMIT_ORDER' }, { id: '4', type: 'ORDER_CANCEL', reason: 'TIME_IN_FORCE_EXPIRED' });
  });
});

describe('TAKE_PROFIT never fills worse than its price, whatever its trigger condition', () => {
  // A long trade from 1.10000; its TP sells at 1.10100. At 1.10090 / 1.10110 (mid 1.10100) the
  // ASK, MID and INVERSE conditions have fired, but the bid a sell fills at is below the price.
  it.each(['DEFAULT', 'BID', 'ASK', 'INVERSE', 'MID'] as const)('long trade, %s: waits for the bid', (condition) => {
    given(funded(), tradeOpened('1000', '1.10000'), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10100', triggerCondition: condition }))
      .then({ id: '5', type: 'TAKE_PROFIT_ORDER', price: '1.10100', triggerCondition: condition })
      .when(quote(1.1009, 1.1011))
      .then()
      .when(quote(1.1011, 1.1013))
      .then({ id: '6', type: 'ORDER_FILL', orderID: '5', price: '1.10110', reason: 'TAKE_PROFIT_ORDER', units: '-1000' });
  });

  // A short trade's TP buys: at 1.09890 / 1.09910 (mid 1.09900) BID, MID and INVERSE have fired.
  it.each(['DEFAULT', 'BID', 'ASK', 'INVERSE', 'MID'] as const)('short trade, %s: waits for the ask', (condition) => {
    given(funded(), tradeOpened('-1000', '1.10000'), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.09900', triggerCondition: condition }))
      .then({ id: '5', type: 'TAKE_PROFIT_ORDER' })
      .when(quote(1.0989, 1.0991))
      .then()
      .when(quote(1.0987, 1.0989))
      .then({ id: '6', type: 'ORDER_FILL', orderID: '5', price: '1.09890', units: '1000' });
  });
});

describe('a STOP_LOSS by distance on an existing trade is measured from the current price', () => {
  // StopLossOrderRequest.distance: "from the Account's current price ... If the Trade is short the
  // Instrument's bid price is used, and for long Trades the ask is used". The market has moved 50
  // pips since the trade opened at 1.10000.
  const longTrade = given(funded(), tradeOpened('1000', '1.10000'), quoted(1.105, 1.1052));
  const shortTrade = given(funded(), tradeOpened('-1000', '1.10000'), quoted(1.095, 1.0952));

  it('long trade: the ask less the distance (POST orders)', () => {
    longTrade
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', type: 'STOP_LOSS_ORDER', tradeID: '4', price: '1.10320', distance: '0.00200', reason: 'CLIENT_ORDER' });
  });

  it('short trade: the bid plus the distance', () => {
    shortTrade
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', type: 'STOP_LOSS_ORDER', price: '1.09700', distance: '0.00200' });
  });

  it('the same through PUT trades/{id}/orders', () => {
    const then = longTrade
      .when({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', stopLoss: { distance: '0.00150' } })
      .then({ id: '5', type: 'STOP_LOSS_ORDER', price: '1.10370', distance: '0.00150' });
    expect(then.outcome?.response['stopLossOrderTransaction']).toMatchObject({ price: '1.10370' });
  });

  it('and for a replacement, from the price when it is replaced', () => {
    longTrade
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', price: '1.10320' })
      .when(quote(1.106, 1.1062))
      .when({ type: 'REPLACE_ORDER', orderSpecifier: '5', order: { type: 'STOP_LOSS', tradeID: '4', distance: '0.00200' } })
      .then({ id: '6', type: 'ORDER_CANCEL', reason: 'CLIENT_REQUEST_REPLACED' }, { id: '7', price: '1.10420', reason: 'REPLACEMENT' });
  });

  it('is refused with INSTRUMENT_PRICE_UNKNOWN while the account has no price for the instrument', () => {
    given(funded(), tradeOpened('1000', '1.10000'))
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', type: 'STOP_LOSS_ORDER_REJECT', rejectReason: 'INSTRUMENT_PRICE_UNKNOWN' });
  });

  it('a stop loss by price is not moved', () => {
    longTrade
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', price: '1.09800' }))
      .then({ id: '5', type: 'STOP_LOSS_ORDER', price: '1.09800' });
  });
});

describe('a TRAILING_STOP_LOSS on an existing trade starts from the current price', () => {
  // It trails the price it watches (a long trade's: the bid), so its first level is the bid less
  // the distance, not the open price less the distance.
  it('long trade: bid 1.10500 less 0.00200', () => {
    const then = given(funded(), tradeOpened('1000', '1.10000'), quoted(1.105, 1.1052))
      .when(placeOrder({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', type: 'TRAILING_STOP_LOSS_ORDER', distance: '0.00200' });
    expect(then.account.state.orders.get(5)?.trailing?.value2).toBe(2 * 110_300);
  });
});

describe('on-fill distances stay measured from the fill', () => {
  it('stopLossOnFill distance: the fill price less the distance', () => {
    given(funded(), quoted(1.105, 1.1052))
      .when(placeOrder({ type: 'MARKET', units: '1000', stopLossOnFill: { distance: '0.00200' } }))
      .then(
        { id: '3', type: 'MARKET_ORDER' },
        { id: '4', type: 'ORDER_FILL', price: '1.10520' },
        { id: '5', type: 'STOP_LOSS_ORDER', reason: 'ON_FILL', price: '1.10320', distance: '0.00200' },
      );
  });
});

describe('TAKE_PROFIT has no distance', () => {
  // TakeProfitOrderRequest has price and no distance (oanda-v20-openapi.json; facts sheet 3.1).
  it('a TP with only a distance is refused for its missing price', () => {
    given(funded(), tradeOpened('1000', '1.10000'), quoted(1.105, 1.1052))
      .when(placeOrder({ type: 'TAKE_PROFIT', tradeID: '4', distance: '0.00200' }))
      .then({ id: '5', type: 'TAKE_PROFIT_ORDER_REJECT', rejectReason: 'PRICE_MISSING' });
  });
});

describe('OPEN_ONLY on a netting account never reduces (orders/position-fill.ts)', () => {
  const long = given(funded(), tradeOpened('10000', '1.10000'), quoted(1.1, 1.1002));

  it('a sell against a long is rejected ORDER_FILL_POSITION_ACTION_INVALID', () => {
    long
      .when(placeOrder({ type: 'MARKET', units: '-4000', positionFill: 'OPEN_ONLY' }))
      .then({ id: '5', type: 'MARKET_ORDER_REJECT', positionFill: 'OPEN_ONLY', rejectReason: 'ORDER_FILL_POSITION_ACTION_INVALID' });
  });

  it('a pending sell LIMIT against a long is rejected at creation too', () => {
    long
      .when(placeOrder({ type: 'LIMIT', units: '-4000', price: '1.10100', positionFill: 'OPEN_ONLY' }))
      .then({ id: '5', type: 'LIMIT_ORDER_REJECT', rejectReason: 'ORDER_FILL_POSITION_ACTION_INVALID' });
  });

  it('a buy extends the long', () => {
    long
      .when(placeOrder({ type: 'MARKET', units: '1000', positionFill: 'OPEN_ONLY' }))
      .then({ id: '5', type: 'MARKET_ORDER' }, { id: '6', type: 'ORDER_FILL', tradeOpened: { tradeID: '6', units: '1000' } });
  });

  it('a resting OPEN_ONLY order reached while the opposite side is held is cancelled FIFO_VIOLATION', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'LIMIT', units: '-4000', price: '1.10100', positionFill: 'OPEN_ONLY' }))
      .then({ id: '3', type: 'LIMIT_ORDER' })
      .when(placeOrder({ type: 'MARKET', units: '10000' }))
      .then({ id: '4', type: 'MARKET_ORDER' }, { id: '5', type: 'ORDER_FILL' })
      .when(quote(1.101, 1.1012))
      .then({ id: '6', type: 'ORDER_CANCEL', orderID: '3', reason: 'FIFO_VIOLATION' });
  });

  it('with nothing held it opens, as on a hedging account', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'MARKET', units: '-4000', positionFill: 'OPEN_ONLY' }))
      .then({ id: '3', type: 'MARKET_ORDER' }, { id: '4', type: 'ORDER_FILL', tradeOpened: { units: '-4000' } });
  });
});

describe('withdrawalLimit never allows a withdrawal that leaves the balance negative', () => {
  // 1,000 USD, long 10,000 EUR_USD from 1.10000, now bid 1.20000: 1,000 USD of unrealized gain,
  // so the margin available is well above the balance. Gains are not cash: the limit is the balance.
  const inProfit = given(funded('1000.0000'), tradeOpened('10000', '1.10000'), quoted(1.2, 1.2002));

  it('the limit is the balance when the margin available is larger', () => {
    const then = inProfit.play();
    const summary = accountSummaryView(then.state);
    expect(Number(summary['marginAvailable'])).toBeGreaterThan(1000);
    expect(summary['withdrawalLimit']).toBe('1000.0000');
  });

  it('a withdrawal above the balance is rejected INSUFFICIENT_FUNDS', () => {
    inProfit
      .when({ type: 'TRANSFER_FUNDS', amount: '-1000.0001' })
      .then({ id: '5', type: 'TRANSFER_FUNDS_REJECT', rejectReason: 'INSUFFICIENT_FUNDS' });
  });

  it('the whole balance may go', () => {
    inProfit.when({ type: 'TRANSFER_FUNDS', amount: '-1000' }).then({ id: '5', type: 'TRANSFER_FUNDS', accountBalance: '0.0000' });
  });
});

describe('a stop loss distance that would put the price at zero or below', () => {
  it('is rejected PRICE_DISTANCE_MAXIMUM_EXCEEDED', () => {
    given(funded(), tradeOpened('1000', '1.10000'), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'STOP_LOSS', tradeID: '4', distance: '1.10020' }))
      .then({ id: '5', type: 'STOP_LOSS_ORDER_REJECT', rejectReason: 'PRICE_DISTANCE_MAXIMUM_EXCEEDED' });
  });
});

describe('a stopLossOnFill distance that would put the price at zero or below', () => {
  it('cancels the entry STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'MARKET', units: '1000', stopLossOnFill: { distance: '1.10020' } }))
      .then(
        { id: '3', type: 'MARKET_ORDER' },
        { id: '4', type: 'ORDER_CANCEL', reason: 'STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED' },
      );
  });
});
