import { createActor, getNextSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, type OrderType } from '../domain/order-types.js';
import {
  ORDER_EVENT_TYPES, ORDER_STATES, isTerminal, nextOrderState, orderMachine, transitionOrder, type OrderEvent, type OrderEventType, type OrderState,
} from './lifecycle.js';

/** What the machine itself answers, asked directly through xstate. */
function machineAnswer(orderType: OrderType, state: OrderState, eventType: OrderEventType): OrderState | undefined {
  const snapshot = orderMachine.resolveState({ value: state, context: { orderType } });
  const event = { type: eventType } as OrderEvent;
  if (!snapshot.can(event)) return undefined;
  return getNextSnapshot(orderMachine, snapshot, event).value as OrderState;
}

/** The lifecycle as v20 describes it, written out by hand. */
function specAnswer(orderType: OrderType, state: OrderState, eventType: OrderEventType): OrderState | undefined {
  if (state === 'PENDING') {
    if (eventType === 'TRIGGER') return orderType === 'MARKET' ? undefined : 'TRIGGERED';
    if (eventType === 'FILL') return 'FILLED';
    if (eventType === 'CANCEL') return 'CANCELLED';
    return 'PENDING';
  }
  if (state === 'TRIGGERED') {
    if (eventType === 'FILL') return 'FILLED';
    if (eventType === 'CANCEL') return 'CANCELLED';
    return undefined;
  }
  return undefined;
}

const CASES = ORDER_TYPES.flatMap((orderType) =>
  ORDER_STATES.flatMap((state) => ORDER_EVENT_TYPES.map((event) => [orderType, state, event] as const)));

describe('order lifecycle table', () => {
  it('covers 7 order types x 4 states x 4 events', () => {
    expect(CASES).toHaveLength(7 * 4 * 4);
  });

  it.each(CASES)('%s in %s on %s: the table is the xstate machine and the v20 lifecycle', (orderType, state, event) => {
    const fromMachine = machineAnswer(orderType, state, event);
    expect(nextOrderState(orderType, state, event)).toBe(fromMachine);
    expect(fromMachine).toBe(specAnswer(orderType, state, event));
  });

  it.each(ORDER_TYPES.flatMap((t) => (['FILLED', 'CANCELLED'] as const).map((s) => [t, s] as const)))(
    '%s in %s accepts nothing', (orderType, state) => {
      for (const event of ORDER_EVENT_TYPES) {
        expect(nextOrderState(orderType, state, event)).toBeUndefined();
        expect(() => transitionOrder(orderType, state, event)).toThrow(`order lifecycle: ${orderType} cannot ${event} from ${state}`);
      }
      expect(isTerminal(state)).toBe(true);
    },
  );

  it('MARKET cannot TRIGGER, every pending type can', () => {
    expect(nextOrderState('MARKET', 'PENDING', 'TRIGGER')).toBeUndefined();
    expect(() => transitionOrder('MARKET', 'PENDING', 'TRIGGER')).toThrow(/MARKET cannot TRIGGER from PENDING/);
    for (const orderType of ORDER_TYPES.filter((t) => t !== 'MARKET')) {
      expect(transitionOrder(orderType, 'PENDING', 'TRIGGER')).toBe('TRIGGERED');
    }
  });

  it('PENDING and TRIGGERED are not terminal; MODIFY keeps a pending order pending and is refused once triggered', () => {
    expect(isTerminal('PENDING')).toBe(false);
    expect(isTerminal('TRIGGERED')).toBe(false);
    expect(transitionOrder('LIMIT', 'PENDING', 'MODIFY')).toBe('PENDING');
    expect(nextOrderState('LIMIT', 'TRIGGERED', 'MODIFY')).toBeUndefined();
    expect(nextOrderState('LIMIT', 'TRIGGERED', 'TRIGGER')).toBeUndefined();
  });
});

describe('order machine as an actor', () => {
  it('a STOP runs PENDING -> TRIGGERED -> FILLED and is then done', () => {
    const actor = createActor(orderMachine, { input: { orderType: 'STOP' } }).start();
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'MODIFY' });
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'TRIGGER' });
    expect(actor.getSnapshot().value).toBe('TRIGGERED');
    actor.send({ type: 'FILL' });
    expect(actor.getSnapshot().value).toBe('FILLED');
    expect(actor.getSnapshot().status).toBe('done');
    actor.stop();
  });

  it('a MARKET order ignores TRIGGER and can be cancelled', () => {
    const actor = createActor(orderMachine, { input: { orderType: 'MARKET' } }).start();
    actor.send({ type: 'TRIGGER' });
    expect(actor.getSnapshot().value).toBe('PENDING');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('CANCELLED');
    expect(actor.getSnapshot().status).toBe('done');
    actor.stop();
  });
});
