import { describe, expect, it } from 'vitest';
import type { OrderFillTransaction } from '../domain/transactions.js';
import { accountSummaryView, positionView } from './views.js';
import { Sim, fillTx, shape, sideUnitsText } from './test-helpers.js';

/** Long 10000 @ 1.10020 (trade 4) then sell 4000 with DEFAULT at the bid 1.10000. */
function longThenSell(hedgingEnabled: boolean, positionFill?: string): { sim: Sim; fill: OrderFillTransaction } {
  const sim = new Sim({ hedgingEnabled });
  sim.quote('EUR_USD', 1.1, 1.1002);
  sim.openTrade('EUR_USD', '10000');
  const order: Record<string, unknown> = { type: 'MARKET', instrument: 'EUR_USD', units: '-4000' };
  if (positionFill !== undefined) order['positionFill'] = positionFill;
  const fill = fillTx(sim.order(order));
  return { sim, fill };
}

describe('hedging account (hedgingEnabled)', () => {
  it('DEFAULT opens the opposite side as its own trade and keeps both open', () => {
    const { sim, fill } = longThenSell(true);
    expect(fill.tradeOpened).toMatchObject({ tradeID: '6', units: '-4000', price: '1.10000' });
    expect(fill.tradesClosed).toBeUndefined();
    expect(fill.tradeReduced).toBeUndefined();
    const state = sim.account.state;
    expect(positionView(state, state.positions.get('EUR_USD')!)).toMatchObject({
      long: { units: '10000', averagePrice: '1.10020', tradeIDs: ['4'], unrealizedPL: '-2.0000' },
      short: { units: '-4000', averagePrice: '1.10000', tradeIDs: ['6'], unrealizedPL: '-0.8000' },
      unrealizedPL: '-2.8000',
      // margined on the larger side only: 10000 x 1.10010 x 0.0333
      marginUsed: '366.3333',
    });
    expect(accountSummaryView(state)).toMatchObject({
      hedgingEnabled: true,
      openTradeCount: 2,
      openPositionCount: 1,
      unrealizedPL: '-2.8000',
      NAV: '99997.2000',
      marginUsed: '366.3333',
      positionValue: '15401.4000',
    });
  });

  it('a buy then also opens a new long rather than reducing the short', () => {
    const { sim } = longThenSell(true);
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000' }));
    expect(fill.tradeOpened?.units).toBe('1000');
    expect(sim.account.state.openTradeCount).toBe(3);
  });

  it('REDUCE_FIRST reduces the oldest opposite trade', () => {
    const { sim, fill } = longThenSell(true, 'REDUCE_FIRST');
    expect(fill.tradeReduced).toMatchObject({ tradeID: '4', units: '-4000', realizedPL: '-0.8000' });
    expect(fill.tradeOpened).toBeUndefined();
    expect(sim.account.state.openTradeCount).toBe(1);
  });

  it('REDUCE_ONLY IOC reduces and opens nothing', () => {
    const { sim } = longThenSell(true);
    const fill = fillTx(
      sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-20000', positionFill: 'REDUCE_ONLY', timeInForce: 'IOC' }),
    );
    expect(fill).toMatchObject({ units: '-10000', requestedUnits: '-20000' });
    expect(fill.tradesClosed?.map((r) => r.tradeID)).toEqual(['4']);
    expect(fill.tradeOpened).toBeUndefined();
    expect(sideUnitsText(sim.account.state, 'EUR_USD', 'short')).toBe('-4000');
  });

  it('CLOSE_POSITION closes each side with its own order, long first', () => {
    const { sim } = longThenSell(true);
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL', shortUnits: 'ALL' });
    expect(Object.keys(out.response)).toEqual([
      'longOrderCreateTransaction',
      'longOrderFillTransaction',
      'shortOrderCreateTransaction',
      'shortOrderFillTransaction',
    ]);
    expect(out.transactions.map((tx) => [tx.id, tx.batchID])).toEqual([
      ['7', '7'],
      ['8', '7'],
      ['9', '7'],
      ['10', '7'],
    ]);
    expect(out.response['longOrderFillTransaction']).toMatchObject({ units: '-10000', price: '1.10000', pl: '-2.0000' });
    expect(out.response['shortOrderFillTransaction']).toMatchObject({
      units: '4000',
      price: '1.10020',
      pl: '-0.8000',
      accountBalance: '99997.2000',
    });
    expect(out.response['shortOrderCreateTransaction']).toMatchObject({ shortPositionCloseout: { instrument: 'EUR_USD', units: 'ALL' } });
    expect(sim.account.state.openTradeCount).toBe(0);
  });

  it('CLOSE_POSITION with shortUnits NONE leaves the short alone', () => {
    const { sim } = longThenSell(true);
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL', shortUnits: 'NONE' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:POSITION_CLOSEOUT', 'ORDER_FILL:MARKET_ORDER_POSITION_CLOSEOUT']);
    expect(sideUnitsText(sim.account.state, 'EUR_USD', 'short')).toBe('-4000');
  });
});

describe('netting account for contrast', () => {
  it('DEFAULT reduces the long instead of opening a short', () => {
    const { sim, fill } = longThenSell(false);
    expect(fill.tradeReduced).toMatchObject({ tradeID: '4', units: '-4000' });
    expect(fill.tradeOpened).toBeUndefined();
    expect(accountSummaryView(sim.account.state)).toMatchObject({ hedgingEnabled: false, openTradeCount: 1 });
  });

  it('OPEN_ONLY against the held side is refused, not turned into a reduction (orders/position-fill.ts)', () => {
    const sim = new Sim({ hedgingEnabled: false });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-4000', positionFill: 'OPEN_ONLY' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER_REJECT:ORDER_FILL_POSITION_ACTION_INVALID']);
    expect(sideUnitsText(sim.account.state, 'EUR_USD', 'long')).toBe('10000');
  });
});
