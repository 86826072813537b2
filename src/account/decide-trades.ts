import { Decimal, formatUnits, isDecimalString } from '../domain/decimal.js';
import { unitsText as wholeUnitsText } from '../orders/echo.js';
import type { ClientExtensions, OrderTransaction, TradeClientExtensionsModifyTransaction, Transaction } from '../domain/transactions.js';
import { checkClientExtensions } from '../orders/client-extensions.js';
import { shaped } from '../domain/transaction-json.js';
import { LONG_CLOSEOUT_ORDER_JSON, SHORT_CLOSEOUT_ORDER_JSON, TRADE_CLOSE_ORDER_JSON } from '../domain/transaction-shapes.js';
import type { Batch } from './batch.js';
import type { Outcome } from './commands.js';
import { checkCreateOrder, type OrderRefusal } from './check-order.js';
import { decideCreateOrder, accepted, rejected, rejectTransaction } from './decide-orders.js';
import { TRADE_SLOT } from './placement.js';
import { isEntryType, ORDER_TYPES, type DependentOrderType } from '../domain/order-types.js';
import { cancelOrder, fillOrCancel } from './fill.js';
import { findTrade } from './specifiers.js';
import { isTerminalAccount, terminalModifyRefusal } from './third-party-terminal.js';
import type { AccountState, OrderRecord, PositionSideRecord, TradeRecord } from './state.js';
import type { OrderRequest } from '../orders/request.js';
import { sideUnits } from './side-sums.js';

function marketRejectBody(fields: Record<string, unknown>, reason: string): Record<string, unknown> {
  return { type: 'MARKET_ORDER_REJECT', ...fields, rejectReason: reason };
}

/**
 * Fills (or cancels) the REDUCE_ONLY FOK market order a close created, and puts the outcome under
 * `<prefix>FillTransaction` or `<prefix>CancelTransaction` of the response.
 */
function fillClose(
  b: Batch,
  response: Record<string, Transaction>,
  keys: CloseKeys,
  create: OrderTransaction,
  units: Decimal,
  target: { reason: string; closeTradeId: number } | { reason: string; closeSide: 'long' | 'short' },
  /** `units` as a safe whole number when the caller has it (NaN: the fill works it out). */
  unitsInt = Number.NaN,
): void {
  const order = b.state.orders.get(Number(create.id)) as OrderRecord;
  const result = fillOrCancel(b, { order, units, unitsInt, ...target, positionFill: 'REDUCE_ONLY' });
  if (result.kind === 'filled') response[keys.fill] = result.fill;
  else response[keys.cancel] = result.cancel;
}

/** The response members of a close's order (constants: a key built per close is a new string to look up). */
interface CloseKeys {
  readonly create: string;
  readonly fill: string;
  readonly cancel: string;
}

const TRADE_CLOSE_KEYS: CloseKeys = { create: 'orderCreateTransaction', fill: 'orderFillTransaction', cancel: 'orderCancelTransaction' };
const POSITION_CLOSE_KEYS: { readonly long: CloseKeys; readonly short: CloseKeys } = {
  long: { create: 'longOrderCreateTransaction', fill: 'longOrderFillTransaction', cancel: 'longOrderCancelTransaction' },
  short: { create: 'shortOrderCreateTransaction', fill: 'shortOrderFillTransaction', cancel: 'shortOrderCancelTransaction' },
};

/** The units a trade close asks for ('ALL' or a positive decimal within the trade), or the reason to refuse. */
function closeTradeUnits(b: Batch, trade: TradeRecord, unitsText: unknown): Decimal | string {
  if (unitsText === 'ALL') return trade.currentUnits.abs();
  if (!isDecimalString(unitsText) || new Decimal(unitsText).lessThanOrEqualTo(0)) return 'UNITS_INVALID';
  const units = new Decimal(unitsText);
  const spec = b.state.instruments.get(trade.instrument);
  if (spec !== undefined && units.decimalPlaces() > spec.tradeUnitsPrecision) return 'UNITS_PRECISION_EXCEEDED';
  if (units.greaterThan(trade.currentUnits.abs())) return 'CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE';
  return units;
}

/** Closes all or part of a trade with a REDUCE_ONLY FOK market order (reason TRADE_CLOSE). */
export function decideCloseTrade(b: Batch, specifier: string, unitsArg: unknown): Outcome {
  const response: Record<string, Transaction> = {};
  const trade = findTrade(b.state, specifier);
  const unitsText = unitsArg === undefined ? 'ALL' : unitsArg;
  const refuse = (reason: string, fields: Record<string, unknown>): Outcome => {
    response['orderRejectTransaction'] = b.emit<OrderTransaction>(marketRejectBody(fields, reason) as never);
    return rejected(b, response, reason);
  };
  // The units as v20 prints them ("+50" as "50"), "ALL" and anything malformed as sent.
  const shownUnits = String(wholeUnitsText(unitsText));
  const tradeClose = { tradeID: trade === undefined ? specifier : String(trade.id), units: shownUnits };
  if (trade === undefined || trade.state !== 'OPEN') {
    return refuse('TRADE_DOESNT_EXIST', { timeInForce: 'FOK', positionFill: 'REDUCE_ONLY', reason: 'TRADE_CLOSE', tradeClose });
  }
  const units = closeTradeUnits(b, trade, unitsText);
  if (typeof units === 'string') {
    return refuse(units, {
      instrument: trade.instrument,
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'TRADE_CLOSE',
      tradeClose,
    });
  }
  const signed = trade.currentUnits.isPositive() ? units.negated() : units;
  const closeInfo: Record<string, unknown> = { tradeID: String(trade.id) };
  if (trade.clientExtensions?.id !== undefined) closeInfo['clientTradeID'] = trade.clientExtensions.id;
  closeInfo['units'] = shownUnits;
  const create = b.emit<OrderTransaction>(
    shaped(
      {
        type: 'MARKET_ORDER',
        instrument: trade.instrument,
        units: formatUnits(signed),
        timeInForce: 'FOK',
        positionFill: 'REDUCE_ONLY',
        reason: 'TRADE_CLOSE',
        tradeClose: closeInfo,
      },
      TRADE_CLOSE_ORDER_JSON,
    ) as never,
  );
  response['orderCreateTransaction'] = create;
  fillClose(b, response, TRADE_CLOSE_KEYS, create, signed, { reason: 'MARKET_ORDER_TRADE_CLOSE', closeTradeId: trade.id });
  return accepted(b, response);
}

type Side = 'long' | 'short';
interface SidePlan {
  readonly key: Side;
  readonly units: Decimal;
  /** `units` as a safe whole number, NaN when it is not one. */
  readonly unitsInt: number;
  readonly text: string;
  readonly clientExtensions: ClientExtensions | undefined;
}
interface SideRefusal {
  readonly key: Side;
  readonly reason: string;
  readonly units: unknown;
}

/** What each requested side of a position close takes ('ALL' or part of it), or the first refusal. */
function planSides(
  b: Batch,
  instrument: string,
  requested: readonly { key: Side; arg: unknown }[],
  extensions: { long?: unknown; short?: unknown },
): SidePlan[] | SideRefusal {
  const position = b.state.positions.get(instrument);
  const plans: Omit<SidePlan, 'clientExtensions'>[] = [];
  for (const s of requested) {
    const side = s.key === 'long' ? position?.long : position?.short;
    const held = side === undefined ? new Decimal(0) : sideUnits(side).abs();
    if (held.isZero()) return { key: s.key, reason: 'CLOSEOUT_POSITION_DOESNT_EXIST', units: s.arg };
    if (s.arg === 'ALL') {
      plans.push({ key: s.key, units: held, unitsInt: Math.abs((side as PositionSideRecord).unitsInt), text: 'ALL' });
      continue;
    }
    if (!isDecimalString(s.arg) || new Decimal(s.arg).lessThanOrEqualTo(0))
      return { key: s.key, reason: 'CLOSEOUT_POSITION_PARTIAL_UNITS_MISSING', units: s.arg };
    const units = new Decimal(s.arg);
    if (units.greaterThan(held)) return { key: s.key, reason: 'CLOSEOUT_POSITION_UNITS_EXCEED_POSITION_SIZE', units: s.arg };
    plans.push({ key: s.key, units, unitsInt: Number.NaN, text: String(wholeUnitsText(s.arg)) });
  }
  const out: SidePlan[] = [];
  for (const plan of plans) {
    const ce = checkClientExtensions(extensions[plan.key], 'CLIENT_ORDER');
    if (!ce.ok) return { key: plan.key, reason: ce.reason, units: plan.text };
    if (ce.value?.id !== undefined && b.state.clientOrderIds.has(ce.value.id))
      return { key: plan.key, reason: 'CLIENT_ORDER_ID_ALREADY_EXISTS', units: plan.text };
    out.push({ key: plan.key, units: plan.units, unitsInt: plan.unitsInt, text: plan.text, clientExtensions: ce.value });
  }
  return out;
}

/** Closes one or both sides of a position, oldest trade first (reason POSITION_CLOSEOUT). */
export function decideClosePosition(
  b: Batch,
  instrument: string,
  longUnits: unknown,
  shortUnits: unknown,
  extensions: { long?: unknown; short?: unknown } = {},
): Outcome {
  const response: Record<string, Transaction> = {};
  // A plain list and a module-level refusal: no closure per close on the fill path.
  const requested: { key: Side; arg: unknown }[] = [];
  if (longUnits !== undefined && longUnits !== 'NONE') requested.push({ key: 'long', arg: longUnits });
  if (shortUnits !== undefined && shortUnits !== 'NONE') requested.push({ key: 'short', arg: shortUnits });
  if (!b.state.instruments.has(instrument)) return refuseClose(b, response, instrument, 'long', 'INSTRUMENT_UNKNOWN', longUnits ?? 'ALL');
  if (requested.length === 0)
    return refuseClose(b, response, instrument, 'long', 'CLOSEOUT_POSITION_INCOMPLETE_SPECIFICATION', longUnits ?? 'NONE');
  const plans = planSides(b, instrument, requested, extensions);
  if (!Array.isArray(plans)) return refuseClose(b, response, instrument, plans.key, plans.reason, plans.units);
  for (const plan of plans) {
    const long = plan.key === 'long';
    const signed = long ? plan.units.negated() : plan.units;
    const signedInt = long ? -plan.unitsInt : plan.unitsInt;
    const units = Number.isNaN(signedInt) ? formatUnits(signed) : String(signedInt);
    const closeout = { instrument, units: plan.text };
    // One literal and the side's member stored after it (a spread in the literal built each order
    // through the runtime); the member order is the literal's, then the side's, as v20 prints them.
    const body: Record<string, unknown> = {
      type: 'MARKET_ORDER',
      instrument,
      units,
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'POSITION_CLOSEOUT',
    };
    body[long ? 'longPositionCloseout' : 'shortPositionCloseout'] = closeout;
    if (plan.clientExtensions !== undefined) body['clientExtensions'] = plan.clientExtensions;
    const create = b.emit<OrderTransaction>(shaped(body, long ? LONG_CLOSEOUT_ORDER_JSON : SHORT_CLOSEOUT_ORDER_JSON) as never);
    const keys = POSITION_CLOSE_KEYS[plan.key];
    response[keys.create] = create;
    fillClose(b, response, keys, create, signed, { reason: 'MARKET_ORDER_POSITION_CLOSEOUT', closeSide: plan.key }, signedInt);
  }
  return accepted(b, response);
}

/** A position close refused before any order: the MARKET_ORDER_REJECT of the side named. */
function refuseClose(
  b: Batch,
  response: Record<string, Transaction>,
  instrument: string,
  side: Side,
  reason: string,
  units: unknown,
): Outcome {
  const closeout = { instrument, units: String(units) };
  const body = marketRejectBody(
    { instrument, timeInForce: 'FOK', positionFill: 'REDUCE_ONLY', reason: 'POSITION_CLOSEOUT', [`${side}PositionCloseout`]: closeout },
    reason,
  );
  response[`${side}OrderRejectTransaction`] = b.emit<OrderTransaction>(body as never);
  return rejected(b, response, reason);
}

export function decideModifyTradeExtensions(b: Batch, specifier: string, clientExtensions: unknown): Outcome {
  const state = b.state;
  const trade = findTrade(state, specifier);
  const response: Record<string, Transaction> = {};
  const body: Record<string, unknown> = { type: 'TRADE_CLIENT_EXTENSIONS_MODIFY' };
  if (trade !== undefined) body['tradeID'] = String(trade.id);
  if (specifier.startsWith('@')) body['clientTradeID'] = specifier.slice(1);
  const ce = checkClientExtensions(clientExtensions, 'CLIENT_TRADE');
  if (ce.ok && ce.value !== undefined) body['tradeClientExtensionsModify'] = ce.value;
  let reason: string | null = null;
  if (trade === undefined || trade.state !== 'OPEN') reason = 'TRADE_DOESNT_EXIST';
  else if (!ce.ok) reason = ce.reason;
  else if (ce.value === undefined) reason = 'CLIENT_EXTENSIONS_DATA_MISSING';
  else if (isTerminalAccount(state)) reason = terminalModifyRefusal(ce.value, 'CLIENT_TRADE');
  else if (ce.value.id !== undefined && state.clientTradeIds.has(ce.value.id) && state.clientTradeIds.get(ce.value.id) !== trade.id)
    reason = 'CLIENT_TRADE_ID_ALREADY_EXISTS';
  if (reason !== null) {
    body['type'] = 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT';
    body['rejectReason'] = reason;
    response['tradeClientExtensionsModifyRejectTransaction'] = b.emit<TradeClientExtensionsModifyTransaction>(body as never);
    return rejected(b, response, reason);
  }
  response['tradeClientExtensionsModifyTransaction'] = b.emit<TradeClientExtensionsModifyTransaction>(body as never);
  return accepted(b, response);
}

type DependentKey = 'takeProfit' | 'stopLoss' | 'trailingStopLoss';

/** TAKE_PROFIT -> takeProfit: the request member and response key prefix of a dependent type. */
function camelOf(type: DependentOrderType): DependentKey {
  return type.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as DependentKey;
}

/** The dependent order types in the table's order, with their request member and trade slot. */
const DEPENDENT_KINDS = ORDER_TYPES.filter((t): t is DependentOrderType => !isEntryType(t)).map((type) => ({
  type,
  key: camelOf(type),
  field: TRADE_SLOT[type],
}));

/** The trade's pending dependent order of a kind, the one a new order of that kind replaces. */
function pendingDependent(
  state: AccountState,
  trade: TradeRecord,
  field: (typeof DEPENDENT_KINDS)[number]['field'],
): OrderRecord | undefined {
  const id = trade[field];
  const order = id === undefined ? undefined : state.orders.get(id);
  return order?.state === 'PENDING' ? order : undefined;
}

/** The request that makes a kind's order: its details, of that type, for the trade. */
function kindRequest(kind: (typeof DEPENDENT_KINDS)[number], value: unknown, trade: TradeRecord): OrderRequest {
  const details = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return { ...details, type: kind.type, tradeID: String(trade.id) } as OrderRequest;
}

/** The first kind of a PUT trades/{id}/orders that would be refused, checked as decided in turn; undefined when none is. */
function firstRefusedKind(
  b: Batch,
  trade: TradeRecord,
  args: { takeProfit?: unknown; stopLoss?: unknown; trailingStopLoss?: unknown },
): { key: DependentKey; replaces: OrderRecord | undefined; refusal: OrderRefusal } | undefined {
  const clientOrderIds = new Set<string>();
  let pendingDelta = 0;
  for (const kind of DEPENDENT_KINDS) {
    const value = args[kind.key];
    if (value === undefined) continue;
    const existing = pendingDependent(b.state, trade, kind.field);
    if (value === null) {
      if (existing !== undefined) pendingDelta -= 1;
      continue;
    }
    const checked = checkCreateOrder(b, kindRequest(kind, value, trade), existing, { clientOrderIds, pendingDelta });
    if ('refusal' in checked) return { key: kind.key, replaces: existing, refusal: checked };
    if ('invalid' in checked) continue;
    if (existing === undefined) pendingDelta += 1;
    // A replacement that names no client extensions keeps the replaced order's: its ID stays taken.
    const clientOrderId = checked.clientExtensions?.id;
    if (clientOrderId !== undefined) clientOrderIds.add(clientOrderId);
  }
  return undefined;
}

/**
 * PUT trades/{id}/orders: for each kind sent, an object creates or replaces the trade's dependent
 * order and null cancels it; kinds not sent are left alone. Each kind goes through the same
 * creation rules as a standalone TP/SL/TSL order, and the request changes all of them or none:
 * v20's 400 answer to it holds reject transactions only ("The Trade's dependent Orders cannot be
 * modified as requested", oanda-v20-openapi.json), so a refused kind must not leave an earlier
 * kind replaced or cancelled. Every kind is checked first, as it will be decided after the ones
 * before it (their new client order IDs taken, their pending orders counted); the first refused
 * one is the only transaction.
 */
export function decideSetTradeOrders(
  b: Batch,
  specifier: string,
  args: { takeProfit?: unknown; stopLoss?: unknown; trailingStopLoss?: unknown },
): Outcome {
  const state = b.state;
  const response: Record<string, Transaction> = {};
  const trade = findTrade(state, specifier);
  if (trade === undefined || trade.state !== 'OPEN') {
    // The reject names the first kind the request asked for.
    const kind = DEPENDENT_KINDS.find((k) => args[k.key] !== undefined) ?? (DEPENDENT_KINDS[0] as (typeof DEPENDENT_KINDS)[number]);
    const body = { type: `${kind.type}_ORDER_REJECT`, tradeID: specifier, reason: 'CLIENT_ORDER', rejectReason: 'TRADE_DOESNT_EXIST' };
    response[`${kind.key}OrderRejectTransaction`] = b.emit<OrderTransaction>(body as never);
    return rejected(b, response, 'TRADE_DOESNT_EXIST');
  }
  const refused = firstRefusedKind(b, trade, args);
  if (refused !== undefined) {
    response[`${refused.key}OrderRejectTransaction`] = rejectTransaction(b, refused.replaces, refused.refusal);
    return rejected(b, response, refused.refusal.refusal);
  }
  for (const kind of DEPENDENT_KINDS) {
    const value = args[kind.key];
    if (value === undefined) continue;
    const existing = pendingDependent(state, trade, kind.field);
    if (value === null) {
      if (existing !== undefined) response[`${kind.key}OrderCancelTransaction`] = cancelOrder(b, existing, 'CLIENT_REQUEST');
      continue;
    }
    const outcome = decideCreateOrder(b, kindRequest(kind, value, trade), existing);
    const r = outcome.response;
    if (outcome.reject !== undefined) {
      if (r['orderRejectTransaction'] !== undefined) response[`${kind.key}OrderRejectTransaction`] = r['orderRejectTransaction'];
      return rejected(b, response, outcome.reject.errorCode);
    }
    if (r['orderCancelTransaction'] !== undefined && existing !== undefined)
      response[`${kind.key}OrderCancelTransaction`] = r['orderCancelTransaction'];
    if (r['orderCreateTransaction'] !== undefined) response[`${kind.key}OrderTransaction`] = r['orderCreateTransaction'];
    if (r['orderFillTransaction'] !== undefined) response[`${kind.key}OrderFillTransaction`] = r['orderFillTransaction'];
    const createdCancel = r['replacingOrderCancelTransaction'] ?? (existing === undefined ? r['orderCancelTransaction'] : undefined);
    if (createdCancel !== undefined) response[`${kind.key}OrderCreatedCancelTransaction`] = createdCancel;
    if (trade.state !== 'OPEN') break; // a dependent order that filled at once closed the trade
  }
  return accepted(b, response);
}
