import { getNextSnapshot, setup } from 'xstate';
import { ORDER_TYPE_RULES, type OrderType, type V20OrderState } from '../domain/order-types.js';

/**
 * The states an order passes through: v20's OrderState without TRIGGERED. v20 shows no triggered
 * phase for these order types: its TransactionType has no transaction that marks an order
 * triggered, so a pending order that the market reaches gets its ORDER_FILL or ORDER_CANCEL in the
 * same batch (spec/oanda-v20-openapi.json, TransactionType; a stop whose fill breaks its priceBound
 * goes straight to ORDER_CANCEL with BOUNDS_VIOLATION); observed fills go PENDING -> FILLED and
 * TRIGGERED has no documented lifecycle (spec/oanda-v20-facts.md, "OrderState"); the interface
 * shows PENDING, FILLED and cancelled only (spec/v3-interface.md, "States and transitions"). An
 * account is the fold of its journal, so a state that no transaction enters could only exist live
 * and never after a replay. TRIGGERED remains a valid wire value and filter (ORDER_STATE in
 * domain/order-types.ts) that no order is in.
 */
export const ORDER_STATES = ['PENDING', 'FILLED', 'CANCELLED'] as const satisfies readonly V20OrderState[];
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * Lifecycle events. Only lifecycle changes are events; price ticks never reach the machine (the
 * trigger index decides which order a tick crosses, and that order's FILL or CANCEL follows).
 */
export const ORDER_EVENT_TYPES = ['FILL', 'CANCEL', 'MODIFY'] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];
export type OrderEvent = { type: OrderEventType };

/**
 * One order's lifecycle in v20 terms. Every order may be filled or cancelled while pending (a
 * MARKET order in the batch that creates it). Only types a client can address while pending (v20
 * CancellableOrderType, ORDER_TYPE_RULES cancellable) take MODIFY. FILLED and CANCELLED are final.
 */
export const orderMachine = setup({
  types: {
    context: {} as { orderType: OrderType },
    events: {} as OrderEvent,
    input: {} as { orderType: OrderType },
  },
  guards: {
    clientCanModify: ({ context }) => ORDER_TYPE_RULES[context.orderType].cancellable,
  },
}).createMachine({
  id: 'order',
  context: ({ input }) => ({ orderType: input.orderType }),
  initial: 'PENDING',
  states: {
    PENDING: {
      on: {
        FILL: 'FILLED',
        CANCEL: 'CANCELLED',
        MODIFY: { target: 'PENDING', guard: 'clientCanModify' },
      },
    },
    FILLED: { type: 'final' },
    CANCELLED: { type: 'final' },
  },
});

/**
 * The machine's answers, kept per (order type, state, event) as they are first asked for. Guards
 * read only the order type, so each answer is the machine's for every order of that type: an
 * order's state change costs a lookup instead of an actor (about 12 µs to create and 4 KB to keep
 * per order). Asked for one at a time, not all 63 at load: a process that fills MARKET orders with
 * take profits and stop losses asks for a handful, and working out the rest cost every start of
 * the CLI, a server or a scenario run 4-6 ms of cold xstate code. By order type, state and event:
 * a state, or null when the machine refuses the event.
 */
const answers: Record<string, Record<string, Record<string, OrderState | null>>> = {};

function machineAnswer(orderType: OrderType, state: OrderState, event: OrderEventType): OrderState | null {
  const snapshot = orderMachine.resolveState({ value: state, context: { orderType } });
  return snapshot.can({ type: event }) ? (getNextSnapshot(orderMachine, snapshot, { type: event }).value as OrderState) : null;
}

/** The state after `event`, or undefined when the machine does not accept it in `state`. */
export function nextOrderState(orderType: OrderType, state: OrderState, event: OrderEventType): OrderState | undefined {
  const known = answers[orderType]?.[state]?.[event];
  // A string is an answer kept, null a refusal kept; anything else (nothing yet, or what a name like
  // "constructor" finds on Object.prototype) goes on to the names' check.
  if (typeof known === 'string') return known;
  if (known === null) return undefined;
  if (!Object.hasOwn(ORDER_TYPE_RULES, orderType) || !ORDER_STATES.includes(state) || !ORDER_EVENT_TYPES.includes(event)) return undefined;
  const next = machineAnswer(orderType, state, event);
  ((answers[orderType] ??= {})[state] ??= {})[event] = next;
  return next ?? undefined;
}

/** As nextOrderState, for callers that have already decided the event is legal: a refusal is a bug. */
export function transitionOrder(orderType: OrderType, state: OrderState, event: OrderEventType): OrderState {
  const next = nextOrderState(orderType, state, event);
  if (next === undefined) throw new Error(`order lifecycle: ${orderType} cannot ${event} from ${state}`);
  return next;
}

export function isTerminal(state: OrderState): boolean {
  return state === 'FILLED' || state === 'CANCELLED';
}
