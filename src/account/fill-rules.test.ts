import { balanceOf } from './state.js';
import { describe, expect, it } from 'vitest';
import { orderView } from './views.js';
import { ACCOUNT_ID, Sim, USER_ID, cancelTx, createTx, field, fillTx, iso, rejectTx, shape, sideUnitsText } from './test-helpers.js';
import { funded, given, limitOrder, marketIfTouchedOrder, placeOrder, quote, quoted, stopOrder } from './testing/given.js';

/** EUR_USD 1.10000 / 1.10020 on a fresh 100000 USD account: order IDs start at 3. */
function eurUsd(options: ConstructorParameters<typeof Sim>[0] = {}): Sim {
  const sim = new Sim(options);
  sim.quote('EUR_USD', 1.1, 1.1002);
  return sim;
}

describe('MARKET orders', () => {
  it('a buy fills at the ask in the batch that creates it, FOK by default', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '10000' });
    const t = iso(sim.now);
    expect(out.reject).toBeUndefined();
    expect(createTx(out)).toEqual({
      id: '3',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '3',
      time: t,
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '10000',
      timeInForce: 'FOK',
      positionFill: 'DEFAULT',
      reason: 'CLIENT_ORDER',
    });
    const fill = fillTx(out);
    expect(fill).toMatchObject({
      id: '4',
      batchID: '3',
      time: t,
      type: 'ORDER_FILL',
      orderID: '3',
      instrument: 'EUR_USD',
      units: '10000',
      requestedUnits: '10000',
      price: '1.10020',
      fullVWAP: '1.10020',
      reason: 'MARKET_ORDER',
      pl: '0.0000',
      quotePL: '0.00000',
      accountBalance: '100000.0000',
      halfSpreadCost: '1.0000',
      gainQuoteHomeConversionFactor: '1',
      lossQuoteHomeConversionFactor: '1',
    });
    // 10000 x mid 1.10010 x 0.0333 = 366.33330
    expect(fill.tradeOpened).toEqual({
      tradeID: '4',
      units: '10000',
      price: '1.10020',
      guaranteedExecutionFee: '0.0000',
      quoteGuaranteedExecutionFee: '0',
      halfSpreadCost: '1.0000',
      initialMarginRequired: '366.3333',
    });
    expect(fill.fullPrice.bids).toEqual([{ price: '1.10000', liquidity: 10_000_000 }]);
    expect(fill.fullPrice.asks).toEqual([{ price: '1.10020', liquidity: 10_000_000 }]);
    expect(fill.tradesClosed).toBeUndefined();
    expect(out.transactions.map((tx) => tx.id)).toEqual(['3', '4']);
    const order = sim.account.state.orders.get(3);
    expect(order?.state).toBe('FILLED');
    expect(sim.account.state.pendingCount).toBe(0);
    expect(sim.account.state.trades.get(4)?.currentUnits.toString()).toBe('10000');
  });

  it('every transaction of the batch carries the request ID; quote-driven fills carry none', () => {
    const sim = eurUsd();
    sim.step();
    const out = sim.account.execute(
      { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', stopLossOnFill: { distance: '0.00500' } } },
      sim.now,
      'req-7',
    );
    expect(out.transactions.map((tx) => [tx.type, field(tx, 'requestID')])).toEqual([
      ['MARKET_ORDER', 'req-7'],
      ['ORDER_FILL', 'req-7'],
      ['STOP_LOSS_ORDER', 'req-7'],
    ]);
    sim.quote('EUR_USD', 1.095, 1.0952);
    expect(sim.tx(6)).toMatchObject({ type: 'ORDER_FILL', reason: 'STOP_LOSS_ORDER' });
    expect(sim.tx(6)).not.toHaveProperty('requestID');
  });

  it('a sell fills at the bid and opens a short trade', () => {
    const sim = eurUsd();
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-10000' }));
    expect(fill.price).toBe('1.10000');
    expect(fill.units).toBe('-10000');
    expect(fill.tradeOpened?.units).toBe('-10000');
    expect(fill.tradeOpened?.price).toBe('1.10000');
    expect(sideUnitsText(sim.account.state, 'EUR_USD', 'short')).toBe('-10000');
  });

  it('IOC is accepted and fills like FOK', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '100', timeInForce: 'IOC' });
    expect(createTx(out).timeInForce).toBe('IOC');
    expect(fillTx(out).price).toBe('1.10020');
  });

  it.each(['GTC', 'GTD', 'GFD'])('%s on a MARKET order is rejected with TIME_IN_FORCE_INVALID', (tif) => {
    const sim = eurUsd();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '100', timeInForce: tif, gtdTime: iso(sim.now + 3_600_000_000) });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER_REJECT:TIME_IN_FORCE_INVALID']);
    expect(rejectTx(out).timeInForce).toBe(tif);
    expect(out.reject).toEqual({ errorCode: 'TIME_IN_FORCE_INVALID', errorMessage: expect.any(String), notFound: false });
    expect(sim.account.state.trades.size).toBe(0);
  });

  it('a buy whose ask is above its priceBound is created, then cancelled BOUNDS_VIOLATION', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', priceBound: '1.10010' });
    expect(createTx(out).priceBound).toBe('1.10010');
    expect(cancelTx(out)).toMatchObject({ id: '4', batchID: '3', type: 'ORDER_CANCEL', orderID: '3', reason: 'BOUNDS_VIOLATION' });
    expect(out.response['orderFillTransaction']).toBeUndefined();
    expect(out.reject).toBeUndefined();
    expect(sim.account.state.orders.get(3)?.state).toBe('CANCELLED');
    expect(sim.account.state.trades.size).toBe(0);
  });

  it('a priceBound equal to the fill price is acceptable; a sell bound above the bid is not', () => {
    const sim = eurUsd();
    expect(fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', priceBound: '1.10020' })).price).toBe('1.10020');
    expect(fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', priceBound: '1.10000' })).price).toBe('1.10000');
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', priceBound: '1.10001' });
    expect(cancelTx(out).reason).toBe('BOUNDS_VIOLATION');
  });

  it('without any quote for the instrument the order is created and cancelled MARKET_HALTED', () => {
    const sim = new Sim();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:MARKET_HALTED']);
    expect(out.transactions.map((tx) => tx.batchID)).toEqual(['3', '3']);
    expect(out.reject).toBeUndefined();
  });

  it('INSUFFICIENT_MARGIN cancels an order whose initial margin exceeds the margin available', () => {
    // 1000 USD; margin per EUR_USD unit = mid 1.10010 x 0.0333 = 0.036633330
    const sim = eurUsd({ balance: '1000' });
    const big = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000000' });
    expect(shape(big.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:INSUFFICIENT_MARGIN']);
    expect(big.transactions.map((tx) => tx.batchID)).toEqual(['3', '3']);
    // 27298 units need 1000.0166 > 1000; 27297 need 999.9800
    expect(cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '27298' })).reason).toBe('INSUFFICIENT_MARGIN');
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '27297' }));
    expect(fill.tradeOpened?.initialMarginRequired).toBe('999.9800');
    expect(balanceOf(sim.account.state).toString()).toBe('1000');
  });
});

describe('LIMIT orders', () => {
  it('a resting buy fills when the ask reaches its price, at that ask, in its own batch', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '10000', price: '1.09950' });
    expect(createTx(out)).toEqual({
      id: '3',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '3',
      time: iso(sim.now),
      type: 'LIMIT_ORDER',
      instrument: 'EUR_USD',
      units: '10000',
      price: '1.09950',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      partialFill: 'DEFAULT',
      positionFill: 'DEFAULT',
      reason: 'CLIENT_ORDER',
    });
    expect(out.transactions).toHaveLength(1);
    sim.quote('EUR_USD', 1.0994, 1.0996); // bid is below the price, the ask is not
    expect(sim.lastId).toBe(3);
    const t = sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.lastId).toBe(4);
    expect(sim.tx(4)).toMatchObject({
      type: 'ORDER_FILL',
      orderID: '3',
      batchID: '4',
      time: iso(t),
      price: '1.09950',
      units: '10000',
      reason: 'LIMIT_ORDER',
      tradeOpened: { tradeID: '4', units: '10000', price: '1.09950' },
    });
    expect(field(sim.tx(4), 'requestID')).toBeUndefined();
    expect(orderView(sim.account.state, sim.account.state.orders.get(3)!)).toMatchObject({
      state: 'FILLED',
      fillingTransactionID: '4',
      filledTime: iso(t),
      tradeOpenedID: '4',
    });
  });

  it('a buy the market gaps through fills at the better ask of that tick', () => {
    given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '10000', price: '1.09950' }))
      .when(quote(1.099, 1.0992))
      .then({ id: '4', type: 'ORDER_FILL', orderID: '3', price: '1.09920', reason: 'LIMIT_ORDER' });
  });

  it('a marketable buy fills at once at the market, not at its limit, reason LIMIT_ORDER', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '10000', price: '1.10100' });
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER:CLIENT_ORDER', 'ORDER_FILL:LIMIT_ORDER']);
    expect(fillTx(out)).toMatchObject({ id: '4', batchID: '3', price: '1.10020' });
    expect(sim.account.state.pendingCount).toBe(0);
  });

  it('the sell side mirrors it: bid at or above the price, gap fills at the better bid, marketable at the bid', () => {
    given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '-1000', price: '1.10050' }), limitOrder({ units: '-1000', price: '1.10060' }))
      .when(quote(1.1004, 1.1006)) // ask above both, bid below both
      .then()
      .when(quote(1.1005, 1.1007))
      .then({ id: '5', type: 'ORDER_FILL', orderID: '3', price: '1.10050', units: '-1000' })
      .when(quote(1.1008, 1.101))
      .then({ id: '6', type: 'ORDER_FILL', orderID: '4', price: '1.10080' })
      .when(placeOrder({ type: 'LIMIT', units: '-1000', price: '1.09000' }))
      .then({ type: 'LIMIT_ORDER' }, { type: 'ORDER_FILL', price: '1.10080', reason: 'LIMIT_ORDER', batchID: '7' });
  });
});

describe('STOP orders', () => {
  it('a buy stop fires when the ask reaches its price and fills at the (worse) ask', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'STOP', units: '1000', price: '1.10100' }))
      .then({ id: '3', type: 'STOP_ORDER', price: '1.10100', timeInForce: 'GTC', triggerCondition: 'DEFAULT' })
      .when(quote(1.1007, 1.1009))
      .then()
      .when(quote(1.1011, 1.1013))
      .then({ id: '4', type: 'ORDER_FILL', orderID: '3', price: '1.10130', reason: 'STOP_ORDER', batchID: '4' });
  });

  it('a sell stop fires when the bid falls to its price and fills at the bid', () => {
    const sellStop = given(funded(), quoted(1.1, 1.1002), stopOrder({ units: '-1000', price: '1.09900' }));
    sellStop.when(quote(1.0991, 1.0993)).then();
    sellStop.when(quote(1.0988, 1.099)).then({ id: '4', type: 'ORDER_FILL', price: '1.09880', units: '-1000', reason: 'STOP_ORDER' });
  });

  it('a stop the market gaps through beyond its priceBound is cancelled BOUNDS_VIOLATION', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'STOP', instrument: 'EUR_USD', units: '1000', price: '1.10100', priceBound: '1.10120' });
    expect(createTx(out).priceBound).toBe('1.10120');
    const gapped = given(funded(), quoted(1.1, 1.1002), stopOrder({ units: '1000', price: '1.10100', priceBound: '1.10120' })).when(
      quote(1.1013, 1.1015),
    );
    gapped.then({
      id: '4',
      type: 'ORDER_CANCEL',
      orderID: '3',
      reason: 'BOUNDS_VIOLATION',
      batchID: '4',
      time: gapped.transactions[0]?.time,
    });
    expect(gapped.state.trades.size).toBe(0);
    expect(gapped.state.pendingCount).toBe(0);
  });

  it('a stop that fires within its priceBound fills', () => {
    given(funded(), quoted(1.1, 1.1002), stopOrder({ units: '1000', price: '1.10100', priceBound: '1.10120' }))
      .when(quote(1.101, 1.1012))
      .then({ id: '4', type: 'ORDER_FILL', price: '1.10120' });
  });
});

describe('MARKET_IF_TOUCHED orders', () => {
  it('with its price below the market it fires on the way down', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'MARKET_IF_TOUCHED', units: '1000', price: '1.09900' }))
      .then({ id: '3', type: 'MARKET_IF_TOUCHED_ORDER', price: '1.09900', initialMarketPrice: '1.10020', timeInForce: 'GTC' })
      .when(quote(1.102, 1.1022)) // up: nothing
      .then()
      .when(quote(1.0989, 1.0991))
      .then()
      .when(quote(1.0987, 1.0989))
      .then({ id: '4', type: 'ORDER_FILL', price: '1.09890', reason: 'MARKET_IF_TOUCHED_ORDER' });
  });

  it('with its price above the market it fires on the way up (a buy MIT above acts as a stop)', () => {
    given(funded(), quoted(1.1, 1.1002), marketIfTouchedOrder({ units: '1000', price: '1.10200', initialMarketPrice: '1.10020' }))
      .when(quote(1.098, 1.0982)) // down: nothing
      .then()
      .when(quote(1.1017, 1.1019))
      .then()
      .when(quote(1.1019, 1.1021))
      .then({ id: '4', type: 'ORDER_FILL', price: '1.10210', reason: 'MARKET_IF_TOUCHED_ORDER' });
  });

  it('a sell MIT above the market fires when the bid rises to it', () => {
    given(funded(), quoted(1.1, 1.1002))
      .when(placeOrder({ type: 'MARKET_IF_TOUCHED', units: '-1000', price: '1.10100' }))
      .then({ id: '3', type: 'MARKET_IF_TOUCHED_ORDER', initialMarketPrice: '1.10000' })
      .when(quote(1.1009, 1.1011))
      .then()
      .when(quote(1.1012, 1.1014))
      .then({ id: '4', type: 'ORDER_FILL', price: '1.10120', units: '-1000' });
  });

  it('without a quote it is rejected with INSTRUMENT_PRICE_UNKNOWN', () => {
    const sim = new Sim();
    const out = sim.order({ type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '1000', price: '1.09900' });
    expect(shape(out.transactions)).toEqual(['MARKET_IF_TOUCHED_ORDER_REJECT:INSTRUMENT_PRICE_UNKNOWN']);
    expect(out.reject?.errorCode).toBe('INSTRUMENT_PRICE_UNKNOWN');
    expect(sim.account.state.pendingCount).toBe(0);
  });
});

describe('triggerCondition chooses the watched quote; the fill stays on the default side', () => {
  // Buy LIMIT at 1.10000 from 1.10010 / 1.10030; at 1.09990 / 1.10010 (mid 1.10000) the BID, MID
  // and INVERSE conditions have fired but the ask is worse than the limit: no fill, still pending.
  // At 1.09980 / 1.10000 every condition fills, at the ask, never above the limit.
  it.each(['DEFAULT', 'ASK', 'BID', 'INVERSE', 'MID'] as const)('buy LIMIT, %s: fills only once the ask reaches its price', (condition) => {
    given(funded(), quoted(1.1001, 1.1003))
      .when(placeOrder({ type: 'LIMIT', units: '1000', price: '1.10000', triggerCondition: condition }))
      .then({ id: '3', type: 'LIMIT_ORDER', triggerCondition: condition })
      .when(quote(1.0999, 1.1001))
      .then()
      .when(quote(1.0998, 1.1))
      .then({ id: '4', type: 'ORDER_FILL', orderID: '3', price: '1.10000', reason: 'LIMIT_ORDER' });
  });

  // Sell LIMIT at 1.10050 from 1.10000 / 1.10020; at 1.10040 / 1.10060 (mid 1.10050) the ASK, MID
  // and INVERSE conditions have fired but the bid is below the limit.
  it.each(['DEFAULT', 'BID', 'ASK', 'INVERSE', 'MID'] as const)(
    'sell LIMIT, %s: fills only once the bid reaches its price',
    (condition) => {
      given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '-1000', price: '1.10050', triggerCondition: condition }))
        .when(quote(1.1004, 1.1006))
        .then()
        .when(quote(1.1006, 1.1008))
        .then({ id: '4', type: 'ORDER_FILL', price: '1.10060', units: '-1000' });
    },
  );

  it('a MID-watched stop fires on a mid between grid prices', () => {
    given(funded(), quoted(1.1, 1.1002), stopOrder({ units: '1000', price: '1.10020', triggerCondition: 'MID' }))
      .when(quote(1.1001, 1.1002)) // mid 1.100150
      .then()
      .when(quote(1.1001, 1.1003)) // mid 1.10020
      .then({ id: '4', type: 'ORDER_FILL', price: '1.10030' });
  });
});

describe('several orders crossed by one tick', () => {
  it('fill oldest first, each in its own batch, whatever the watched side', () => {
    const sim = eurUsd();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950' }); // 3, watches the ask
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '2000', price: '1.09950', triggerCondition: 'BID' }); // 4
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '3000', price: '1.09950' }); // 5
    const t = sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.since(5).map((tx) => [tx.id, tx.batchID, tx.type, field(tx, 'orderID'), field(tx, 'units'), tx.time])).toEqual([
      ['6', '6', 'ORDER_FILL', '3', '1000', iso(t)],
      ['7', '7', 'ORDER_FILL', '4', '2000', iso(t)],
      ['8', '8', 'ORDER_FILL', '5', '3000', iso(t)],
    ]);
    expect([...sim.account.state.positions.get('EUR_USD')!.long.tradeIds]).toEqual([6, 7, 8]);
  });

  it('a later order at a better price still waits for the older one', () => {
    given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '1000', price: '1.09950' }), limitOrder({ units: '1000', price: '1.09990' }))
      .when(quote(1.0993, 1.0995))
      .then({ batchID: '5', orderID: '3' }, { batchID: '6', orderID: '4' });
  });
});
