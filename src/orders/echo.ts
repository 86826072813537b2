import { ON_FILL_DEFAULT_TIME_IN_FORCE, type OrderTypeRule } from '../domain/order-types.js';
import { formatPriceInt, parsePriceInt } from '../domain/price.js';
import { parseScaled } from '../domain/scaled-int.js';
import { echoExtensions } from './client-extensions.js';
import { normalizeDateTime } from './fields.js';
import type { OrderRequest } from './order-request.js';

/**
 * The fields of an order request as its creation (or reject) transaction carries them: only the
 * fields the order type has, in v20's order, with defaults filled in. Prices and distances that fit
 * the instrument's precision print at it ("1.2" as "1.20000") and whole units without sign or
 * fraction ("+100", "100.0" as "100"), as v20 prints them; anything else is echoed as sent, so a
 * reject shows what was refused. `precision` is the instrument's displayPrecision (undefined: the
 * instrument is unknown, everything is echoed as sent).
 */
export function buildEcho(
  rule: OrderTypeRule,
  r: OrderRequest,
  tif: unknown,
  positionFill: unknown,
  trigger: unknown,
  precision?: number,
): Record<string, unknown> {
  const e: Record<string, unknown> = { type: rule.transactionType };
  const entry = rule.kind === 'ENTRY';
  if (entry) {
    put(e, 'instrument', r.instrument);
    put(e, 'units', unitsText(r.units));
    if (rule.threshold !== null) put(e, 'price', priceText(r.price, precision));
    if (rule.priceBound) put(e, 'priceBound', priceText(r.priceBound, precision));
    put(e, 'timeInForce', tif);
    put(e, 'gtdTime', normalizeDateTime(r.gtdTime));
    if (rule.triggerCondition) {
      put(e, 'triggerCondition', trigger);
      e['partialFill'] = 'DEFAULT';
    }
    put(e, 'positionFill', positionFill);
  } else {
    put(e, 'tradeID', r.tradeID);
    put(e, 'clientTradeID', r.clientTradeID);
    if (rule.threshold !== 'DISTANCE') put(e, 'price', priceText(r.price, precision));
    put(e, 'distance', priceText(r.distance, precision));
    put(e, 'timeInForce', tif);
    put(e, 'gtdTime', normalizeDateTime(r.gtdTime));
    put(e, 'triggerCondition', trigger);
  }
  put(e, 'clientExtensions', echoExtensions(r.clientExtensions));
  if (entry) {
    echoDetails(e, 'takeProfitOnFill', r.takeProfitOnFill, ['price', 'timeInForce', 'gtdTime', 'clientExtensions'], precision);
    echoDetails(e, 'stopLossOnFill', r.stopLossOnFill, ['price', 'distance', 'timeInForce', 'gtdTime', 'clientExtensions'], precision);
    echoDetails(
      e,
      'trailingStopLossOnFill',
      r.trailingStopLossOnFill,
      ['distance', 'timeInForce', 'gtdTime', 'clientExtensions'],
      precision,
    );
    put(e, 'tradeClientExtensions', echoExtensions(r.tradeClientExtensions));
  }
  return e;
}

/** Sets a member that was given (a module function: a closure per echo is an allocation, and a __name call under tsx). */
function put(e: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== undefined) e[k] = v;
}

/** Copies the keys of an on-fill detail object in v20 order, with the default time in force; a non-object is left out. */
function echoDetails(
  e: Record<string, unknown>,
  key: string,
  details: unknown,
  keys: readonly string[],
  precision: number | undefined,
): void {
  if (details === undefined || details === null || typeof details !== 'object') return;
  const value = details as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (value[k] === undefined) continue;
    const v = value[k];
    out[k] =
      k === 'clientExtensions'
        ? echoExtensions(v)
        : k === 'gtdTime'
          ? normalizeDateTime(v)
          : k === 'price' || k === 'distance'
            ? priceText(v, precision)
            : v;
  }
  if (out['timeInForce'] === undefined) out['timeInForce'] = ON_FILL_DEFAULT_TIME_IN_FORCE;
  e[key] = out;
}

/** A price or distance at the instrument's precision when it fits it (and is positive); else as sent. */
function priceText(value: unknown, precision: number | undefined): unknown {
  if (typeof value !== 'string' || precision === undefined) return value;
  const int = parsePriceInt(value, precision);
  return int === null || int <= 0 ? value : formatPriceInt(int, precision);
}

/** Whole units without a sign or fraction ("+100", "100.0" -> "100", "-25.00" -> "-25"); else as sent. */
export function unitsText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const whole = parseScaled(value, 0);
  return whole === null || whole === 0 ? value : String(whole);
}
