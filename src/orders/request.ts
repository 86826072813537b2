import { Decimal, DecimalMemo, isDecimalString } from '../domain/decimal.js';
import { requestedValue } from '../domain/enum-spelling.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import {
  ORDER_TYPE_RULES,
  POSITION_FILL,
  TRIGGER_CONDITION,
  type OrderType,
  type OrderTypeRule,
  type PositionFill,
  type TimeInForce,
  type TriggerCondition,
} from '../domain/order-types.js';
import { parseScaled } from '../domain/scaled-int.js';
import type { Micros } from '../domain/time.js';
import type { ClientExtensions, StopLossDetails, TakeProfitDetails, TrailingStopLossDetails } from '../domain/transactions.js';
import { checkClientExtensions } from './client-extensions.js';
import { buildEcho } from './echo.js';
import { checkGtd, checkPrice, isOneOf, isStr } from './fields.js';
import { checkOnFillOrders } from './on-fill.js';
import type { OrderRequest } from './order-request.js';

export type { OrderRequest } from './order-request.js';

/** The parsed, checked order: what decide() needs beyond the echoed transaction fields. */
export interface CheckedOrder {
  readonly type: OrderType;
  /** Transaction fields in v20 order, defaults filled in; the creation or reject transaction body. */
  readonly echo: Record<string, unknown>;
  /** The request as sent, for the echo of a refusal decided later (sentEcho). */
  readonly request: OrderRequest;
  readonly instrument: string | undefined;
  readonly units: Decimal | undefined;
  readonly priceInt: number | undefined;
  readonly priceBoundInt: number | undefined;
  readonly distanceInt: number | undefined;
  readonly timeInForce: TimeInForce;
  readonly gtd: Micros | undefined;
  readonly positionFill: PositionFill;
  readonly triggerCondition: TriggerCondition;
  readonly tradeID: string | undefined;
  readonly clientTradeID: string | undefined;
  readonly clientExtensions: ClientExtensions | undefined;
  readonly tradeClientExtensions: ClientExtensions | undefined;
  readonly takeProfitOnFill: TakeProfitDetails | undefined;
  readonly stopLossOnFill: StopLossDetails | undefined;
  readonly trailingStopLossOnFill: TrailingStopLossDetails | undefined;
}

export type CheckResult =
  { ok: true; order: CheckedOrder } | { ok: false; rejectReason: string; type: OrderType; echo: Record<string, unknown> };

type Refusal = { ok: false; reason: string };

/**
 * Checks an order request against v20's rules for its type, in the order v20 reports them. The
 * order type must already be known good (a request without a usable type is malformed input,
 * stopped before it reaches an account). Account-dependent rules (trade exists, client ID free,
 * pending limit) are the account's to check.
 */
export function checkOrderRequest(
  type: OrderType,
  r: OrderRequest,
  instruments: ReadonlyMap<string, InstrumentSpec>,
  tradeInstrument: string | undefined,
  now: Micros,
  decimals: DecimalMemo = new DecimalMemo(),
): CheckResult {
  const rule = ORDER_TYPE_RULES[type];
  const entry = rule.kind === 'ENTRY';
  const tif = r.timeInForce ?? rule.defaultTimeInForce;
  // POSITION_DEFAULT, TRIGGER_DEFAULT (the Order resource's spellings) are stored and echoed as DEFAULT (domain/enum-spelling.ts).
  const positionFill = entry ? (requestedValue('positionFill', r.positionFill) ?? 'DEFAULT') : undefined;
  const trigger = rule.triggerCondition ? (requestedValue('triggerCondition', r.triggerCondition) ?? 'DEFAULT') : undefined;
  const echoName = entry ? r.instrument : tradeInstrument;
  const echoSpec = typeof echoName === 'string' ? instruments.get(echoName) : undefined;
  const echo = buildEcho(rule, r, tif, positionFill, trigger, echoSpec?.displayPrecision);

  const market = entry ? checkInstrumentAndUnits(r, instruments, decimals) : tradeMarket(tradeInstrument, instruments);
  if (!market.ok) return reject(market.reason, type, r);
  const spec = market.spec;
  const precision = spec?.displayPrecision ?? 5;
  const threshold = checkThreshold(rule, r, spec, precision);
  if (!threshold.ok) return reject(threshold.reason, type, r);
  const bound = checkPriceBound(rule, r, precision);
  if (!bound.ok) return reject(bound.reason, type, r);
  const options = checkOptions(rule, r, tif, positionFill, trigger, now);
  if (!options.ok) return reject(options.reason, type, r);
  const ce = checkClientExtensions(r.clientExtensions, 'CLIENT_ORDER');
  if (!ce.ok) return reject(ce.reason, type, r);
  const tce = entry ? checkClientExtensions(r.tradeClientExtensions, 'CLIENT_TRADE') : { ok: true as const, value: undefined };
  if (!tce.ok) return reject(tce.reason, type, r);
  const onFill = entry ? checkOnFillOrders(r, spec, precision, now) : NO_ON_FILL;
  if (!onFill.ok) return reject(onFill.reason, type, r);
  return {
    ok: true,
    order: {
      type,
      echo,
      request: r,
      instrument: market.instrument,
      units: market.units,
      priceInt: threshold.priceInt,
      priceBoundInt: bound.int,
      distanceInt: threshold.distanceInt,
      timeInForce: options.timeInForce,
      gtd: options.gtd,
      positionFill: options.positionFill,
      triggerCondition: options.triggerCondition,
      tradeID: isStr(r.tradeID) ? r.tradeID : undefined,
      clientTradeID: isStr(r.clientTradeID) ? r.clientTradeID : undefined,
      clientExtensions: ce.value,
      tradeClientExtensions: tce.value,
      takeProfitOnFill: onFill.takeProfitOnFill,
      stopLossOnFill: onFill.stopLossOnFill,
      trailingStopLossOnFill: onFill.trailingStopLossOnFill,
    },
  };
}

const NO_BOUND = { ok: true, int: undefined } as const;

/** A MARKET-like order's priceBound, when it has one: on the grid, or why not (most orders have none: no allocation). */
function checkPriceBound(rule: OrderTypeRule, r: OrderRequest, precision: number): { ok: true; int: number | undefined } | Refusal {
  if (!rule.priceBound || r.priceBound === undefined) return NO_BOUND;
  const p = checkPrice(r.priceBound, precision);
  if (p.ok) return { ok: true, int: p.int };
  return { ok: false, reason: p.reason === 'INVALID' ? 'PRICE_BOUND_INVALID' : 'PRICE_BOUND_PRECISION_EXCEEDED' };
}

/**
 * A refused request and its echo. Module functions rather than closures per request: the checks
 * run for every order, and a closure per call is an allocation (and, under tsx, a __name call).
 */
function refused(rejectReason: string, type: OrderType, echo: Record<string, unknown>): CheckResult {
  return { ok: false, rejectReason, type, echo };
}

/** A refusal of the request's own checks, its prices echoed as sent (sentEcho); built only on the way out, as most requests pass. */
function reject(rejectReason: string, type: OrderType, r: OrderRequest): CheckResult {
  return refused(rejectReason, type, echoAsSent(type, r));
}

function refuse(reason: string): Refusal {
  return { ok: false, reason };
}

type Options =
  { ok: true; timeInForce: TimeInForce; gtd: Micros | undefined; positionFill: PositionFill; triggerCondition: TriggerCondition } | Refusal;

/** Time in force (and GTD time), position fill, trigger condition and the trade of a dependent order, in v20's order. */
function checkOptions(rule: OrderTypeRule, r: OrderRequest, tif: unknown, positionFill: unknown, trigger: unknown, now: Micros): Options {
  if (!isOneOf(rule.timeInForce, tif)) return refuse('TIME_IN_FORCE_INVALID');
  const gtd = checkGtd(tif, r.gtdTime, now);
  if (!gtd.ok) {
    if (gtd.reason === 'MISSING') return refuse('TIME_IN_FORCE_GTD_TIMESTAMP_MISSING');
    return refuse(gtd.reason === 'IN_PAST' ? 'TIME_IN_FORCE_GTD_TIMESTAMP_IN_PAST' : 'TIME_IN_FORCE_INVALID');
  }
  if (positionFill !== undefined && !isOneOf(POSITION_FILL, positionFill)) return refuse('ORDER_FILL_POSITION_ACTION_INVALID');
  if (trigger !== undefined && !isOneOf(TRIGGER_CONDITION, trigger)) return refuse('TRIGGER_CONDITION_INVALID');
  if (rule.kind === 'DEPENDENT') {
    if (r.tradeID === undefined && r.clientTradeID === undefined) return refuse('TRADE_ID_UNSPECIFIED');
    if (r.tradeID !== undefined && !isStr(r.tradeID)) return refuse('TRADE_DOESNT_EXIST');
    if (r.clientTradeID !== undefined && !isStr(r.clientTradeID)) return refuse('TRADE_DOESNT_EXIST');
  }
  return { ok: true, timeInForce: tif, gtd: gtd.gtd, positionFill: positionFill ?? 'DEFAULT', triggerCondition: trigger ?? 'DEFAULT' };
}

const NO_ON_FILL = { ok: true, takeProfitOnFill: undefined, stopLossOnFill: undefined, trailingStopLossOnFill: undefined } as const;

type Market = { ok: true; instrument: string | undefined; spec: InstrumentSpec | undefined; units: Decimal | undefined } | Refusal;

/** A dependent order trades the instrument of its trade (unknown until the account finds the trade). */
function tradeMarket(tradeInstrument: string | undefined, instruments: ReadonlyMap<string, InstrumentSpec>): Market {
  const spec = tradeInstrument === undefined ? undefined : instruments.get(tradeInstrument);
  return { ok: true, instrument: tradeInstrument, spec, units: undefined };
}

/** An entry order's instrument and units, against the instrument's precision and size limits. */
function checkInstrumentAndUnits(r: OrderRequest, instruments: ReadonlyMap<string, InstrumentSpec>, decimals: DecimalMemo): Market {
  if (r.instrument === undefined) return refuse('INSTRUMENT_MISSING');
  if (!isStr(r.instrument)) return refuse('INSTRUMENT_UNKNOWN');
  const spec = instruments.get(r.instrument);
  if (spec === undefined) return refuse('INSTRUMENT_UNKNOWN');
  if (r.units === undefined) return refuse('UNITS_MISSING');
  if (!isDecimalString(r.units)) return refuse('UNITS_INVALID');
  // Shared Decimals (the account's memo): the same unit counts and instrument limits come back on every order.
  const units = decimals.of(r.units);
  if (units.isZero()) return refuse('UNITS_INVALID');
  if (units.decimalPlaces() > spec.tradeUnitsPrecision) return refuse('UNITS_PRECISION_EXCEEDED');
  const whole = parseScaled(r.units, 0);
  const max = parseScaled(spec.maximumOrderUnits, 0);
  const min = parseScaled(spec.minimumTradeSize, 0);
  if (whole !== null && max !== null && min !== null) {
    // Whole units against whole limits: the same comparisons on exact integers.
    const size = Math.abs(whole);
    if (size > max) return refuse('UNITS_LIMIT_EXCEEDED');
    if (size < min) return refuse('UNITS_MINIMUM_NOT_MET');
  } else {
    const size = units.abs();
    if (size.greaterThan(decimals.of(spec.maximumOrderUnits))) return refuse('UNITS_LIMIT_EXCEEDED');
    if (size.lessThan(decimals.of(spec.minimumTradeSize))) return refuse('UNITS_MINIMUM_NOT_MET');
  }
  return { ok: true, instrument: r.instrument, spec, units };
}

type ThresholdCheck = { ok: true; priceInt: number | undefined; distanceInt: number | undefined } | Refusal;

/** The price or distance the order triggers at, as its type asks for it (ORDER_TYPE_RULES threshold). */
function checkThreshold(rule: OrderTypeRule, r: OrderRequest, spec: InstrumentSpec | undefined, precision: number): ThresholdCheck {
  if (rule.threshold === null) return { ok: true, priceInt: undefined, distanceInt: undefined };
  if (rule.threshold === 'PRICE_OR_DISTANCE') {
    if (r.price !== undefined && r.distance !== undefined) return refuse(`${rule.transactionType}_PRICE_AND_DISTANCE_BOTH_SPECIFIED`);
    if (r.price === undefined && r.distance === undefined) return refuse(`${rule.transactionType}_PRICE_AND_DISTANCE_BOTH_MISSING`);
  }
  const byDistance = rule.threshold === 'DISTANCE' || (rule.threshold === 'PRICE_OR_DISTANCE' && r.distance !== undefined);
  if (!byDistance) {
    if (r.price === undefined) return refuse('PRICE_MISSING');
    const p = checkPrice(r.price, precision);
    if (!p.ok) return refuse(p.reason === 'INVALID' ? 'PRICE_INVALID' : 'PRICE_PRECISION_EXCEEDED');
    return { ok: true, priceInt: p.int, distanceInt: undefined };
  }
  if (r.distance === undefined) return refuse('PRICE_DISTANCE_MISSING');
  const d = checkPrice(r.distance, precision);
  if (!d.ok) return refuse(d.reason === 'INVALID' ? 'PRICE_DISTANCE_INVALID' : 'PRICE_DISTANCE_PRECISION_EXCEEDED');
  if (rule.trigger === 'TRAILING' && spec !== undefined) {
    const dist = new Decimal(r.distance as string);
    if (dist.greaterThan(spec.maximumTrailingStopDistance)) return refuse('PRICE_DISTANCE_MAXIMUM_EXCEEDED');
    if (dist.lessThan(spec.minimumTrailingStopDistance)) return refuse('PRICE_DISTANCE_MINIMUM_NOT_MET');
  }
  return { ok: true, priceInt: undefined, distanceInt: d.int };
}

/**
 * The transaction fields of a refused order: prices and distances as sent (a live LIMIT_ORDER_REJECT
 * for units "0" shows the price "1212" as sent: spec/oanda-v20-facts.md §11); only an accepted
 * order prints them at the instrument's precision (buildEcho with it).
 */
export function sentEcho(order: CheckedOrder): Record<string, unknown> {
  return echoAsSent(order.type, order.request);
}

/** The echo of a request with the defaults checkOrderRequest fills in, and no instrument precision. */
function echoAsSent(type: OrderType, r: OrderRequest): Record<string, unknown> {
  const rule = ORDER_TYPE_RULES[type];
  const entry = rule.kind === 'ENTRY';
  const positionFill = entry ? (requestedValue('positionFill', r.positionFill) ?? 'DEFAULT') : undefined;
  const trigger = rule.triggerCondition ? (requestedValue('triggerCondition', r.triggerCondition) ?? 'DEFAULT') : undefined;
  return buildEcho(rule, r, r.timeInForce ?? rule.defaultTimeInForce, positionFill, trigger, undefined);
}
