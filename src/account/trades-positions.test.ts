import { describe, expect, it } from 'vitest';
import type { OrderFillTransaction } from '../domain/transactions.js';
import { accountSummaryView, orderView, positionView, tradeSummaryView, tradeView } from './views.js';
import { ACCOUNT_ID, Sim, USER_ID, cancelTx, createTx, fillTx, iso, shape } from './test-helpers.js';

/** Three longs opened at rising asks: 1000 @ 1.10020 (4), 2000 @ 1.10040 (6), 3000 @ 1.10060 (8). */
function threeLongs(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  expect(sim.openTrade('EUR_USD', '1000')).toBe(4);
  sim.quote('EUR_USD', 1.1002, 1.1004);
  expect(sim.openTrade('EUR_USD', '2000')).toBe(6);
  sim.quote('EUR_USD', 1.1004, 1.1006);
  expect(sim.openTrade('EUR_USD', '3000')).toBe(8);
  sim.quote('EUR_USD', 1.101, 1.1012);
  return sim;
}

const reduce = (tradeID: string, units: string, price: string, realizedPL: string): Record<string, unknown> => ({
  tradeID,
  units,
  price,
  realizedPL,
  financing: '0.0000',
  baseFinancing: '0.00000000000000',
  guaranteedExecutionFee: '0.0000',
  quoteGuaranteedExecutionFee: '0',
  halfSpreadCost: expect.any(String),
  // EUR_USD on a USD account: the P/L is already in the account currency, so nothing is converted.
  plHomeConversionCost: '0.00000',
  baseFinancingHomeConversionCost: '0.00000000000000',
  guaranteedExecutionFeeHomeConversionCost: '0',
  homeConversionCost: '0.00000000000000',
});

describe('netting (REDUCE_FIRST)', () => {
  it('the long position is the sum of its trades, averaged by units', () => {
    const sim = threeLongs();
    const state = sim.account.state;
    // (1000 x 1.10020 + 2000 x 1.10040 + 3000 x 1.10060) / 6000 = 1.1004666...
    expect(positionView(state, state.positions.get('EUR_USD')!)).toMatchObject({
      instrument: 'EUR_USD',
      long: { units: '6000', averagePrice: '1.10047', tradeIDs: ['4', '6', '8'], pl: '0.0000', unrealizedPL: '3.2000' },
      short: { units: '0', pl: '0.0000', unrealizedPL: '0.0000' },
      pl: '0.0000',
      unrealizedPL: '3.2000',
    });
    expect(positionView(state, state.positions.get('EUR_USD')!)['short']).not.toHaveProperty('averagePrice');
  });

  it('a sell closes the oldest trades first, then reduces the next (tradesClosed, then tradeReduced)', () => {
    const sim = threeLongs();
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-4500' }));
    expect(fill).toMatchObject({ units: '-4500', price: '1.10100', pl: '2.6000', accountBalance: '100002.6000' });
    expect(fill.tradesClosed).toEqual([reduce('4', '-1000', '1.10100', '0.8000'), reduce('6', '-2000', '1.10100', '1.2000')]);
    expect(fill.tradeReduced).toEqual(reduce('8', '-1500', '1.10100', '0.6000'));
    expect(fill.tradeOpened).toBeUndefined();
    expect(Object.keys(fill).indexOf('tradesClosed')).toBeLessThan(Object.keys(fill).indexOf('tradeReduced'));
    const state = sim.account.state;
    expect(state.trades.get(4)?.state).toBe('CLOSED');
    expect(state.trades.get(6)?.state).toBe('CLOSED');
    expect(tradeSummaryView(state, state.trades.get(8)!)).toMatchObject({
      state: 'OPEN',
      initialUnits: '3000',
      currentUnits: '1500',
      realizedPL: '0.6000',
      averageClosePrice: '1.10100',
      closingTransactionIDs: ['10'],
    });
    expect(positionView(state, state.positions.get('EUR_USD')!)).toMatchObject({
      long: { units: '1500', averagePrice: '1.10060', tradeIDs: ['8'], pl: '2.6000' },
      pl: '2.6000',
    });
    expect(orderView(state, state.orders.get(9)!)).toMatchObject({ tradeClosedIDs: ['4', '6'], tradeReducedID: '8' });
    expect(state.openTradeCount).toBe(1);
  });

  it('a trade reduced at two prices averages its close price by the units each closed', () => {
    const sim = threeLongs();
    fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-4000' })); // closes 4 and 6, reduces 8 by 1000 @ 1.10100
    sim.quote('EUR_USD', 1.1031, 1.1033);
    fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1500' })); // reduces 8 by 1500 @ 1.10310
    const state = sim.account.state;
    // (1000 x 1.10100 + 1500 x 1.10310) / 2500 = 1.10226
    expect(tradeSummaryView(state, state.trades.get(8)!)).toMatchObject({ currentUnits: '500', averageClosePrice: '1.10226' });
    fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-500' })); // closes 8 @ 1.10310
    // (1000 x 1.10100 + 2000 x 1.10310) / 3000 = 1.10240
    expect(tradeView(state, state.trades.get(8)!)).toMatchObject({ state: 'CLOSED', currentUnits: '0', averageClosePrice: '1.10240' });
    expect(tradeView(state, state.trades.get(8)!)['closingTransactionIDs']).toHaveLength(3);
  });

  it('without a reset the resettable P/L is the P/L, on each side, the position and the account', () => {
    const sim = threeLongs();
    fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-4500' })); // +2.6000
    sim.quote('EUR_USD', 1.0995, 1.0997);
    fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000' })); // 1000 of trade 8 at 1.09950: -1.1000
    const state = sim.account.state;
    const position = positionView(state, state.positions.get('EUR_USD')!);
    expect(position).toMatchObject({ long: { units: '500', pl: '1.5000', resettablePL: '1.5000' }, pl: '1.5000', resettablePL: '1.5000' });
    expect(accountSummaryView(state)).toMatchObject({ pl: '1.5000', resettablePL: '1.5000', balance: '100001.5000' });
  });

  it('a sell larger than the long position closes it all and opens a short with the remainder', () => {
    const sim = threeLongs();
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-7000' }));
    expect(fill.tradesClosed?.map((r) => [r.tradeID, r.units])).toEqual([
      ['4', '-1000'],
      ['6', '-2000'],
      ['8', '-3000'],
    ]);
    expect(fill.tradeReduced).toBeUndefined();
    expect(fill.tradeOpened).toMatchObject({ tradeID: '10', units: '-1000', price: '1.10100' });
    expect(fill).toMatchObject({ units: '-7000', pl: '3.2000' });
    const state = sim.account.state;
    expect(positionView(state, state.positions.get('EUR_USD')!)).toMatchObject({
      long: { units: '0', pl: '3.2000' },
      short: { units: '-1000', averagePrice: '1.10100', tradeIDs: ['10'] },
    });
    expect(orderView(state, state.orders.get(9)!)).toMatchObject({ tradeOpenedID: '10', tradeClosedIDs: ['4', '6', '8'] });
  });

  it('REDUCE_ONLY IOC only reduces: the fill is capped at the position and opens nothing', () => {
    const sim = threeLongs();
    const fill = fillTx(
      sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-9000', positionFill: 'REDUCE_ONLY', timeInForce: 'IOC' }),
    );
    expect(fill).toMatchObject({ units: '-6000', requestedUnits: '-9000' });
    expect(fill.tradesClosed).toHaveLength(3);
    expect(fill.tradeOpened).toBeUndefined();
    expect(sim.account.state.openTradeCount).toBe(0);
  });

  it('REDUCE_ONLY FOK (the MARKET default) that cannot reduce all its units fills nothing (POSITION_CLOSEOUT_FAILED)', () => {
    const sim = threeLongs();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-9000', positionFill: 'REDUCE_ONLY' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:POSITION_CLOSEOUT_FAILED']);
    expect(sim.account.state.openTradeCount).toBe(3);
  });

  it('REDUCE_ONLY with nothing to reduce is cancelled (POSITION_CLOSEOUT_FAILED)', () => {
    const sim = threeLongs();
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', positionFill: 'REDUCE_ONLY' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:POSITION_CLOSEOUT_FAILED']);
    expect(sim.account.state.openTradeCount).toBe(3);
  });

  it('a buy on a long position adds a trade; the reduction order stays oldest first', () => {
    const sim = threeLongs();
    sim.openTrade('EUR_USD', '500');
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-6200' }));
    expect(fill.tradesClosed?.map((r) => r.tradeID)).toEqual(['4', '6', '8']);
    expect(fill.tradeReduced).toMatchObject({ tradeID: '10', units: '-200' });
  });
});

describe('CLOSE_TRADE', () => {
  it('ALL: a REDUCE_ONLY FOK market order with tradeClose, filled MARKET_ORDER_TRADE_CLOSE', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '6' });
    const t = iso(sim.now);
    expect(createTx(out)).toEqual({
      id: '9',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '9',
      time: t,
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '-2000',
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'TRADE_CLOSE',
      tradeClose: { tradeID: '6', units: 'ALL' },
    });
    const fill = fillTx(out);
    expect(fill).toMatchObject({
      id: '10',
      batchID: '9',
      orderID: '9',
      units: '-2000',
      price: '1.10100',
      reason: 'MARKET_ORDER_TRADE_CLOSE',
      pl: '1.2000',
    });
    expect(fill.tradesClosed).toEqual([reduce('6', '-2000', '1.10100', '1.2000')]);
    const state = sim.account.state;
    expect(tradeView(state, state.trades.get(6)!)).toMatchObject({
      state: 'CLOSED',
      currentUnits: '0',
      closeTime: t,
      averageClosePrice: '1.10100',
    });
    expect(tradeView(state, state.trades.get(6)!)).not.toHaveProperty('unrealizedPL');
    expect(positionView(state, state.positions.get('EUR_USD')!)['long']).toMatchObject({ units: '4000', tradeIDs: ['4', '8'] });
  });

  it('partial units reduce the trade', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '8', units: '1000' });
    expect(createTx(out)).toMatchObject({ units: '-1000', tradeClose: { tradeID: '8', units: '1000' } });
    expect(fillTx(out).tradeReduced).toEqual(reduce('8', '-1000', '1.10100', '0.4000'));
    expect(sim.account.state.trades.get(8)?.currentUnits.toString()).toBe('2000');
  });

  it('a short trade is closed by a buy at the ask', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '-1000');
    sim.quote('EUR_USD', 1.099, 1.0992);
    const fill = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units: 'ALL' }));
    expect(fill).toMatchObject({ units: '1000', price: '1.09920', pl: '0.8000', accountBalance: '100000.8000' });
  });

  it('units above the trade size: CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units: '1001' });
    expect(out.transactions).toEqual([
      {
        id: '9',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '9',
        time: iso(sim.now),
        type: 'MARKET_ORDER_REJECT',
        instrument: 'EUR_USD',
        timeInForce: 'FOK',
        positionFill: 'REDUCE_ONLY',
        reason: 'TRADE_CLOSE',
        tradeClose: { tradeID: '4', units: '1001' },
        rejectReason: 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE',
      },
    ]);
    expect(out.reject?.errorCode).toBe('CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE');
    expect(sim.account.state.trades.get(4)?.currentUnits.toString()).toBe('1000');
  });

  it.each(['0', '-5', 'abc'])('units %j: UNITS_INVALID', (units) => {
    const sim = threeLongs();
    expect(shape(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units }).transactions)).toEqual([
      'MARKET_ORDER_REJECT:UNITS_INVALID',
    ]);
  });

  it('an unknown or closed trade: TRADE_DOESNT_EXIST, notFound', () => {
    const sim = threeLongs();
    sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' });
    for (const spec of ['4', '5', '@nope']) {
      const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: spec });
      expect(shape(out.transactions)).toEqual(['MARKET_ORDER_REJECT:TRADE_DOESNT_EXIST']);
      expect(out.reject?.notFound).toBe(true);
    }
  });

  it('a trade is found by its client trade ID, which is echoed in tradeClose and the reduction', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000', { tradeClientExtensions: { id: 'mine' } });
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '@mine' });
    expect(createTx(out).tradeClose).toEqual({ tradeID: '4', clientTradeID: 'mine', units: 'ALL' });
    expect(fillTx(out).tradesClosed?.[0]).toMatchObject({ tradeID: '4', clientTradeID: 'mine' });
    // Closed, it is still found by its client trade ID, and no later trade may take the ID.
    expect(sim.account.state.clientTradeIds.get('mine')).toBe(4);
  });
});

describe('CLOSE_POSITION', () => {
  it('long ALL closes every long trade oldest first (MARKET_ORDER_POSITION_CLOSEOUT)', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL' });
    expect(Object.keys(out.response)).toEqual(['longOrderCreateTransaction', 'longOrderFillTransaction']);
    expect(out.response['longOrderCreateTransaction']).toEqual({
      id: '9',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '9',
      time: iso(sim.now),
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '-6000',
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'POSITION_CLOSEOUT',
      longPositionCloseout: { instrument: 'EUR_USD', units: 'ALL' },
    });
    const fill = out.response['longOrderFillTransaction'] as OrderFillTransaction;
    expect(fill).toMatchObject({
      id: '10',
      batchID: '9',
      units: '-6000',
      reason: 'MARKET_ORDER_POSITION_CLOSEOUT',
      pl: '3.2000',
      accountBalance: '100003.2000',
    });
    expect(fill.tradesClosed?.map((r) => [r.tradeID, r.units, r.realizedPL])).toEqual([
      ['4', '-1000', '0.8000'],
      ['6', '-2000', '1.2000'],
      ['8', '-3000', '1.2000'],
    ]);
    const state = sim.account.state;
    expect(positionView(state, state.positions.get('EUR_USD')!)).toMatchObject({
      long: { units: '0', pl: '3.2000' },
      pl: '3.2000',
      unrealizedPL: '0.0000',
    });
    expect(state.openTradeCount).toBe(0);
  });

  it('partial long units close the oldest trades and reduce the next', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: '1500' });
    expect(out.response['longOrderCreateTransaction']).toMatchObject({
      units: '-1500',
      longPositionCloseout: { instrument: 'EUR_USD', units: '1500' },
    });
    const fill = out.response['longOrderFillTransaction'] as OrderFillTransaction;
    expect(fill.tradesClosed?.map((r) => r.tradeID)).toEqual(['4']);
    expect(fill.tradeReduced).toMatchObject({ tradeID: '6', units: '-500' });
  });

  it('a side that does not exist: CLOSEOUT_POSITION_DOESNT_EXIST', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', shortUnits: 'ALL' });
    expect(Object.keys(out.response)).toEqual(['shortOrderRejectTransaction']);
    expect(out.response['shortOrderRejectTransaction']).toMatchObject({
      type: 'MARKET_ORDER_REJECT',
      reason: 'POSITION_CLOSEOUT',
      shortPositionCloseout: { instrument: 'EUR_USD', units: 'ALL' },
      rejectReason: 'CLOSEOUT_POSITION_DOESNT_EXIST',
    });
    expect(out.reject?.errorCode).toBe('CLOSEOUT_POSITION_DOESNT_EXIST');
    const never = sim.exec({ type: 'CLOSE_POSITION', instrument: 'GBP_USD', longUnits: 'ALL' });
    expect(shape(never.transactions)).toEqual(['MARKET_ORDER_REJECT:CLOSEOUT_POSITION_DOESNT_EXIST']);
  });

  it('an unknown instrument: INSTRUMENT_UNKNOWN', () => {
    const sim = threeLongs();
    expect(shape(sim.exec({ type: 'CLOSE_POSITION', instrument: 'XYZ_ABC', longUnits: 'ALL' }).transactions)).toEqual([
      'MARKET_ORDER_REJECT:INSTRUMENT_UNKNOWN',
    ]);
  });
});

describe('SET_TRADE_ORDERS', () => {
  it('creates a take profit and a stop loss for the trade', () => {
    const sim = threeLongs();
    const out = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      takeProfit: { price: '1.10500' },
      stopLoss: { distance: '0.00100' },
    });
    expect(Object.keys(out.response)).toEqual(['takeProfitOrderTransaction', 'stopLossOrderTransaction']);
    expect(out.response['takeProfitOrderTransaction']).toEqual({
      id: '9',
      accountID: ACCOUNT_ID,
      userID: USER_ID,
      batchID: '9',
      time: iso(sim.now),
      type: 'TAKE_PROFIT_ORDER',
      tradeID: '4',
      price: '1.10500',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: 'CLIENT_ORDER',
    });
    expect(out.response['stopLossOrderTransaction']).toMatchObject({
      id: '10',
      batchID: '9',
      type: 'STOP_LOSS_ORDER',
      tradeID: '4',
      price: '1.10020', // the current ask 1.10120 less the distance (StopLossOrderRequest.distance), not the open price
      distance: '0.00100',
    });
    const state = sim.account.state;
    expect(tradeSummaryView(state, state.trades.get(4)!)).toMatchObject({ takeProfitOrderID: '9', stopLossOrderID: '10' });
    expect(tradeView(state, state.trades.get(4)!)['takeProfitOrder']).toMatchObject({
      id: '9',
      type: 'TAKE_PROFIT',
      price: '1.10500',
      state: 'PENDING',
    });
  });

  it('replaces an existing one: ORDER_CANCEL CLIENT_REQUEST_REPLACED then the REPLACEMENT', () => {
    const sim = threeLongs();
    sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10500' } }); // 9
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10600' } });
    expect(Object.keys(out.response)).toEqual(['takeProfitOrderCancelTransaction', 'takeProfitOrderTransaction']);
    expect(out.response['takeProfitOrderCancelTransaction']).toMatchObject({
      id: '10',
      batchID: '10',
      type: 'ORDER_CANCEL',
      orderID: '9',
      reason: 'CLIENT_REQUEST_REPLACED',
      replacedByOrderID: '11',
    });
    expect(out.response['takeProfitOrderTransaction']).toMatchObject({
      id: '11',
      batchID: '10',
      type: 'TAKE_PROFIT_ORDER',
      tradeID: '4',
      price: '1.10600',
      reason: 'REPLACEMENT',
      replacesOrderID: '9',
      cancellingTransactionID: '10',
    });
    const state = sim.account.state;
    expect(state.trades.get(4)?.takeProfitOrderID).toBe(11);
    expect(orderView(state, state.orders.get(9)!)).toMatchObject({
      state: 'CANCELLED',
      replacedByOrderID: '11',
      cancellingTransactionID: '10',
    });
    expect(orderView(state, state.orders.get(11)!)).toMatchObject({ state: 'PENDING', replacesOrderID: '9' });
    expect(state.pendingCount).toBe(1);
  });

  it('an invalid replacement leaves the existing dependent order in place', () => {
    const sim = threeLongs();
    sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10500' } }); // 9
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.105001' } });
    expect(shape(out.transactions)).toEqual(['TAKE_PROFIT_ORDER_REJECT:PRICE_PRECISION_EXCEEDED']);
    expect(out.transactions[0]).toMatchObject({ reason: 'REPLACEMENT', intendedReplacesOrderID: '9' });
    expect(Object.keys(out.response)).toEqual(['takeProfitOrderRejectTransaction']);
    expect(sim.account.state.orders.get(9)?.state).toBe('PENDING');
    expect(sim.account.state.trades.get(4)?.takeProfitOrderID).toBe(9);
  });

  it('null cancels the dependent order; an omitted kind is left alone', () => {
    const sim = threeLongs();
    sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10500' }, stopLoss: { price: '1.09000' } }); // 9, 10
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', stopLoss: null });
    expect(Object.keys(out.response)).toEqual(['stopLossOrderCancelTransaction']);
    expect(out.response['stopLossOrderCancelTransaction']).toMatchObject({
      id: '11',
      type: 'ORDER_CANCEL',
      orderID: '10',
      reason: 'CLIENT_REQUEST',
    });
    const trade = sim.account.state.trades.get(4)!;
    expect(trade.stopLossOrderID).toBeUndefined();
    expect(trade.takeProfitOrderID).toBe(9);
    const none = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', stopLoss: null });
    expect(none.transactions).toEqual([]);
  });

  it('a trailing stop loss by distance, and the trade found by client ID', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000', { tradeClientExtensions: { id: 'mine' } });
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '@mine', trailingStopLoss: { distance: '0.00500' } });
    expect(out.response['trailingStopLossOrderTransaction']).toMatchObject({
      type: 'TRAILING_STOP_LOSS_ORDER',
      tradeID: '4',
      clientTradeID: 'mine',
      distance: '0.00500',
    });
  });

  it('an unknown trade: TRADE_DOESNT_EXIST', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '99', takeProfit: { price: '1.10500' } });
    expect(shape(out.transactions)).toEqual(['TAKE_PROFIT_ORDER_REJECT:TRADE_DOESNT_EXIST']);
    expect(out.reject?.notFound).toBe(true);
  });

  it('an invalid kind is rejected under its own key', () => {
    const sim = threeLongs();
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', stopLoss: { price: '1.0900001' } });
    expect(Object.keys(out.response)).toEqual(['stopLossOrderRejectTransaction']);
    expect(out.reject?.errorCode).toBe('PRICE_PRECISION_EXCEEDED');
  });

  it('a refused kind leaves the others as they were: the request changes all of them or none', () => {
    const sim = threeLongs();
    sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10500' }, stopLoss: { price: '1.09000' } }); // 9, 10
    const before = sim.account.state.lastTransactionID;
    // The take profit alone would be replaced and the trailing stop made; the stop loss is refused.
    const out = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      takeProfit: { price: '1.10600' },
      stopLoss: { price: '1.0900001' },
      trailingStopLoss: { distance: '0.00500' },
    });
    expect(shape(out.transactions)).toEqual(['STOP_LOSS_ORDER_REJECT:PRICE_PRECISION_EXCEEDED']);
    expect(out.transactions[0]).toMatchObject({ id: String(before + 1), reason: 'REPLACEMENT', intendedReplacesOrderID: '10' });
    expect(Object.keys(out.response)).toEqual(['stopLossOrderRejectTransaction']);
    expect(out.reject?.errorCode).toBe('PRICE_PRECISION_EXCEEDED');
    const state = sim.account.state;
    expect(state.trades.get(4)).toMatchObject({ takeProfitOrderID: 9, stopLossOrderID: 10 });
    expect(state.trades.get(4)?.trailingStopLossOrderID).toBeUndefined();
    expect([state.orders.get(9)?.state, state.orders.get(10)?.state]).toEqual(['PENDING', 'PENDING']);
    expect(state.pendingCount).toBe(2);
  });

  it('a cancel in a refused request is not made either', () => {
    const sim = threeLongs();
    sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: { price: '1.10500' } }); // 9
    const out = sim.exec({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '4', takeProfit: null, trailingStopLoss: { distance: '-1' } });
    expect(shape(out.transactions)).toEqual([`TRAILING_STOP_LOSS_ORDER_REJECT:${out.reject?.errorCode}`]);
    expect(sim.account.state.orders.get(9)?.state).toBe('PENDING');
    expect(sim.account.state.trades.get(4)?.takeProfitOrderID).toBe(9);
  });

  it('a kind is checked after the kinds before it: two new orders cannot share a client order ID', () => {
    const sim = threeLongs();
    const out = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      takeProfit: { price: '1.10500', clientExtensions: { id: 'same' } },
      stopLoss: { price: '1.09000', clientExtensions: { id: 'same' } },
    });
    expect(shape(out.transactions)).toEqual(['STOP_LOSS_ORDER_REJECT:CLIENT_ORDER_ID_ALREADY_EXISTS']);
    expect(Object.keys(out.response)).toEqual(['stopLossOrderRejectTransaction']);
    expect(sim.account.state.trades.get(4)?.takeProfitOrderID).toBeUndefined();
    expect(sim.account.state.clientOrderIds.has('same')).toBe(false);
    // Each alone is made, as the rule for a single order has it.
    const tp = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      takeProfit: { price: '1.10500', clientExtensions: { id: 'same' } },
    });
    expect(tp.reject).toBeUndefined();
    const sl = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      stopLoss: { price: '1.09000', clientExtensions: { id: 'same' } },
    });
    expect(shape(sl.transactions)).toEqual(['STOP_LOSS_ORDER_REJECT:CLIENT_ORDER_ID_ALREADY_EXISTS']);
  });

  it('a take profit already in the money fills at once and closes the trade', () => {
    const sim = threeLongs();
    const out = sim.exec({
      type: 'SET_TRADE_ORDERS',
      tradeSpecifier: '4',
      takeProfit: { price: '1.10050' },
      stopLoss: { price: '1.09000' },
    });
    expect(Object.keys(out.response)).toEqual(['takeProfitOrderTransaction', 'takeProfitOrderFillTransaction']);
    expect(out.response['takeProfitOrderFillTransaction']).toMatchObject({ price: '1.10100', reason: 'TAKE_PROFIT_ORDER', pl: '0.8000' });
    expect(sim.account.state.trades.get(4)?.state).toBe('CLOSED');
  });
});

describe('fills on JPY pairs', () => {
  it('print prices with three decimals and quotePL in JPY', () => {
    const sim = new Sim();
    sim.quote('USD_JPY', 150, 150.02);
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '1000' }));
    expect(fill).toMatchObject({ price: '150.020', quotePL: '0.000' });
    expect(fill.fullPrice.closeoutBid).toBe('150.000');
    expect(cancelTx(sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '1000', priceBound: '150.010' })).reason).toBe(
      'BOUNDS_VIOLATION',
    );
  });
});
