/**
 * Every rule an order request must pass before anything is made of it (decide-orders.ts makes it):
 * the request's own checks, the account's (client IDs, the pending-order limit, the trade's slot),
 * OPEN_ONLY against a netting position and the checks that need a current price. Nothing here
 * emits a transaction, so a request of several parts can be checked whole first.
 */
import { LIMITS } from '../domain/limits.js';
import { isOrderType, ORDER_TYPE_RULES, type DependentOrderType, type OrderType } from '../domain/order-types.js';
import { OPEN_ONLY_REJECT_REASON, openOnlyAgainstPosition } from '../orders/position-fill.js';
import { checkOrderRequest, sentEcho, type CheckedOrder, type OrderRequest } from '../orders/request.js';
import type { Batch } from './batch.js';
import { canConvertToHome } from './home-currency.js';
import { stopLossPriceIntFromQuote, TRADE_SLOT } from './placement.js';
import { findTrade } from './specifiers.js';
import type { AccountState, OrderRecord, TradeRecord } from './state.js';
import { terminalOrderRefusal } from './third-party-terminal.js';
import { holdsOpposite } from './trigger.js';

export function isDependent(type: OrderType): type is DependentOrderType {
  return ORDER_TYPE_RULES[type].kind === 'DEPENDENT';
}

/**
 * What the parts of one request decided before a later part will have changed by the time it is
 * decided: decideSetTradeOrders checks every part before it makes any.
 */
export interface EarlierParts {
  /** Client order IDs the earlier parts give the orders they create. */
  readonly clientOrderIds: ReadonlySet<string>;
  /** Pending orders the earlier parts add (cancels count -1). */
  readonly pendingDelta: number;
}

const NO_EARLIER_PARTS: EarlierParts = { clientOrderIds: new Set(), pendingDelta: 0 };

/** Account-level checks an otherwise valid order must pass; a reason string refuses it. */
function accountRefusal(
  b: Batch,
  type: OrderType,
  clientOrderId: string | undefined,
  clientTradeId: string | undefined,
  tradeId: number | undefined,
  replaces: OrderRecord | undefined,
  earlier: EarlierParts,
): string | null {
  const state = b.state;
  if (clientOrderId !== undefined) {
    const holder = state.clientOrderIds.get(clientOrderId);
    if ((holder !== undefined && holder !== replaces?.id) || earlier.clientOrderIds.has(clientOrderId))
      return 'CLIENT_ORDER_ID_ALREADY_EXISTS';
  }
  if (clientTradeId !== undefined && state.clientTradeIds.has(clientTradeId)) return 'CLIENT_TRADE_ID_ALREADY_EXISTS';
  if (
    ORDER_TYPE_RULES[type].trigger !== null &&
    replaces === undefined &&
    state.pendingCount + earlier.pendingDelta >= LIMITS.pendingOrdersPerAccount
  )
    return 'PENDING_ORDERS_ALLOWED_EXCEEDED';
  if (tradeId !== undefined && isDependent(type)) {
    const trade = state.trades.get(tradeId);
    if (trade === undefined || trade.state !== 'OPEN') return 'TRADE_DOESNT_EXIST';
    const existing = trade[TRADE_SLOT[type]];
    if (existing !== undefined && existing !== replaces?.id) return `${type}_ORDER_ALREADY_EXISTS`;
  }
  if (replaces !== undefined && replaces.tradeId !== undefined && tradeId !== replaces.tradeId) return 'REPLACING_TRADE_ID_INVALID';
  return null;
}

/** An OPEN_ONLY entry order against the side a netting account holds (orders/position-fill.ts). */
function openOnlyAgainst(state: AccountState, order: CheckedOrder): boolean {
  if (order.positionFill !== 'OPEN_ONLY' || order.instrument === undefined || order.units === undefined) return false;
  return openOnlyAgainstPosition(
    order.positionFill,
    state.hedgingEnabled,
    holdsOpposite(state, order.instrument, order.units.isPositive()),
  );
}

/** The open trade a dependent order names by tradeID or clientTradeID, if there is one. */
export function openTradeOf(state: AccountState, request: OrderRequest): TradeRecord | undefined {
  const spec =
    typeof request.tradeID === 'string'
      ? request.tradeID
      : typeof request.clientTradeID === 'string'
        ? `@${request.clientTradeID}`
        : undefined;
  const trade = spec === undefined ? undefined : findTrade(state, spec);
  return trade !== undefined && trade.state === 'OPEN' ? trade : undefined;
}

/**
 * Checks that need the current price, made before a replaced order is cancelled (so a refused
 * replacement changes nothing): an MIT needs a market to touch from and a stop loss by distance a
 * current price to measure from (INSTRUMENT_PRICE_UNKNOWN), and that price less the distance must
 * stay above zero (PRICE_DISTANCE_MAXIMUM_EXCEEDED; v20's on-fill twin of the reason is for a
 * price that "would be zero or negative due to the specified distance").
 */
function priceRefusal(state: AccountState, type: OrderType, order: CheckedOrder, trade: TradeRecord | undefined): string | null {
  const rule = ORDER_TYPE_RULES[type];
  const byDistance = rule.threshold === 'PRICE_OR_DISTANCE' && order.distanceInt !== undefined;
  if (rule.trigger !== 'TOUCHED' && !byDistance) return null;
  const slot = state.prices.get(trade?.instrument ?? (order.instrument as string));
  if (slot === undefined || !slot.known) return 'INSTRUMENT_PRICE_UNKNOWN';
  if (byDistance && trade !== undefined && stopLossPriceIntFromQuote(trade, order.distanceInt as number, slot) <= 0)
    return 'PRICE_DISTANCE_MAXIMUM_EXCEEDED';
  return null;
}

/** Why an order request is refused: the reject reason and what the reject transaction echoes. */
export interface OrderRefusal {
  readonly refusal: string;
  readonly echo: Record<string, unknown>;
}

/** A request whose type is no order type: a 400 without a transaction. */
interface InvalidOrder {
  readonly invalid: { readonly errorMessage: string };
}

const INVALID_TYPE: InvalidOrder = { invalid: { errorMessage: "Invalid value specified for 'order.type'" } };

/**
 * Every rule an order request must pass before anything is made of it, in v20's order: the
 * request checked, or why it is refused. Emits nothing, so a request of several parts can be
 * checked whole before any part is made (decideSetTradeOrders).
 */
export function checkCreateOrder(
  b: Batch,
  request: OrderRequest,
  replaces: OrderRecord | undefined,
  earlier: EarlierParts = NO_EARLIER_PARTS,
): CheckedOrder | OrderRefusal | InvalidOrder {
  const state = b.state;
  if (request === null || typeof request !== 'object' || !isOrderType(request.type)) return INVALID_TYPE;
  const type = request.type;
  const trade = isDependent(type) ? openTradeOf(state, request) : undefined;
  const tradeId = trade?.id;
  const checked = checkOrderRequest(type, request, state.instruments, trade?.instrument, b.now, state.memo.decimals);
  if (!checked.ok) return { refusal: checked.rejectReason, echo: checked.echo };
  const order = checked.order;
  // A terminal (MT4) account takes no client extensions: refused before anything else of the account's.
  const terminal = terminalOrderRefusal(state, order);
  if (terminal !== null) return { refusal: terminal, echo: sentEcho(order) };
  if (isDependent(type) && tradeId === undefined) return { refusal: 'TRADE_DOESNT_EXIST', echo: sentEcho(order) };
  const refusal = accountRefusal(b, type, order.clientExtensions?.id, order.tradeClientExtensions?.id, tradeId, replaces, earlier);
  if (refusal !== null) return { refusal, echo: sentEcho(order) };
  if (openOnlyAgainst(state, order)) return { refusal: OPEN_ONLY_REJECT_REASON, echo: sentEcho(order) };
  const unpriced = priceRefusal(state, type, order, trade);
  if (unpriced !== null) return { refusal: unpriced, echo: sentEcho(order) };
  // A price, but no chain of quoted pairs converts it to the account currency: v20 has no rate to
  // value a MARKET fill with (INSTRUMENT_PRICE_UNKNOWN, TransactionRejectReason); a resting order waits.
  const instrument = trade?.instrument ?? (order.instrument as string);
  if (ORDER_TYPE_RULES[type].trigger === null && state.prices.get(instrument)?.known === true && !canConvertToHome(state, instrument))
    return { refusal: 'INSTRUMENT_PRICE_UNKNOWN', echo: sentEcho(order) };
  return order;
}
