import { balanceOf } from './state.js';
import { describe, expect, it } from 'vitest';
import type { OrderFillTransaction } from '../domain/transactions.js';
import { accountChangesStateView, orderView, tradeSummaryView, tradeView } from './views.js';
import { Sim, cancelTx, createTx, field, fillTx, iso, rejectTx, shape } from './test-helpers.js';
import { funded, given, orderCreated, placeOrder, quote, quoted, tradeOpened, type Then } from './testing/given.js';

/** A long 10000 EUR_USD trade opened at the ask 1.10020 (bid 1.10000): trade 4, next ID 5. */
const LONG = [funded(), quoted(1.1, 1.1002), tradeOpened('10000', '1.10020')];
/** A short 10000 EUR_USD trade opened at the bid 1.10000 (ask 1.10020): trade 4, next ID 5. */
const SHORT = [funded(), quoted(1.1, 1.1002), tradeOpened('-10000', '1.10000')];

/** Long 10000 EUR_USD opened at the ask 1.10020 (bid 1.10000): trade 4, next ID 5. */
function longTrade(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  expect(sim.openTrade('EUR_USD', '10000')).toBe(4);
  return sim;
}

/** Short 10000 EUR_USD opened at the bid 1.10000 (ask 1.10020): trade 4, next ID 5. */
function shortTrade(): Sim {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  expect(sim.openTrade('EUR_USD', '-10000')).toBe(4);
  return sim;
}

describe('standalone TAKE_PROFIT / STOP_LOSS on a long trade watch the bid', () => {
  it('TAKE_PROFIT fills when the bid reaches its price, closing the trade', () => {
    const sim = longTrade();
    const out = sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10200' });
    expect(createTx(out)).toEqual({
      id: '5',
      accountID: sim.account.id,
      userID: 1234567,
      batchID: '5',
      time: iso(sim.now),
      type: 'TAKE_PROFIT_ORDER',
      tradeID: '4',
      price: '1.10200',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: 'CLIENT_ORDER',
    });
    expect(sim.account.state.trades.get(4)?.takeProfitOrderID).toBe(5);
    sim.quote('EUR_USD', 1.1019, 1.1021); // the ask is past the price, the bid is not
    expect(sim.lastId).toBe(5);
    const t = sim.quote('EUR_USD', 1.102, 1.1022);
    const fill = sim.tx(6) as OrderFillTransaction;
    expect(fill).toMatchObject({
      type: 'ORDER_FILL',
      orderID: '5',
      batchID: '6',
      time: iso(t),
      units: '-10000',
      requestedUnits: '-10000',
      price: '1.10200',
      reason: 'TAKE_PROFIT_ORDER',
      pl: '18.0000',
      quotePL: '18.00000',
      accountBalance: '100018.0000',
    });
    expect(fill.tradesClosed).toEqual([
      expect.objectContaining({ tradeID: '4', units: '-10000', price: '1.10200', realizedPL: '18.0000' }),
    ]);
    expect(fill.tradeOpened).toBeUndefined();
    const trade = sim.account.state.trades.get(4)!;
    expect(trade.state).toBe('CLOSED');
    expect(tradeView(sim.account.state, trade)).toMatchObject({
      state: 'CLOSED',
      currentUnits: '0',
      realizedPL: '18.0000',
      averageClosePrice: '1.10200',
      closeTime: iso(t),
      closingTransactionIDs: ['6'],
    });
    expect(balanceOf(sim.account.state).toString()).toBe('100018');
  });

  it('STOP_LOSS fills when the bid falls to its price, at the bid of that tick (gaps slip)', () => {
    const stopLoss = given(LONG, orderCreated('STOP_LOSS_ORDER', { tradeID: '4', price: '1.09800' }));
    stopLoss.when(quote(1.0981, 1.0983)).then();
    stopLoss.when(quote(1.0975, 1.0977)).then({
      id: '6',
      type: 'ORDER_FILL',
      orderID: '5',
      price: '1.09750',
      reason: 'STOP_LOSS_ORDER',
      pl: '-27.0000',
      accountBalance: '99973.0000',
    });
  });

  it('STOP_LOSS fires with the bid at its price even though the ask is above it', () => {
    given(LONG, orderCreated('STOP_LOSS_ORDER', { tradeID: '4', price: '1.09800' }))
      .when(quote(1.098, 1.0982))
      .then({ id: '6', type: 'ORDER_FILL', price: '1.09800', pl: '-22.0000' });
  });

  it('STOP_LOSS by distance sits that far below the open price, price echoed before distance', () => {
    const sim = longTrade();
    const out = sim.order({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00100' });
    const tx = createTx(out);
    expect(tx).toMatchObject({ type: 'STOP_LOSS_ORDER', tradeID: '4', price: '1.09920', distance: '0.00100' });
    expect(Object.keys(tx).indexOf('price')).toBe(Object.keys(tx).indexOf('distance') - 1);
    sim.quote('EUR_USD', 1.0992, 1.0994);
    expect(sim.tx(6)).toMatchObject({ type: 'ORDER_FILL', price: '1.09920', reason: 'STOP_LOSS_ORDER' });
  });

  it('a client trade ID identifies the trade and is echoed', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000', { tradeClientExtensions: { id: 'my-trade' } });
    const out = sim.order({ type: 'TAKE_PROFIT', clientTradeID: 'my-trade', price: '1.10500' });
    expect(createTx(out)).toMatchObject({ tradeID: '4', clientTradeID: 'my-trade' });
  });
});

describe('standalone TAKE_PROFIT / STOP_LOSS on a short trade watch the ask', () => {
  it('TAKE_PROFIT fills when the ask falls to its price', () => {
    const sim = shortTrade();
    sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.09800' });
    sim.quote('EUR_USD', 1.0979, 1.0981); // the bid is past the price, the ask is not
    expect(sim.lastId).toBe(5);
    sim.quote('EUR_USD', 1.0978, 1.098);
    expect(sim.tx(6)).toMatchObject({ type: 'ORDER_FILL', units: '10000', price: '1.09800', reason: 'TAKE_PROFIT_ORDER', pl: '20.0000' });
  });

  it('STOP_LOSS fills when the ask rises to its price', () => {
    const sim = shortTrade();
    sim.order({ type: 'STOP_LOSS', tradeID: '4', price: '1.10200' });
    sim.quote('EUR_USD', 1.1017, 1.1019);
    expect(sim.lastId).toBe(5);
    sim.quote('EUR_USD', 1.1018, 1.102);
    expect(sim.tx(6)).toMatchObject({
      type: 'ORDER_FILL',
      price: '1.10200',
      reason: 'STOP_LOSS_ORDER',
      pl: '-20.0000',
      accountBalance: '99980.0000',
    });
  });

  it('STOP_LOSS by distance sits above the current bid of a short (here also its open price)', () => {
    const sim = shortTrade();
    expect(createTx(sim.order({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00150' })).price).toBe('1.10150');
  });

  it('a BID-triggered STOP_LOSS of a short watches the bid but still fills at the ask', () => {
    const sim = shortTrade();
    sim.order({ type: 'STOP_LOSS', tradeID: '4', price: '1.10200', triggerCondition: 'BID' });
    sim.quote('EUR_USD', 1.1019, 1.1021);
    expect(sim.lastId).toBe(5);
    sim.quote('EUR_USD', 1.102, 1.1022);
    expect(sim.tx(6)).toMatchObject({ type: 'ORDER_FILL', price: '1.10220' });
  });
});

describe('on-fill dependent orders', () => {
  it('are created after the fill in the same batch, reason ON_FILL, pointing at the fill', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const out = sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '10000',
      takeProfitOnFill: { price: '1.10500', clientExtensions: { id: 'tp-1' } },
      stopLossOnFill: { distance: '0.00200' },
      trailingStopLossOnFill: { distance: '0.00300' },
    });
    const t = iso(sim.now);
    expect(createTx(out)).toMatchObject({
      takeProfitOnFill: { price: '1.10500', timeInForce: 'GTC', clientExtensions: { id: 'tp-1' } },
      stopLossOnFill: { distance: '0.00200', timeInForce: 'GTC' },
      trailingStopLossOnFill: { distance: '0.00300', timeInForce: 'GTC' },
    });
    expect(out.transactions.map((tx) => [tx.id, tx.batchID, tx.type, tx.time])).toEqual([
      ['3', '3', 'MARKET_ORDER', t],
      ['4', '3', 'ORDER_FILL', t],
      ['5', '3', 'TAKE_PROFIT_ORDER', t],
      ['6', '3', 'STOP_LOSS_ORDER', t],
      ['7', '3', 'TRAILING_STOP_LOSS_ORDER', t],
    ]);
    const header = { accountID: sim.account.id, userID: 1234567, batchID: '3', time: t };
    expect(out.transactions[2]).toEqual({
      id: '5',
      ...header,
      type: 'TAKE_PROFIT_ORDER',
      tradeID: '4',
      price: '1.10500',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: 'ON_FILL',
      clientExtensions: { id: 'tp-1' },
      orderFillTransactionID: '4',
    });
    expect(out.transactions[3]).toEqual({
      id: '6',
      ...header,
      type: 'STOP_LOSS_ORDER',
      tradeID: '4',
      price: '1.09820',
      distance: '0.00200',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: 'ON_FILL',
      orderFillTransactionID: '4',
    });
    expect(out.transactions[4]).toEqual({
      id: '7',
      ...header,
      type: 'TRAILING_STOP_LOSS_ORDER',
      tradeID: '4',
      distance: '0.00300',
      timeInForce: 'GTC',
      triggerCondition: 'DEFAULT',
      reason: 'ON_FILL',
      orderFillTransactionID: '4',
    });
    const state = sim.account.state;
    expect(tradeSummaryView(state, state.trades.get(4)!)).toMatchObject({
      takeProfitOrderID: '5',
      stopLossOrderID: '6',
      trailingStopLossOrderID: '7',
    });
    // On fill the distance is measured from the trade's fill price (the ask, 1.10020), not the bid.
    expect(orderView(state, state.orders.get(7)!)).toMatchObject({
      type: 'TRAILING_STOP_LOSS',
      trailingStopValue: '1.09720',
      state: 'PENDING',
    });
    expect(state.clientOrderIds.get('tp-1')).toBe(5);
    expect(state.pendingCount).toBe(3);
  });

  it('a stop loss on fill by price keeps the price and has no distance', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', stopLossOnFill: { price: '1.10500' } });
    expect(out.transactions[2]).toMatchObject({ type: 'STOP_LOSS_ORDER', tradeID: '4', price: '1.10500', reason: 'ON_FILL' });
    expect(field(out.transactions[2], 'distance')).toBeUndefined();
  });

  it('a stop loss on fill by distance of a short sits above the fill price', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', stopLossOnFill: { distance: '0.00250' } });
    expect(out.transactions[2]).toMatchObject({ type: 'STOP_LOSS_ORDER', price: '1.10250', distance: '0.00250' });
  });

  it('when the take profit fills, the stop loss and trailing stop are cancelled LINKED_TRADE_CLOSED in its batch', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '10000',
      takeProfitOnFill: { price: '1.10500' },
      stopLossOnFill: { distance: '0.00200' },
      trailingStopLossOnFill: { distance: '0.00300' },
    });
    const t = sim.quote('EUR_USD', 1.105, 1.1052);
    expect(sim.since(7).map((tx) => [tx.id, tx.batchID, tx.type, field(tx, 'orderID'), field(tx, 'reason'), tx.time])).toEqual([
      ['8', '8', 'ORDER_FILL', '5', 'TAKE_PROFIT_ORDER', iso(t)],
      ['9', '8', 'ORDER_CANCEL', '6', 'LINKED_TRADE_CLOSED', iso(t)],
      ['10', '8', 'ORDER_CANCEL', '7', 'LINKED_TRADE_CLOSED', iso(t)],
    ]);
    expect(sim.tx(8)).toMatchObject({ price: '1.10500', pl: '48.0000', accountBalance: '100048.0000' });
    expect(sim.account.state.pendingCount).toBe(0);
    sim.quote('EUR_USD', 1.09, 1.0902);
    expect(sim.lastId).toBe(10);
  });

  it('closing the trade by hand also cancels its dependent orders in the same batch', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '10000',
      takeProfitOnFill: { price: '1.10500' },
      stopLossOnFill: { price: '1.09500' },
    });
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' });
    expect(shape(out.transactions)).toEqual([
      'MARKET_ORDER:TRADE_CLOSE',
      'ORDER_FILL:MARKET_ORDER_TRADE_CLOSE',
      'ORDER_CANCEL:LINKED_TRADE_CLOSED',
      'ORDER_CANCEL:LINKED_TRADE_CLOSED',
    ]);
    expect(out.transactions.map((tx) => field(tx, 'orderID'))).toEqual([undefined, '7', '5', '6']);
    expect(out.transactions.every((tx) => tx.batchID === '7')).toBe(true);
  });

  it('a partial close keeps the dependent orders', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '10000', takeProfitOnFill: { price: '1.10500' } });
    const out = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units: '4000' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:TRADE_CLOSE', 'ORDER_FILL:MARKET_ORDER_TRADE_CLOSE']);
    sim.quote('EUR_USD', 1.105, 1.1052);
    expect(sim.tx(8)).toMatchObject({ type: 'ORDER_FILL', orderID: '5', units: '-6000', pl: '28.8000' });
  });

  it('a pending entry order creates its on-fill orders in the batch of the tick that fills it', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', stopLossOnFill: { distance: '0.00100' } });
    const t = sim.quote('EUR_USD', 1.0993, 1.0995);
    expect(sim.since(3).map((tx) => [tx.id, tx.batchID, tx.type, tx.time])).toEqual([
      ['4', '4', 'ORDER_FILL', iso(t)],
      ['5', '4', 'STOP_LOSS_ORDER', iso(t)],
    ]);
    expect(sim.tx(5)).toMatchObject({ tradeID: '4', price: '1.09850', reason: 'ON_FILL', orderFillTransactionID: '4' });
  });

  it('only a fill that opens a trade creates on-fill orders', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '1000');
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', takeProfitOnFill: { price: '1.09000' } });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_FILL:MARKET_ORDER']);
  });

  it('TAKE_PROFIT_ON_FILL_LOSS: a take profit that would trigger at once cancels the whole entry', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.09900' } });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:TAKE_PROFIT_ON_FILL_LOSS']);
    expect(cancelTx(out)).toMatchObject({ orderID: '3', batchID: '3' });
    expect(out.reject).toBeUndefined();
    expect(sim.account.state.trades.size).toBe(0);
    expect(sim.account.state.pendingCount).toBe(0);
  });

  it('STOP_LOSS_ON_FILL_LOSS: by price or by a distance inside the spread', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const byPrice = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', stopLossOnFill: { price: '1.10010' } });
    expect(shape(byPrice.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:STOP_LOSS_ON_FILL_LOSS']);
    // 1.10020 - 0.00010 = 1.10010, at or above the bid 1.10000
    const byDistance = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', stopLossOnFill: { distance: '0.00010' } });
    expect(cancelTx(byDistance).reason).toBe('STOP_LOSS_ON_FILL_LOSS');
    // 1.10020 - 0.00021 = 1.09999, below the bid: fine
    const ok = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', stopLossOnFill: { distance: '0.00021' } });
    expect(ok.transactions[2]).toMatchObject({ type: 'STOP_LOSS_ORDER', price: '1.09999' });
    expect(sim.account.state.trades.size).toBe(1);
  });

  it('on-fill prices exactly at the closing quote count as crossing; one tick away does not', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    // long: TP and SL sell at the bid 1.10000
    expect(
      cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.10000' } })).reason,
    ).toBe('TAKE_PROFIT_ON_FILL_LOSS');
    expect(cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', stopLossOnFill: { price: '1.10000' } })).reason).toBe(
      'STOP_LOSS_ON_FILL_LOSS',
    );
    // short: TP and SL buy at the ask 1.10020
    expect(
      cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', takeProfitOnFill: { price: '1.10020' } })).reason,
    ).toBe('TAKE_PROFIT_ON_FILL_LOSS');
    expect(
      cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000', stopLossOnFill: { price: '1.10020' } })).reason,
    ).toBe('STOP_LOSS_ON_FILL_LOSS');
    expect(sim.account.state.trades.size).toBe(0);
    const long = sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '1000',
      takeProfitOnFill: { price: '1.10001' },
      stopLossOnFill: { price: '1.09999' },
    });
    expect(shape(long.transactions)).toEqual([
      'MARKET_ORDER:CLIENT_ORDER',
      'ORDER_FILL:MARKET_ORDER',
      'TAKE_PROFIT_ORDER:ON_FILL',
      'STOP_LOSS_ORDER:ON_FILL',
    ]);
    const other = new Sim();
    other.quote('EUR_USD', 1.1, 1.1002);
    const short = other.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '-1000',
      takeProfitOnFill: { price: '1.10019' },
      stopLossOnFill: { price: '1.10021' },
    });
    expect(shape(short.transactions)).toEqual([
      'MARKET_ORDER:CLIENT_ORDER',
      'ORDER_FILL:MARKET_ORDER',
      'TAKE_PROFIT_ORDER:ON_FILL',
      'STOP_LOSS_ORDER:ON_FILL',
    ]);
  });

  it('a triggered LIMIT whose take profit would fill at once is cancelled at trigger time', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '-1000', price: '1.10100', takeProfitOnFill: { price: '1.10250' } });
    sim.quote('EUR_USD', 1.1009, 1.1011); // not yet: bid below the limit
    expect(sim.lastId).toBe(3);
    sim.quote('EUR_USD', 1.102, 1.1022);
    expect(shape(sim.since(3))).toEqual(['ORDER_CANCEL:TAKE_PROFIT_ON_FILL_LOSS']);
  });

  it('on-fill orders with a client order ID already in use cancel the entry', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09', clientExtensions: { id: 'x' } });
    const out = sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '1000',
      takeProfitOnFill: { price: '1.11', clientExtensions: { id: 'x' } },
    });
    expect(cancelTx(out).reason).toBe('TAKE_PROFIT_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS');
  });
});

describe('TRAILING_STOP_LOSS', () => {
  /** The trailing stop's level (order 5) as GET order shows it. */
  const level = (t: Then): unknown => orderView(t.state, t.state.orders.get(5)!)['trailingStopValue'];

  it('ratchets up only on a long trade and fills when the bid falls to its value', () => {
    const placed = given(LONG)
      .when(placeOrder({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00300' }))
      .then({ id: '5', type: 'TRAILING_STOP_LOSS_ORDER', tradeID: '4', distance: '0.00300', timeInForce: 'GTC', reason: 'CLIENT_ORDER' });
    expect(level(placed)).toBe('1.09700');
    expect(level(placed.when(quote(1.101, 1.1012)).then())).toBe('1.09800');
    expect(level(placed.when(quote(1.1005, 1.1007)).then())).toBe('1.09800');
    expect(level(placed.when(quote(1.0981, 1.0983)).then())).toBe('1.09800');
    expect(accountChangesStateView(placed.state)['orders']).toEqual([
      { id: '5', trailingStopValue: '1.09800', triggerDistance: '0.00010', isTriggerDistanceExact: true },
    ]);
    const fired = placed.when(quote(1.098, 1.0982));
    fired.then({
      id: '6',
      type: 'ORDER_FILL',
      orderID: '5',
      batchID: '6',
      time: fired.transactions[0]?.time,
      price: '1.09800',
      reason: 'TRAILING_STOP_LOSS_ORDER',
      pl: '-22.0000',
    });
    expect(fired.state.trades.get(4)?.state).toBe('CLOSED');
  });

  it('on a short trade it trails the ask downwards and fills when the ask rises to it', () => {
    const placed = given(SHORT)
      .when(placeOrder({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00100' }))
      .then({ id: '5' });
    expect(level(placed)).toBe('1.10120');
    expect(level(placed.when(quote(1.0988, 1.099)).then())).toBe('1.10000');
    expect(level(placed.when(quote(1.0996, 1.0998)).then())).toBe('1.10000');
    placed
      .when(quote(1.1, 1.1002))
      .then({ id: '6', type: 'ORDER_FILL', units: '10000', price: '1.10020', reason: 'TRAILING_STOP_LOSS_ORDER', pl: '-2.0000' });
  });

  it('a second trailing stop on the trade is refused', () => {
    const sim = longTrade();
    sim.order({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00300' });
    const out = sim.order({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00400' });
    expect(shape(out.transactions)).toEqual(['TRAILING_STOP_LOSS_ORDER_REJECT:TRAILING_STOP_LOSS_ORDER_ALREADY_EXISTS']);
  });
});

describe('one of each per trade', () => {
  it('TAKE_PROFIT_ORDER_ALREADY_EXISTS; after cancelling the first a new one is fine', () => {
    const sim = longTrade();
    sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10500' });
    const out = sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10600' });
    expect(shape(out.transactions)).toEqual(['TAKE_PROFIT_ORDER_REJECT:TAKE_PROFIT_ORDER_ALREADY_EXISTS']);
    expect(rejectTx(out)).toMatchObject({ tradeID: '4', price: '1.10600' });
    expect(out.reject?.notFound).toBe(false);
    sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '5' });
    expect(sim.account.state.trades.get(4)?.takeProfitOrderID).toBeUndefined();
    expect(shape(sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10600' }).transactions)).toEqual([
      'TAKE_PROFIT_ORDER:CLIENT_ORDER',
    ]);
  });

  it('STOP_LOSS_ORDER_ALREADY_EXISTS', () => {
    const sim = longTrade();
    sim.order({ type: 'STOP_LOSS', tradeID: '4', price: '1.09500' });
    expect(shape(sim.order({ type: 'STOP_LOSS', tradeID: '4', distance: '0.00100' }).transactions)).toEqual([
      'STOP_LOSS_ORDER_REJECT:STOP_LOSS_ORDER_ALREADY_EXISTS',
    ]);
  });

  it('a TAKE_PROFIT on a closed trade is TRADE_DOESNT_EXIST', () => {
    const sim = longTrade();
    sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' });
    const out = sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.10500' });
    expect(shape(out.transactions)).toEqual(['TAKE_PROFIT_ORDER_REJECT:TRADE_DOESNT_EXIST']);
    expect(out.reject?.notFound).toBe(true);
  });

  it('a standalone TAKE_PROFIT already in the money fills at once', () => {
    const sim = longTrade();
    const out = sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.09900' });
    expect(shape(out.transactions)).toEqual(['TAKE_PROFIT_ORDER:CLIENT_ORDER', 'ORDER_FILL:TAKE_PROFIT_ORDER']);
    expect(fillTx(out)).toMatchObject({ price: '1.10000', pl: '-2.0000' });
  });
});
