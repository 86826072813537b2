import { describe, expect, it } from 'vitest';
import type { Transaction } from '../domain/transactions.js';
import { SECOND, Sim } from './test-helpers.js';

const HOUR = 3600 * SECOND;

/**
 * ORDER_CANCEL carries clientOrderID whenever the cancelled order has a client ID, however it was
 * addressed and whatever cancelled it (OrderCancelTransaction.clientOrderID, oanda-v20-openapi.json:
 * "only provided if the Order has a client Order ID").
 */
function cancels(sim: Sim, after: number): Transaction[] {
  return sim.since(after).filter((t) => t.type === 'ORDER_CANCEL');
}

describe('clientOrderID on ORDER_CANCEL', () => {
  it('a cancel by the numeric ID names the client ID too', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000', clientExtensions: { id: 'limit-1' } });
    const before = sim.lastId;
    sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: String(before) });
    expect(cancels(sim, before)).toMatchObject([{ orderID: String(before), clientOrderID: 'limit-1', reason: 'CLIENT_REQUEST' }]);
  });

  it('an order without a client ID has none on its cancel', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000', clientExtensions: { tag: 'only-a-tag' } });
    const before = sim.lastId;
    sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: String(before) });
    const [cancel] = cancels(sim, before);
    expect(cancel).toBeDefined();
    expect(cancel).not.toHaveProperty('clientOrderID');
  });

  it('an expired GTD order, and the take profit cancelled when its trade closes, name theirs', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const gtd = new Date((sim.now + HOUR) / 1000).toISOString();
    sim.order({
      type: 'LIMIT',
      instrument: 'EUR_USD',
      units: '100',
      price: '1.05000',
      timeInForce: 'GTD',
      gtdTime: gtd,
      clientExtensions: { id: 'gtd-1' },
    });
    const trade = sim.openTrade('EUR_USD', '100', { takeProfitOnFill: { price: '1.20000', clientExtensions: { id: 'tp-1' } } });
    const before = sim.lastId;
    sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: String(trade) });
    sim.advanceTo(sim.now + 2 * HOUR);
    expect(cancels(sim, before).map((t) => [t['clientOrderID' as keyof Transaction], t['reason' as keyof Transaction]])).toEqual([
      ['tp-1', 'LINKED_TRADE_CLOSED'],
      ['gtd-1', 'TIME_IN_FORCE_EXPIRED'],
    ]);
  });
});
