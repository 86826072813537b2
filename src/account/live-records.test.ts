import { describe, expect, it } from 'vitest';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import { openTradeRecords, pendingOrderRecords } from './live-records.js';
import type { AccountState } from './state.js';
import { Sim, createTx } from './test-helpers.js';
import { pendingOrders } from './views.js';

function scannedPending(state: AccountState): number[] {
  return [...state.orders.values()].filter((o) => o.state === 'PENDING' && ORDER_TYPE_RULES[o.type].trigger !== null).map((o) => o.id);
}

function scannedOpen(state: AccountState): number[] {
  return [...state.trades.values()].filter((t) => t.state === 'OPEN').map((t) => t.id);
}

describe('pending orders and open trades without walking the history', () => {
  it('a long history of fills and cancels leaves lists of what is live, oldest first, bounded by it', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('GBP_USD', 1.25, 1.2502);
    const keptLimit = Number(createTx(sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' })).id);
    const keptTrade = sim.openTrade('EUR_USD', '1000');
    for (let i = 0; i < 300; i += 1) {
      // A trade with a take profit and a stop loss, closed with both dependents cancelled; a limit placed and cancelled.
      sim.step();
      sim.openTrade('GBP_USD', '-100', { takeProfitOnFill: { price: '1.20000' }, stopLossOnFill: { price: '1.30000' } });
      const limit = createTx(sim.order({ type: 'LIMIT', instrument: 'GBP_USD', units: '100', price: '1.10000' })).id;
      sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: limit });
      sim.exec({ type: 'CLOSE_POSITION', instrument: 'GBP_USD', shortUnits: 'ALL' });
    }
    const state = sim.account.state;
    expect(pendingOrderRecords(state).map((o) => o.id)).toEqual([keptLimit]);
    expect(pendingOrders(state).map((o) => o.id)).toEqual(scannedPending(state));
    expect(openTradeRecords(state).map((t) => t.id)).toEqual([keptTrade]);
    expect(openTradeRecords(state).map((t) => t.id)).toEqual(scannedOpen(state));
    // 900 pending orders and 300 trades came and went; the lists hold about what is live.
    expect(state.orders.size).toBeGreaterThan(1200);
    expect(state.pendingOrderIds.length).toBeLessThanOrEqual(2 * state.pendingCount + 64 + 1);
    expect(state.openTradeIds.length).toBeLessThanOrEqual(2 * state.openTradeCount + 64 + 1);
  });
});
