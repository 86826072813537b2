import { createActor, getNextSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { ORDER_STATE, ORDER_TYPES, type OrderType } from '../domain/order-types.js';
import {
  ORDER_EVENT_TYPES,
  ORDER_STATES,
  isTerminal,
  nextOrderState,
  orderMachine,
  transitionOrder,
  type OrderEventType,
  type OrderState,
} from './lifecycle.js';

/** What the machine itself answers, asked directly through xstate. */
function machineAnswer(orderType: OrderType, state: OrderState, type: OrderEventType): OrderState | undefined {
  const snapshot = orderMachine.resolveState({ value: state, context: { orderType } });
  if (!snapshot.can({ type })) return undefined;
  return getNextSnapshot(orderMachine, snapshot, { type }).value as OrderState;
}

/** Every edge of the lifecycle as v20 describes it, written out by hand; undefined = refused. */
const EXPECTED: Readonly<Record<OrderState, Readonly<Record<OrderEventType, OrderState | undefined | 'PENDING_IF_CANCELLABLE'>>>> = {
  PENDING: { FILL: 'FILLED', CANCEL: 'CANCELLED', MODIFY: 'PENDING_IF_CANCELLABLE' },
  FILLED: { FILL: undefined, CANCEL: undefined, MODIFY: undefined },
  CANCELLED: { FILL: undefined, CANCEL: undefined, MODIFY: undefined },
};

function specAnswer(orderType: OrderType, state: OrderState, event: OrderEventType): OrderState | undefined {
  const expected = EXPECTED[state][event];
  if (expected !== 'PENDING_IF_CANCELLABLE') return expected;
  return orderType === 'MARKET' ? undefined : 'PENDING';
}

const EDGES = ORDER_TYPES.flatMap((orderType) =>
  ORDER_STATES.flatMap((state) => ORDER_EVENT_TYPES.map((event) => [orderType, state, event] as const)),
);

describe('order lifecycle: every edge', () => {
  it('covers 7 order types x 3 states x 3 events', () => {
    expect(EDGES).toHaveLength(7 * 3 * 3);
  });

  it.each(EDGES)('%s in %s on %s: the kept answer is the xstate machine and the v20 lifecycle', (orderType, state, event) => {
    const fromMachine = machineAnswer(orderType, state, event);
    expect(nextOrderState(orderType, state, event)).toBe(fromMachine);
    expect(fromMachine).toBe(specAnswer(orderType, state, event));
    if (fromMachine === undefined) {
      expect(() => transitionOrder(orderType, state, event)).toThrow(`order lifecycle: ${orderType} cannot ${event} from ${state}`);
    } else {
      expect(transitionOrder(orderType, state, event)).toBe(fromMachine);
    }
  });

  it.each(ORDER_TYPES)('every state of a %s order is reachable from PENDING', (orderType) => {
    const reached = new Set<OrderState>(['PENDING']);
    const queue: OrderState[] = ['PENDING'];
    for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
      for (const event of ORDER_EVENT_TYPES) {
        const next = nextOrderState(orderType, state, event);
        if (next !== undefined && !reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    expect([...reached].sort()).toEqual([...ORDER_STATES].sort());
  });

  it('FILLED and CANCELLED are terminal and nothing leaves them; PENDING is not', () => {
    expect(ORDER_STATES.filter(isTerminal)).toEqual(['FILLED', 'CANCELLED']);
    for (const orderType of ORDER_TYPES) {
      for (const state of ['FILLED', 'CANCELLED'] as const) {
        for (const event of ORDER_EVENT_TYPES) expect(nextOrderState(orderType, state, event)).toBeUndefined();
      }
    }
  });

  it('answers the same when asked again, and nothing for a name the machine does not know', () => {
    for (const [orderType, state, event] of EDGES)
      expect(nextOrderState(orderType, state, event)).toBe(machineAnswer(orderType, state, event));
    const unknown = (orderType: string, state: string, event: string): OrderState | undefined =>
      nextOrderState(orderType as OrderType, state as OrderState, event as OrderEventType);
    for (const name of ['__proto__', 'constructor', 'toString', 'TRIGGERED', 'FIXED_PRICE'] as const) {
      expect(unknown(name, 'PENDING', 'FILL')).toBeUndefined();
      expect(unknown('LIMIT', name, 'FILL')).toBeUndefined();
      expect(unknown('LIMIT', 'PENDING', name)).toBeUndefined();
    }
    // Asked after the refusals, the known ones still answer as the machine does.
    expect(nextOrderState('LIMIT', 'PENDING', 'FILL')).toBe('FILLED');
  });

  it('the states are v20 OrderState values; TRIGGERED is the one no order is ever in', () => {
    expect(ORDER_STATE.filter((s) => !(ORDER_STATES as readonly string[]).includes(s))).toEqual(['TRIGGERED']);
    expect(orderMachine.root.states['TRIGGERED']).toBeUndefined();
  });
});

describe('order machine as an actor', () => {
  it('a STOP runs PENDING -> PENDING (modified) -> FILLED and is then done', () => {
    const actor = createActor(orderMachine, { input: { orderType: 'STOP' } }).start();
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'MODIFY' });
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'FILL' });
    expect(actor.getSnapshot().value).toBe('FILLED');
    expect(actor.getSnapshot().status).toBe('done');
    actor.stop();
  });

  it('a MARKET order ignores MODIFY and can be cancelled', () => {
    const actor = createActor(orderMachine, { input: { orderType: 'MARKET' } }).start();
    actor.send({ type: 'MODIFY' });
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('CANCELLED');
    expect(actor.getSnapshot().status).toBe('done');
    actor.stop();
  });
});
