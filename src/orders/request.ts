import { Decimal, decimalOf, isDecimalString } from '../domain/decimal.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { decimalToPriceInt, parsePriceInt } from '../domain/price.js';
import { parseScaled } from '../domain/scaled-int.js';
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';
import type {
  ClientExtensions, OrderTransactionType, OrderType, StopLossDetails, TakeProfitDetails, TrailingStopLossDetails,
} from '../domain/transactions.js';
import { ORDER_TYPES } from '../domain/order-types.js';

/** An order request as a client sends it (body element `order`); values are unchecked. */
export interface OrderRequest {
  type?: unknown;
  instrument?: unknown;
  units?: unknown;
  price?: unknown;
  distance?: unknown;
  priceBound?: unknown;
  timeInForce?: unknown;
  gtdTime?: unknown;
  positionFill?: unknown;
  triggerCondition?: unknown;
  tradeID?: unknown;
  clientTradeID?: unknown;
  clientExtensions?: unknown;
  tradeClientExtensions?: unknown;
  takeProfitOnFill?: unknown;
  stopLossOnFill?: unknown;
  trailingStopLossOnFill?: unknown;
}

export const TIME_IN_FORCE = ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'] as const;
export const POSITION_FILL = ['DEFAULT', 'OPEN_ONLY', 'REDUCE_FIRST', 'REDUCE_ONLY'] as const;
export const TRIGGER_CONDITION = ['DEFAULT', 'INVERSE', 'BID', 'ASK', 'MID'] as const;

/** v20's allowed time-in-force per order type, and the default when none is sent. */
export const TIME_IN_FORCE_RULES: Readonly<Record<OrderType, { allowed: readonly string[]; default: string }>> = {
  MARKET: { allowed: ['FOK', 'IOC'], default: 'FOK' },
  LIMIT: { allowed: ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'], default: 'GTC' },
  STOP: { allowed: ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'], default: 'GTC' },
  MARKET_IF_TOUCHED: { allowed: ['GTC', 'GTD', 'GFD'], default: 'GTC' },
  TAKE_PROFIT: { allowed: ['GTC', 'GTD', 'GFD'], default: 'GTC' },
  STOP_LOSS: { allowed: ['GTC', 'GTD', 'GFD'], default: 'GTC' },
  TRAILING_STOP_LOSS: { allowed: ['GTC', 'GTD', 'GFD'], default: 'GTC' },
};
const ON_FILL_TIME_IN_FORCE = ['GTC', 'GTD', 'GFD'];

export function isOrderType(value: unknown): value is OrderType {
  return typeof value === 'string' && (ORDER_TYPES as readonly string[]).includes(value);
}

/** The parsed, checked order: what decide() needs beyond the echoed transaction fields. */
export interface CheckedOrder {
  readonly type: OrderType;
  /** Transaction fields in v20 order, defaults filled in; the creation or reject transaction body. */
  readonly echo: Record<string, unknown>;
  readonly instrument: string | undefined;
  readonly units: Decimal | undefined;
  readonly priceInt: number | undefined;
  readonly priceBoundInt: number | undefined;
  readonly distanceInt: number | undefined;
  readonly timeInForce: string;
  readonly gtd: Micros | undefined;
  readonly positionFill: string;
  readonly triggerCondition: string;
  readonly tradeID: string | undefined;
  readonly clientTradeID: string | undefined;
  readonly clientExtensions: ClientExtensions | undefined;
  readonly tradeClientExtensions: ClientExtensions | undefined;
  readonly takeProfitOnFill: TakeProfitDetails | undefined;
  readonly stopLossOnFill: StopLossDetails | undefined;
  readonly trailingStopLossOnFill: TrailingStopLossDetails | undefined;
}

export type CheckResult =
  | { ok: true; order: CheckedOrder }
  | { ok: false; rejectReason: string; type: OrderType; echo: Record<string, unknown> };

export function transactionTypeOf(type: OrderType): OrderTransactionType {
  return `${type}_ORDER`;
}

const WHOLE_LIMITS = new Map<string, number | null>();

/** An instrument's unit limit as a safe whole number (null when it has a fraction), parsed once. */
function wholeLimit(text: string): number | null {
  let n = WHOLE_LIMITS.get(text);
  if (n === undefined) {
    n = parseScaled(text, 0);
    if (WHOLE_LIMITS.size >= 1024) WHOLE_LIMITS.clear();
    WHOLE_LIMITS.set(text, n);
  }
  return n;
}

function isStr(value: unknown): value is string {
  return typeof value === 'string';
}

/** Client extensions: strings of bounded length; the id may not start with '@' (it would be ambiguous). */
export function checkClientExtensions(value: unknown, prefix: 'CLIENT_ORDER' | 'CLIENT_TRADE'): { ok: true; value: ClientExtensions | undefined } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: `${prefix}_ID_INVALID` };
  const v = value as Record<string, unknown>;
  const out: ClientExtensions = {};
  const max = LIMITS.clientExtensionFieldLength;
  if (v['id'] !== undefined) {
    if (!isStr(v['id']) || v['id'].length === 0 || v['id'].length > max || v['id'].startsWith('@')) return { ok: false, reason: `${prefix}_ID_INVALID` };
    out.id = v['id'];
  }
  if (v['tag'] !== undefined) {
    if (!isStr(v['tag']) || v['tag'].length > max) return { ok: false, reason: `${prefix}_TAG_INVALID` };
    out.tag = v['tag'];
  }
  if (v['comment'] !== undefined) {
    if (!isStr(v['comment']) || v['comment'].length > max) return { ok: false, reason: `${prefix}_COMMENT_INVALID` };
    out.comment = v['comment'];
  }
  return { ok: true, value: out };
}

type PriceCheck = { ok: true; int: number } | { ok: false; reason: 'INVALID' | 'PRECISION' };

export function checkPrice(value: unknown, precision: number, allowZero = false): PriceCheck {
  if (!isDecimalString(value)) return { ok: false, reason: 'INVALID' };
  if (!value.startsWith('-')) {
    // The common case, without building a Decimal; refusals fall through to say why.
    const fast = parsePriceInt(value, precision);
    if (fast !== null && (fast !== 0 || allowZero)) return { ok: true, int: fast };
  }
  const d = new Decimal(value);
  if (d.isNegative() || (!allowZero && d.isZero())) return { ok: false, reason: 'INVALID' };
  const int = decimalToPriceInt(d, precision);
  if (int === null) return { ok: false, reason: 'PRECISION' };
  if (!Number.isSafeInteger(int)) return { ok: false, reason: 'INVALID' };
  return { ok: true, int };
}

function checkGtd(timeInForce: string, gtdTime: unknown, now: Micros): { ok: true; gtd: Micros | undefined } | { ok: false; reason: 'MISSING' | 'IN_PAST' | 'INVALID' } {
  if (timeInForce !== 'GTD') return { ok: true, gtd: undefined };
  if (gtdTime === undefined) return { ok: false, reason: 'MISSING' };
  const t = isStr(gtdTime) ? parseDateTime(gtdTime) : null;
  if (t === null) return { ok: false, reason: 'INVALID' };
  if (t <= now) return { ok: false, reason: 'IN_PAST' };
  return { ok: true, gtd: t };
}

/**
 * A DateTime as transactions carry it: RFC3339 UTC with nine digits, whatever format or offset the
 * client sent (the response converts it back for UNIX clients). Unreadable text is echoed as is.
 */
function normalizeDateTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = parseDateTime(value);
  return t === null ? value : formatRfc3339(t);
}

/**
 * Client extensions as echoed in transactions: only v20's three fields, whatever else the client
 * sent (an unknown key would otherwise be stored, echoed and journaled). A non-object is echoed as
 * is so the reject shows what was refused.
 */
export function echoExtensions(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['id', 'tag', 'comment']) if (v[key] !== undefined) out[key] = v[key];
  return out;
}

/** Copies the keys of an on-fill detail object in v20 order, with the GTC default. */
function echoDetails(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (value[k] !== undefined) out[k] = k === 'clientExtensions' ? echoExtensions(value[k]) : k === 'gtdTime' ? normalizeDateTime(value[k]) : value[k];
  if (out['timeInForce'] === undefined) out['timeInForce'] = 'GTC';
  return out;
}

function buildEcho(type: OrderType, r: OrderRequest, tif: unknown, positionFill: unknown, trigger: unknown): Record<string, unknown> {
  const e: Record<string, unknown> = { type: transactionTypeOf(type) };
  const put = (k: string, v: unknown): void => { if (v !== undefined) e[k] = v; };
  const entry = type === 'MARKET' || type === 'LIMIT' || type === 'STOP' || type === 'MARKET_IF_TOUCHED';
  if (entry) {
    put('instrument', r.instrument);
    put('units', r.units);
    if (type !== 'MARKET') put('price', r.price);
    if (type !== 'LIMIT') put('priceBound', r.priceBound);
    put('timeInForce', tif);
    put('gtdTime', normalizeDateTime(r.gtdTime));
    if (type !== 'MARKET') {
      put('triggerCondition', trigger);
      e['partialFill'] = 'DEFAULT';
    }
    put('positionFill', positionFill);
  } else {
    put('tradeID', r.tradeID);
    put('clientTradeID', r.clientTradeID);
    if (type !== 'TRAILING_STOP_LOSS') put('price', r.price);
    put('distance', r.distance);
    put('timeInForce', tif);
    put('gtdTime', normalizeDateTime(r.gtdTime));
    put('triggerCondition', trigger);
  }
  put('clientExtensions', echoExtensions(r.clientExtensions));
  if (entry) {
    if (r.takeProfitOnFill !== undefined && r.takeProfitOnFill !== null && typeof r.takeProfitOnFill === 'object') {
      e['takeProfitOnFill'] = echoDetails(r.takeProfitOnFill as Record<string, unknown>, ['price', 'timeInForce', 'gtdTime', 'clientExtensions']);
    }
    if (r.stopLossOnFill !== undefined && r.stopLossOnFill !== null && typeof r.stopLossOnFill === 'object') {
      e['stopLossOnFill'] = echoDetails(r.stopLossOnFill as Record<string, unknown>, ['price', 'distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    }
    if (r.trailingStopLossOnFill !== undefined && r.trailingStopLossOnFill !== null && typeof r.trailingStopLossOnFill === 'object') {
      e['trailingStopLossOnFill'] = echoDetails(r.trailingStopLossOnFill as Record<string, unknown>, ['distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    }
    put('tradeClientExtensions', echoExtensions(r.tradeClientExtensions));
  }
  return e;
}

/**
 * Checks an order request against v20's rules for its type, in the order v20 reports them. The
 * order type must already be known good (a request without a usable type is malformed input,
 * stopped before it reaches an account). Account-dependent rules (trade exists, client ID free,
 * pending limit) are the account's to check.
 */
export function checkOrderRequest(type: OrderType, r: OrderRequest, instruments: ReadonlyMap<string, InstrumentSpec>, tradeInstrument: string | undefined, now: Micros): CheckResult {
  const rules = TIME_IN_FORCE_RULES[type];
  const tif = r.timeInForce ?? rules.default;
  const entry = type === 'MARKET' || type === 'LIMIT' || type === 'STOP' || type === 'MARKET_IF_TOUCHED';
  const positionFill = entry ? (r.positionFill ?? 'DEFAULT') : undefined;
  const trigger = type === 'MARKET' ? undefined : (r.triggerCondition ?? 'DEFAULT');
  const echo = buildEcho(type, r, tif, positionFill, trigger);
  const reject = (rejectReason: string): CheckResult => ({ ok: false, rejectReason, type, echo });

  let spec: InstrumentSpec | undefined;
  let units: Decimal | undefined;
  let instrument: string | undefined;
  if (entry) {
    if (r.instrument === undefined) return reject('INSTRUMENT_MISSING');
    if (!isStr(r.instrument)) return reject('INSTRUMENT_UNKNOWN');
    spec = instruments.get(r.instrument);
    if (spec === undefined) return reject('INSTRUMENT_UNKNOWN');
    instrument = r.instrument;
    if (r.units === undefined) return reject('UNITS_MISSING');
    if (!isDecimalString(r.units)) return reject('UNITS_INVALID');
    // Shared Decimals: the same unit counts and instrument limits come back on every order.
    units = decimalOf(r.units);
    if (units.isZero()) return reject('UNITS_INVALID');
    if (units.decimalPlaces() > spec.tradeUnitsPrecision) return reject('UNITS_PRECISION_EXCEEDED');
    const whole = parseScaled(r.units, 0);
    const max = wholeLimit(spec.maximumOrderUnits);
    const min = wholeLimit(spec.minimumTradeSize);
    if (whole !== null && max !== null && min !== null) {
      // Whole units against whole limits: the same comparisons on exact integers.
      const size = Math.abs(whole);
      if (size > max) return reject('UNITS_LIMIT_EXCEEDED');
      if (size < min) return reject('UNITS_MINIMUM_NOT_MET');
    } else {
      const size = units.abs();
      if (size.greaterThan(decimalOf(spec.maximumOrderUnits))) return reject('UNITS_LIMIT_EXCEEDED');
      if (size.lessThan(decimalOf(spec.minimumTradeSize))) return reject('UNITS_MINIMUM_NOT_MET');
    }
  } else {
    instrument = tradeInstrument;
    spec = tradeInstrument === undefined ? undefined : instruments.get(tradeInstrument);
  }
  const precision = spec?.displayPrecision ?? 5;

  let priceInt: number | undefined;
  let distanceInt: number | undefined;
  if (type === 'STOP_LOSS') {
    if (r.price !== undefined && r.distance !== undefined) return reject('STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_SPECIFIED');
    if (r.price === undefined && r.distance === undefined) return reject('STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_MISSING');
  }
  if (type !== 'MARKET' && type !== 'TRAILING_STOP_LOSS' && !(type === 'STOP_LOSS' && r.distance !== undefined)) {
    if (r.price === undefined) return reject('PRICE_MISSING');
    const p = checkPrice(r.price, precision);
    if (!p.ok) return reject(p.reason === 'INVALID' ? 'PRICE_INVALID' : 'PRICE_PRECISION_EXCEEDED');
    priceInt = p.int;
  }
  if (type === 'TRAILING_STOP_LOSS' || (type === 'STOP_LOSS' && r.distance !== undefined)) {
    if (r.distance === undefined) return reject('PRICE_DISTANCE_MISSING');
    const d = checkPrice(r.distance, precision);
    if (!d.ok) return reject(d.reason === 'INVALID' ? 'PRICE_DISTANCE_INVALID' : 'PRICE_DISTANCE_PRECISION_EXCEEDED');
    distanceInt = d.int;
    if (type === 'TRAILING_STOP_LOSS' && spec !== undefined) {
      const dist = new Decimal(r.distance as string);
      if (dist.greaterThan(spec.maximumTrailingStopDistance)) return reject('PRICE_DISTANCE_MAXIMUM_EXCEEDED');
      if (dist.lessThan(spec.minimumTrailingStopDistance)) return reject('PRICE_DISTANCE_MINIMUM_NOT_MET');
    }
  }
  let priceBoundInt: number | undefined;
  if (r.priceBound !== undefined && type !== 'LIMIT' && entry) {
    const p = checkPrice(r.priceBound, precision);
    if (!p.ok) return reject(p.reason === 'INVALID' ? 'PRICE_BOUND_INVALID' : 'PRICE_BOUND_PRECISION_EXCEEDED');
    priceBoundInt = p.int;
  }
  if (!isStr(tif) || !(TIME_IN_FORCE as readonly string[]).includes(tif) || !rules.allowed.includes(tif)) return reject('TIME_IN_FORCE_INVALID');
  const gtd = checkGtd(tif, r.gtdTime, now);
  if (!gtd.ok) return reject(gtd.reason === 'MISSING' ? 'TIME_IN_FORCE_GTD_TIMESTAMP_MISSING' : gtd.reason === 'IN_PAST' ? 'TIME_IN_FORCE_GTD_TIMESTAMP_IN_PAST' : 'TIME_IN_FORCE_INVALID');
  if (positionFill !== undefined && (!isStr(positionFill) || !(POSITION_FILL as readonly string[]).includes(positionFill))) return reject('ORDER_FILL_POSITION_ACTION_INVALID');
  if (trigger !== undefined && (!isStr(trigger) || !(TRIGGER_CONDITION as readonly string[]).includes(trigger))) return reject('TRIGGER_CONDITION_INVALID');
  if (!entry) {
    if (r.tradeID === undefined && r.clientTradeID === undefined) return reject('TRADE_ID_UNSPECIFIED');
    if (r.tradeID !== undefined && !isStr(r.tradeID)) return reject('TRADE_DOESNT_EXIST');
    if (r.clientTradeID !== undefined && !isStr(r.clientTradeID)) return reject('TRADE_DOESNT_EXIST');
  }
  const ce = checkClientExtensions(r.clientExtensions, 'CLIENT_ORDER');
  if (!ce.ok) return reject(ce.reason);
  const tce = entry ? checkClientExtensions(r.tradeClientExtensions, 'CLIENT_TRADE') : { ok: true as const, value: undefined };
  if (!tce.ok) return reject(tce.reason);

  let takeProfitOnFill: TakeProfitDetails | undefined;
  let stopLossOnFill: StopLossDetails | undefined;
  let trailingStopLossOnFill: TrailingStopLossDetails | undefined;
  if (entry) {
    const tp = checkTakeProfitDetails(r.takeProfitOnFill, precision, now);
    if (!tp.ok) return reject(tp.reason);
    takeProfitOnFill = tp.value;
    const sl = checkStopLossDetails(r.stopLossOnFill, precision, now);
    if (!sl.ok) return reject(sl.reason);
    stopLossOnFill = sl.value;
    const tsl = checkTrailingDetails(r.trailingStopLossOnFill, spec, precision, now);
    if (!tsl.ok) return reject(tsl.reason);
    trailingStopLossOnFill = tsl.value;
    const tpId = takeProfitOnFill?.clientExtensions?.id;
    const slId = stopLossOnFill?.clientExtensions?.id;
    const tslId = trailingStopLossOnFill?.clientExtensions?.id;
    if ((tpId !== undefined && (tpId === slId || tpId === tslId)) || (slId !== undefined && slId === tslId)) return reject('ORDERS_ON_FILL_DUPLICATE_CLIENT_ORDER_IDS');
  }
  return {
    ok: true,
    order: {
      type, echo, instrument, units, priceInt, priceBoundInt, distanceInt,
      timeInForce: tif, gtd: gtd.gtd, positionFill: positionFill ?? 'DEFAULT', triggerCondition: trigger ?? 'DEFAULT',
      tradeID: isStr(r.tradeID) ? r.tradeID : undefined,
      clientTradeID: isStr(r.clientTradeID) ? r.clientTradeID : undefined,
      clientExtensions: ce.value, tradeClientExtensions: tce.value,
      takeProfitOnFill, stopLossOnFill, trailingStopLossOnFill,
    },
  };
}

type DetailCheck<T> = { ok: true; value: T | undefined } | { ok: false; reason: string };

function detailCommon(prefix: string, d: Record<string, unknown>, now: Micros): string | null {
  const tif = d['timeInForce'] ?? 'GTC';
  if (!isStr(tif) || !ON_FILL_TIME_IN_FORCE.includes(tif)) return `${prefix}_TIME_IN_FORCE_INVALID`;
  const gtd = checkGtd(tif, d['gtdTime'], now);
  if (!gtd.ok) return gtd.reason === 'MISSING' ? `${prefix}_GTD_TIMESTAMP_MISSING` : gtd.reason === 'IN_PAST' ? `${prefix}_GTD_TIMESTAMP_IN_PAST` : `${prefix}_TIME_IN_FORCE_INVALID`;
  const ce = checkClientExtensions(d['clientExtensions'], 'CLIENT_ORDER');
  if (!ce.ok) return `${prefix}_${ce.reason}`;
  return null;
}

function asDetails(value: unknown): Record<string, unknown> | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

export function checkTakeProfitDetails(value: unknown, precision: number, now: Micros): DetailCheck<TakeProfitDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'TAKE_PROFIT_ON_FILL_PRICE_INVALID' };
  if (d['price'] === undefined) return { ok: false, reason: 'TAKE_PROFIT_ON_FILL_PRICE_MISSING' };
  const p = checkPrice(d['price'], precision);
  if (!p.ok) return { ok: false, reason: p.reason === 'INVALID' ? 'TAKE_PROFIT_ON_FILL_PRICE_INVALID' : 'TAKE_PROFIT_ON_FILL_PRICE_PRECISION_EXCEEDED' };
  const common = detailCommon('TAKE_PROFIT_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as TakeProfitDetails };
}

export function checkStopLossDetails(value: unknown, precision: number, now: Micros): DetailCheck<StopLossDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_INVALID' };
  if (d['price'] !== undefined && d['distance'] !== undefined) return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_SPECIFIED' };
  if (d['price'] === undefined && d['distance'] === undefined) return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_MISSING' };
  if (d['price'] !== undefined) {
    const p = checkPrice(d['price'], precision);
    if (!p.ok) return { ok: false, reason: p.reason === 'INVALID' ? 'STOP_LOSS_ON_FILL_PRICE_INVALID' : 'STOP_LOSS_ON_FILL_PRICE_PRECISION_EXCEEDED' };
  } else {
    const p = checkPrice(d['distance'], precision);
    if (!p.ok) return { ok: false, reason: p.reason === 'INVALID' ? 'STOP_LOSS_ON_FILL_DISTANCE_INVALID' : 'STOP_LOSS_ON_FILL_DISTANCE_PRECISION_EXCEEDED' };
  }
  const common = detailCommon('STOP_LOSS_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as StopLossDetails };
}

export function checkTrailingDetails(value: unknown, spec: InstrumentSpec | undefined, precision: number, now: Micros): DetailCheck<TrailingStopLossDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_INVALID' };
  if (d['distance'] === undefined) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MISSING' };
  const p = checkPrice(d['distance'], precision);
  if (!p.ok) return { ok: false, reason: p.reason === 'INVALID' ? 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_INVALID' : 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_PRECISION_EXCEEDED' };
  if (spec !== undefined) {
    const dist = new Decimal(d['distance'] as string);
    if (dist.greaterThan(spec.maximumTrailingStopDistance)) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED' };
    if (dist.lessThan(spec.minimumTrailingStopDistance)) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MINIMUM_NOT_MET' };
  }
  const common = detailCommon('TRAILING_STOP_LOSS_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as TrailingStopLossDetails };
}
