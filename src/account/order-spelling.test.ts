import { describe, expect, it } from 'vitest';
import type { Json } from './views.js';
import { accountChangesView, accountView, orderView, tradeView } from './views.js';
import { Sim, createTx } from './test-helpers.js';

/**
 * Order resources spell DEFAULT by context (v3-interface.md 2.3): POSITION_DEFAULT,
 * TRIGGER_DEFAULT, DEFAULT_FILL under the interface spelling (the default), DEFAULT under the
 * documented one; the transactions that created the orders keep DEFAULT.
 */
function book(): { sim: Sim; since: number } {
  const sim = new Sim();
  sim.quote('EUR_USD', 1.1, 1.1002);
  const since = sim.lastId;
  sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' }); // 3
  sim.order({
    type: 'STOP',
    instrument: 'EUR_USD',
    units: '1000',
    price: '1.12000',
    positionFill: 'REDUCE_FIRST',
    triggerCondition: 'ASK',
  }); // 4
  sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.20000' } }); // 5 fill 6 (trade 6), TP 7
  return { sim, since };
}

const spelled = (o: Json): unknown[] => [o['type'], o['positionFill'], o['triggerCondition'], o['partialFill']];

describe('Order resource spelling', () => {
  it('interface (the default): POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL; other values as stored', () => {
    const { sim } = book();
    const state = sim.account.state;
    const views = [3, 4, 5, 7].map((id) => orderView(state, state.orders.get(id)!));
    expect(views.map(spelled)).toEqual([
      ['LIMIT', 'POSITION_DEFAULT', 'TRIGGER_DEFAULT', 'DEFAULT_FILL'],
      ['STOP', 'REDUCE_FIRST', 'ASK', 'DEFAULT_FILL'],
      ['MARKET', 'POSITION_DEFAULT', undefined, undefined],
      ['TAKE_PROFIT', undefined, 'TRIGGER_DEFAULT', undefined],
    ]);
  });

  it('documented: DEFAULT everywhere', () => {
    const { sim } = book();
    const state = sim.account.state;
    const views = [3, 4, 5, 7].map((id) => orderView(state, state.orders.get(id)!, 'documented'));
    expect(views.map(spelled)).toEqual([
      ['LIMIT', 'DEFAULT', 'DEFAULT', 'DEFAULT'],
      ['STOP', 'REDUCE_FIRST', 'ASK', 'DEFAULT'],
      ['MARKET', 'DEFAULT', undefined, undefined],
      ['TAKE_PROFIT', undefined, 'DEFAULT', undefined],
    ]);
  });

  it('the account, a trade and the changes pass the spelling on; the transactions keep DEFAULT', () => {
    const { sim, since } = book();
    const state = sim.account.state;
    for (const [spelling, position, trigger] of [
      ['interface', 'POSITION_DEFAULT', 'TRIGGER_DEFAULT'],
      ['documented', 'DEFAULT', 'DEFAULT'],
    ] as const) {
      const account = accountView(state, spelling);
      expect((account['orders'] as Json[]).map((o) => o['positionFill'] ?? o['triggerCondition'])).toEqual([
        position,
        'REDUCE_FIRST',
        trigger,
      ]);
      expect((tradeView(state, state.trades.get(6)!, spelling)['takeProfitOrder'] as Json)['triggerCondition']).toBe(trigger);
      const changes = accountChangesView(state, sim.since(since), spelling);
      expect((changes['ordersCreated'] as Json[]).map((o) => o['positionFill'] ?? o['triggerCondition'])).toEqual([
        position,
        'REDUCE_FIRST',
        position,
        trigger,
      ]);
      expect(changes['transactions']).toEqual(sim.since(since));
    }
    expect(createTx(sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.05000' }))).toMatchObject({
      positionFill: 'DEFAULT',
      triggerCondition: 'DEFAULT',
      partialFill: 'DEFAULT',
    });
  });

  it("a request with the Order resource's spelling is stored as DEFAULT", () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const tx = createTx(
      sim.order({
        type: 'LIMIT',
        instrument: 'EUR_USD',
        units: '1000',
        price: '1.09000',
        positionFill: 'POSITION_DEFAULT',
        triggerCondition: 'TRIGGER_DEFAULT',
      }),
    );
    expect(tx).toMatchObject({ positionFill: 'DEFAULT', triggerCondition: 'DEFAULT' });
    expect(sim.account.state.orders.get(Number(tx.id))?.create).toMatchObject({ positionFill: 'DEFAULT', triggerCondition: 'DEFAULT' });
  });
});
