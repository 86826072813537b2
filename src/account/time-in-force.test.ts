import { describe, expect, it } from 'vitest';
import { SECOND, Sim, T0, cancelTx, createTx, field, fillTx, iso, rejectTx, shape } from './test-helpers.js';
import { funded, given, limitOrder, quote, quoted, until } from './testing/given.js';

const HOUR = 3600 * SECOND;

function eurUsd(start?: number): Sim {
  const sim = start === undefined ? new Sim() : new Sim({ start });
  sim.quote('EUR_USD', 1.1, 1.1002);
  return sim;
}

describe('GTD', () => {
  it('expires at gtdTime when the clock passes it: ORDER_CANCEL TIME_IN_FORCE_EXPIRED stamped at gtdTime', () => {
    const sim = eurUsd();
    const gtd = T0 + HOUR;
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GTD', gtdTime: iso(gtd) });
    expect(createTx(out)).toMatchObject({ id: '3', timeInForce: 'GTD', gtdTime: iso(gtd) });
    sim.advanceTo(gtd - 1);
    expect(sim.lastId).toBe(3);
    sim.advanceTo(gtd + 10 * SECOND);
    expect(sim.since(3)).toEqual([
      {
        id: '4',
        accountID: sim.account.id,
        userID: 1234567,
        batchID: '4',
        time: iso(gtd),
        type: 'ORDER_CANCEL',
        orderID: '3',
        reason: 'TIME_IN_FORCE_EXPIRED',
      },
    ]);
    expect(sim.account.state.orders.get(3)?.state).toBe('CANCELLED');
    expect(sim.account.state.pendingCount).toBe(0);
    sim.advanceTo(gtd + 20 * SECOND);
    expect(sim.lastId).toBe(4);
  });

  /** A resting GTD buy LIMIT (order 3) ending an hour after T0. */
  const GTD = T0 + HOUR;
  const restingGtd = given(
    funded(),
    quoted(1.1, 1.1002),
    limitOrder({ units: '1000', price: '1.09950', timeInForce: 'GTD', gtdTime: iso(GTD) }),
  );

  it('expires exactly at gtdTime', () => {
    restingGtd.when(until(GTD)).then({ type: 'ORDER_CANCEL', orderID: '3', reason: 'TIME_IN_FORCE_EXPIRED', time: iso(GTD) });
  });

  it('a later tick that would have crossed the order first expires it, so nothing fills', () => {
    // Just before the deadline nothing has happened; the tick comes a second later, past it.
    const later = restingGtd
      .when(until(GTD - 1))
      .then()
      .when(quote(1.099, 1.0992));
    later.then({ type: 'ORDER_CANCEL', orderID: '3', reason: 'TIME_IN_FORCE_EXPIRED', time: iso(GTD) });
    expect(later.state.trades.size).toBe(0);
  });

  it('a tick on another instrument also moves the clock past the deadline', () => {
    restingGtd
      .when(until(GTD - 1))
      .then()
      .when(quote(150, 150.02, 'USD_JPY'))
      .then({ type: 'ORDER_CANCEL', orderID: '3', reason: 'TIME_IN_FORCE_EXPIRED', time: iso(GTD) });
  });

  it('expiries come out in deadline order, each in its own batch, before a later command', () => {
    const sim = eurUsd();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GTD', gtdTime: iso(T0 + 2 * HOUR) }); // 3
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09940', timeInForce: 'GTD', gtdTime: iso(T0 + HOUR) }); // 4
    sim.now = T0 + 3 * HOUR;
    const out = sim.account.execute({ type: 'CANCEL_ORDER', orderSpecifier: '3' }, sim.now);
    expect(sim.since(4).map((tx) => [tx.id, tx.batchID, tx.type, field(tx, 'orderID'), tx.time])).toEqual([
      ['5', '5', 'ORDER_CANCEL', '4', iso(T0 + HOUR)],
      ['6', '6', 'ORDER_CANCEL', '3', iso(T0 + 2 * HOUR)],
      ['7', '7', 'ORDER_CANCEL_REJECT', '3', iso(T0 + 3 * HOUR)],
    ]);
    expect(out.reject?.errorCode).toBe('ORDER_DOESNT_EXIST');
  });

  it('a cancelled GTD order does not expire again', () => {
    restingGtd
      .when({ type: 'CANCEL_ORDER', orderSpecifier: '3' })
      .then({ type: 'ORDER_CANCEL', orderID: '3', reason: 'CLIENT_REQUEST' })
      .when(until(T0 + 2 * HOUR))
      .then();
  });

  it('without gtdTime: TIME_IN_FORCE_GTD_TIMESTAMP_MISSING', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GTD' });
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER_REJECT:TIME_IN_FORCE_GTD_TIMESTAMP_MISSING']);
    expect(out.reject?.errorCode).toBe('TIME_IN_FORCE_GTD_TIMESTAMP_MISSING');
  });

  it.each([
    ['now', 0],
    ['a second ago', -SECOND],
  ])('gtdTime %s: TIME_IN_FORCE_GTD_TIMESTAMP_IN_PAST', (_, offset) => {
    const sim = eurUsd();
    sim.step();
    const out = sim.account.execute(
      {
        type: 'CREATE_ORDER',
        order: { type: 'STOP', instrument: 'EUR_USD', units: '1000', price: '1.10100', timeInForce: 'GTD', gtdTime: iso(sim.now + offset) },
      },
      sim.now,
    );
    expect(shape(out.transactions)).toEqual(['STOP_ORDER_REJECT:TIME_IN_FORCE_GTD_TIMESTAMP_IN_PAST']);
    expect(rejectTx(out).gtdTime).toBe(iso(sim.now + offset));
  });

  it('an on-fill take profit with GTD expires on its own and leaves the trade open', () => {
    const sim = eurUsd();
    const gtd = T0 + HOUR;
    const out = sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '1000',
      takeProfitOnFill: { price: '1.10500', timeInForce: 'GTD', gtdTime: iso(gtd) },
    });
    expect(createTx(out, 'orderCreateTransaction').takeProfitOnFill).toEqual({ price: '1.10500', timeInForce: 'GTD', gtdTime: iso(gtd) });
    expect(sim.tx(5)).toMatchObject({ type: 'TAKE_PROFIT_ORDER', tradeID: '4', timeInForce: 'GTD', gtdTime: iso(gtd), reason: 'ON_FILL' });
    sim.advanceTo(gtd);
    expect(sim.since(5).map((tx) => [tx.type, field(tx, 'orderID'), field(tx, 'reason'), tx.time])).toEqual([
      ['ORDER_CANCEL', '5', 'TIME_IN_FORCE_EXPIRED', iso(gtd)],
    ]);
    const trade = sim.account.state.trades.get(4);
    expect(trade?.state).toBe('OPEN');
    expect(trade?.takeProfitOrderID).toBeUndefined();
  });

  it('an on-fill GTD in the past rejects the entry order', () => {
    const sim = eurUsd();
    const out = sim.order({
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '1000',
      stopLossOnFill: { distance: '0.00100', timeInForce: 'GTD', gtdTime: iso(T0) },
    });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER_REJECT:STOP_LOSS_ON_FILL_GTD_TIMESTAMP_IN_PAST']);
  });
});

describe('GFD', () => {
  it('expires at 17:00 New York: 21:00Z while New York is on EDT', () => {
    const sim = eurUsd();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GFD' });
    const fivePm = Date.UTC(2024, 4, 6, 21) * 1000;
    sim.advanceTo(fivePm - 1);
    expect(sim.lastId).toBe(3);
    sim.advanceTo(fivePm + HOUR);
    expect(sim.since(3).map((tx) => [tx.type, field(tx, 'reason'), tx.time])).toEqual([
      ['ORDER_CANCEL', 'TIME_IN_FORCE_EXPIRED', '2024-05-06T21:00:00.000000000Z'],
    ]);
  });

  it('an order placed after 17:00 New York lives until 17:00 the next day', () => {
    const sim = eurUsd(Date.UTC(2024, 4, 6, 22) * 1000);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GFD' });
    sim.advanceTo(Date.UTC(2024, 4, 7, 21) * 1000 - 1);
    expect(sim.lastId).toBe(3);
    sim.advanceTo(Date.UTC(2024, 4, 8) * 1000);
    expect(sim.since(3).map((tx) => tx.time)).toEqual(['2024-05-07T21:00:00.000000000Z']);
  });

  it('expires at 22:00Z while New York is on EST', () => {
    const sim = eurUsd(Date.UTC(2024, 0, 8, 12) * 1000);
    sim.order({ type: 'STOP', instrument: 'EUR_USD', units: '1000', price: '1.10500', timeInForce: 'GFD' });
    sim.advanceTo(Date.UTC(2024, 0, 8, 21, 30) * 1000);
    expect(sim.lastId).toBe(3);
    sim.advanceTo(Date.UTC(2024, 0, 9) * 1000);
    expect(sim.since(3).map((tx) => tx.time)).toEqual(['2024-01-08T22:00:00.000000000Z']);
  });
});

describe('FOK and IOC on pending order types', () => {
  it.each(['FOK', 'IOC'])('a %s LIMIT that is not marketable is created and cancelled at once', (tif) => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: tif });
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:TIME_IN_FORCE_EXPIRED']);
    expect(cancelTx(out)).toMatchObject({ id: '4', batchID: '3', orderID: '3' });
    expect(sim.account.state.pendingCount).toBe(0);
    sim.quote('EUR_USD', 1.099, 1.0992);
    expect(sim.lastId).toBe(4);
  });

  it.each(['FOK', 'IOC'])('a marketable %s LIMIT fills at once', (tif) => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.10050', timeInForce: tif });
    expect(fillTx(out)).toMatchObject({ price: '1.10020', reason: 'LIMIT_ORDER' });
  });

  it.each(['FOK', 'IOC'])('MARKET_IF_TOUCHED with %s is rejected TIME_IN_FORCE_INVALID', (tif) => {
    const sim = eurUsd();
    const out = sim.order({ type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '1000', price: '1.09900', timeInForce: tif });
    expect(shape(out.transactions)).toEqual(['MARKET_IF_TOUCHED_ORDER_REJECT:TIME_IN_FORCE_INVALID']);
  });

  it.each(['TAKE_PROFIT', 'STOP_LOSS'])('%s with FOK is rejected TIME_IN_FORCE_INVALID', (type) => {
    const sim = eurUsd();
    const tradeID = sim.openTrade('EUR_USD', '1000');
    const out = sim.order({ type, tradeID: String(tradeID), price: type === 'TAKE_PROFIT' ? '1.10500' : '1.09500', timeInForce: 'FOK' });
    expect(shape(out.transactions)).toEqual([`${type}_ORDER_REJECT:TIME_IN_FORCE_INVALID`]);
  });

  it('an unknown timeInForce is TIME_IN_FORCE_INVALID', () => {
    const sim = eurUsd();
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950', timeInForce: 'GTX' });
    expect(shape(out.transactions)).toEqual(['LIMIT_ORDER_REJECT:TIME_IN_FORCE_INVALID']);
  });
});

describe('the simulated clock', () => {
  it('never goes backwards: an older quote or command time is an error and writes nothing', () => {
    const sim = eurUsd();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09950' });
    const now = sim.now;
    expect(() => sim.account.onQuote({ instrument: 'EUR_USD', time: now - 1, bid: 1.099, ask: 1.0992 })).toThrow(/older/);
    expect(() => sim.account.execute({ type: 'CANCEL_ORDER', orderSpecifier: '3' }, now - 1)).toThrow(/backwards/);
    expect(() => sim.account.advance(now - 1)).toThrow(/backwards/);
    expect(sim.lastId).toBe(3);
    expect(sim.account.now).toBe(now);
  });
});
