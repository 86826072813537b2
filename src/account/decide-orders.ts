import { formatPriceInt } from '../domain/price.js';
import type { Micros } from '../domain/time.js';
import { rejectMessage } from '../domain/reject-reasons.js';
import type {
  OrderCancelRejectTransaction,
  OrderClientExtensionsModifyTransaction,
  OrderTransaction,
  Transaction,
} from '../domain/transactions.js';
import { watchedSource, watchedValue2, type TriggerCondition } from '../matching/fill-rules.js';
import { shaped } from '../domain/transaction-json.js';
import { ENTRY_ORDER_JSON } from '../domain/transaction-shapes.js';
import { ORDER_TYPE_RULES, type OrderType } from '../domain/order-types.js';
import { checkClientExtensions } from '../orders/client-extensions.js';
import { checkOrderRequest, type CheckedOrder, type OrderRequest } from '../orders/request.js';
import { checkCreateOrder, isDependent, openTradeOf, type OrderRefusal } from './check-order.js';
import type { Batch } from './batch.js';
import type { Outcome } from './commands.js';
import { canConvertToHome } from './home-currency.js';
import { cancelOrder, type FillResult } from './fill.js';
import { isCrossedNow, stopLossPriceFromQuote } from './placement.js';
import { findOrder } from './specifiers.js';
import { instrumentSpec, isTradeableAt, type AccountState, type OrderRecord, type PriceSlot, type TradeRecord } from './state.js';
import { isTerminalAccount, terminalModifyRefusal } from './third-party-terminal.js';
import { executeTriggered } from './trigger.js';

/** A client can reach the order (cancel, replace, modify): pending and of a cancellable type. */
function isClientPending(order: OrderRecord | undefined): order is OrderRecord {
  return order !== undefined && order.state === 'PENDING' && ORDER_TYPE_RULES[order.type].cancellable;
}

const NOT_FOUND_REASONS: ReadonlySet<string> = new Set(['ORDER_DOESNT_EXIST', 'TRADE_DOESNT_EXIST']);

export function rejected(b: Batch, response: Record<string, Transaction>, reason: string): Outcome {
  return {
    transactions: b.transactions,
    response,
    reject: { errorCode: reason, errorMessage: rejectMessage(reason), notFound: NOT_FOUND_REASONS.has(reason) },
  };
}

export function accepted(b: Batch, response: Record<string, Transaction>): Outcome {
  return { transactions: b.transactions, response };
}

function addFillResult(response: Record<string, Transaction>, result: FillResult, cancelKey: string): void {
  if (result.kind === 'cancelled') {
    response[cancelKey] = result.cancel;
    return;
  }
  response['orderFillTransaction'] = result.fill;
  // A resting order filled in part is reissued for the rest (fill/reissue.ts; v3-interface section 4.1).
  const reissue = result.reissue;
  if (reissue?.reissued !== undefined) response['orderReissueTransaction'] = reissue.reissued;
  if (reissue?.rejected !== undefined) response['orderReissueRejectTransaction'] = reissue.rejected;
}

/**
 * The creation transaction's own members: the request as echoed, the trade it is attached to, a
 * stop loss's price from its distance, a MARKET_IF_TOUCHED's market at creation.
 */
function creationBody(
  state: AccountState,
  type: OrderType,
  request: OrderRequest,
  order: CheckedOrder,
  tradeId: number | undefined,
): Record<string, unknown> {
  // Object.assign keeps one hidden class for every order of a shape; a spread makes one per object.
  // An entry order's members come in one order (the echo's, then the fields below): it prints
  // through its shape; a dependent order's echo is reordered below, so it prints through JSON.stringify.
  const body: Record<string, unknown> = Object.assign({}, order.echo);
  if (tradeId !== undefined) {
    body['tradeID'] = String(tradeId);
    delete body['clientTradeID'];
    const trade = state.trades.get(tradeId);
    const clientTradeId = trade?.clientExtensions?.id;
    if (clientTradeId !== undefined) body['clientTradeID'] = clientTradeId;
  }
  if (ORDER_TYPE_RULES[type].threshold === 'PRICE_OR_DISTANCE' && order.distanceInt !== undefined && tradeId !== undefined) {
    // From the current price, not the trade's open price (StopLossOrderRequest.distance; fill-rules.ts distanceBasePrice).
    const trade = state.trades.get(tradeId) as TradeRecord;
    const precision = instrumentSpec(state, trade.instrument).displayPrecision;
    const slot = state.prices.get(trade.instrument) as PriceSlot;
    body['price'] = stopLossPriceFromQuote(trade, request.distance as string, slot, precision);
    // keep v20's field order: price before distance
    const distance = body['distance'];
    delete body['distance'];
    const reordered: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      reordered[k] = v;
      if (k === 'price') reordered['distance'] = distance;
    }
    for (const k of Object.keys(body)) delete body[k];
    Object.assign(body, reordered);
  }
  if (ORDER_TYPE_RULES[type].trigger === 'TOUCHED') {
    const slot = state.prices.get(order.instrument as string) as PriceSlot;
    const isBuy = order.units?.isPositive() ?? true;
    const source = watchedSource(isBuy, order.triggerCondition as TriggerCondition);
    const watched2 = watchedValue2(source, slot.bid, slot.ask);
    const precision = state.instruments.get(order.instrument as string)?.displayPrecision ?? 5;
    // Mid can fall between ticks; the grid price nearest below stands for it.
    body['initialMarketPrice'] = formatPriceInt(Math.floor(watched2 / 2), precision);
  }
  return body;
}

/**
 * The reject transaction of a refused creation (or replacement). A module function rather than a
 * closure per request: every order creation would allocate one (and, under tsx, call __name).
 */
export function rejectTransaction(b: Batch, replaces: OrderRecord | undefined, refused: OrderRefusal): OrderTransaction {
  const echo = refused.echo;
  const body: Record<string, unknown> = { ...echo, type: `${echo['type'] as string}_REJECT` };
  body['reason'] = replaces === undefined ? 'CLIENT_ORDER' : 'REPLACEMENT';
  if (replaces !== undefined) body['intendedReplacesOrderID'] = String(replaces.id);
  body['rejectReason'] = refused.refusal;
  return b.emit<OrderTransaction>(body as never);
}

/**
 * Creates an order (or the replacement of `replaces`): a reject transaction if the request breaks
 * a rule, otherwise the creation transaction, then an immediate fill or cancel where the order
 * cannot rest (MARKET, a marketable pending order, FOK/IOC).
 */
export function decideCreateOrder(b: Batch, request: OrderRequest, replaces?: OrderRecord): Outcome {
  const state = b.state;
  const response: Record<string, Transaction> = {};
  const checked = checkCreateOrder(b, request, replaces);
  if ('invalid' in checked) return { transactions: [], response, invalid: checked.invalid };
  if ('refusal' in checked) {
    response['orderRejectTransaction'] = rejectTransaction(b, replaces, checked);
    return rejected(b, response, checked.refusal);
  }
  const order = checked;
  const type = order.type;
  const dependent = isDependent(type);
  const tradeId = dependent ? openTradeOf(state, request)?.id : undefined;
  const rule = ORDER_TYPE_RULES[type];

  const created = inheritedExtensions(state, type, request, replaces, b.now) ?? order;
  let cancellingTransactionID: string | undefined;
  if (replaces !== undefined) {
    const cancel = cancelOrder(b, replaces, 'CLIENT_REQUEST_REPLACED', { replacedByOrderID: String(b.nextId + 1) });
    response['orderCancelTransaction'] = cancel;
    cancellingTransactionID = cancel.id;
  }
  const body = creationBody(state, type, request, created, tradeId);
  body['reason'] = replaces === undefined ? 'CLIENT_ORDER' : 'REPLACEMENT';
  if (replaces !== undefined) {
    body['replacesOrderID'] = String(replaces.id);
    if (cancellingTransactionID !== undefined) body['cancellingTransactionID'] = cancellingTransactionID;
  }
  const create = b.emit<OrderTransaction>((dependent ? body : shaped(body, ENTRY_ORDER_JSON)) as never);
  response['orderCreateTransaction'] = create;
  const record = state.orders.get(Number(create.id)) as OrderRecord;
  const cancelKey = replaces === undefined ? 'orderCancelTransaction' : 'replacingOrderCancelTransaction';

  // Outside trading hours, or before the session's first quote, an order that can rest rests:
  // only a tradeable quote triggers it (market-hours.ts); the fill path halts a MARKET order.
  const live = isTradeableAt(state.prices.get(record.instrument), b.now);
  if (rule.trigger === null || (live && canConvertToHome(state, record.instrument) && isCrossedNow(state, record))) {
    addFillResult(response, executeTriggered(b, record), cancelKey);
  } else if (order.timeInForce === 'FOK' || order.timeInForce === 'IOC') {
    response[cancelKey] = cancelOrder(b, record, live ? 'TIME_IN_FORCE_EXPIRED' : 'MARKET_HALTED');
  }
  return accepted(b, response);
}

/**
 * An accepted replacement that names no client extensions takes the replaced order's, client ID
 * included (which then finds the replacement), as v20 does: oandapyV20's replace fixture sends an
 * order without them and gets a REPLACEMENT order carrying the old one's. The request is checked
 * again with them, so they print where v20 prints them; a refused replacement echoes what was sent.
 */
function inheritedExtensions(
  state: AccountState,
  type: OrderType,
  request: OrderRequest,
  replaces: OrderRecord | undefined,
  now: Micros,
): CheckedOrder | undefined {
  if (replaces?.clientExtensions === undefined || request.clientExtensions !== undefined) return undefined;
  const trade = isDependent(type) ? openTradeOf(state, request) : undefined;
  const inheriting = { ...request, clientExtensions: replaces.clientExtensions };
  const checked = checkOrderRequest(type, inheriting, state.instruments, trade?.instrument, now, state.memo.decimals);
  return checked.ok ? checked.order : undefined;
}

/** The ORDER_CANCEL_REJECT of a cancel or replace that names no order a client can reach. */
function refuseMissingOrder(b: Batch, specifier: string, order: OrderRecord | undefined): Outcome {
  const response: Record<string, Transaction> = {};
  const body: Record<string, unknown> = { type: 'ORDER_CANCEL_REJECT' };
  if (order !== undefined) body['orderID'] = String(order.id);
  if (specifier.startsWith('@')) body['clientOrderID'] = specifier.slice(1);
  body['rejectReason'] = 'ORDER_DOESNT_EXIST';
  response['orderCancelRejectTransaction'] = b.emit<OrderCancelRejectTransaction>(body as never);
  return rejected(b, response, 'ORDER_DOESNT_EXIST');
}

export function decideCancelOrder(b: Batch, specifier: string): Outcome {
  const order = findOrder(b.state, specifier);
  if (!isClientPending(order)) return refuseMissingOrder(b, specifier, order);
  const response: Record<string, Transaction> = {};
  response['orderCancelTransaction'] = cancelOrder(b, order, 'CLIENT_REQUEST');
  return accepted(b, response);
}

export function decideReplaceOrder(b: Batch, specifier: string, request: OrderRequest): Outcome {
  const order = findOrder(b.state, specifier);
  if (!isClientPending(order)) return refuseMissingOrder(b, specifier, order);
  return decideCreateOrder(b, request, order);
}

export function decideModifyOrderExtensions(
  b: Batch,
  specifier: string,
  clientExtensions: unknown,
  tradeClientExtensions: unknown,
): Outcome {
  const state = b.state;
  const order = findOrder(state, specifier);
  const response: Record<string, Transaction> = {};
  const body: Record<string, unknown> = { type: 'ORDER_CLIENT_EXTENSIONS_MODIFY' };
  if (order !== undefined) body['orderID'] = String(order.id);
  if (specifier.startsWith('@')) body['clientOrderID'] = specifier.slice(1);
  const ce = checkClientExtensions(clientExtensions, 'CLIENT_ORDER');
  const tce = checkClientExtensions(tradeClientExtensions, 'CLIENT_TRADE');
  if (ce.ok && ce.value !== undefined) body['clientExtensionsModify'] = ce.value;
  if (tce.ok && tce.value !== undefined) body['tradeClientExtensionsModify'] = tce.value;
  let reason: string | null = null;
  if (!isClientPending(order)) reason = 'ORDER_DOESNT_EXIST';
  else if (!ce.ok) reason = ce.reason;
  else if (!tce.ok) reason = tce.reason;
  else if (ce.value === undefined && tce.value === undefined) reason = 'CLIENT_EXTENSIONS_DATA_MISSING';
  else if (isTerminalAccount(state)) reason = terminalModifyRefusal(ce.value, 'CLIENT_ORDER', tce.value);
  else if (ce.value?.id !== undefined && state.clientOrderIds.has(ce.value.id) && state.clientOrderIds.get(ce.value.id) !== order.id)
    reason = 'CLIENT_ORDER_ID_ALREADY_EXISTS';
  else if (tce.value?.id !== undefined && state.clientTradeIds.has(tce.value.id)) reason = 'CLIENT_TRADE_ID_ALREADY_EXISTS';
  if (reason !== null) {
    body['type'] = 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT';
    body['rejectReason'] = reason;
    response['orderClientExtensionsModifyRejectTransaction'] = b.emit<OrderClientExtensionsModifyTransaction>(body as never);
    return rejected(b, response, reason);
  }
  response['orderClientExtensionsModifyTransaction'] = b.emit<OrderClientExtensionsModifyTransaction>(body as never);
  return accepted(b, response);
}
