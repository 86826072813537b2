import { ON_FILL_DEFAULT_TIME_IN_FORCE, type OrderTypeRule } from '../domain/order-types.js';
import { echoExtensions } from './client-extensions.js';
import { normalizeDateTime } from './fields.js';
import type { OrderRequest } from './order-request.js';

/**
 * The fields of an order request as its creation (or reject) transaction carries them: only the
 * fields the order type has, in v20's order, with defaults filled in. Values are echoed as sent, so
 * a reject shows what was refused.
 */
export function buildEcho(
  rule: OrderTypeRule,
  r: OrderRequest,
  tif: unknown,
  positionFill: unknown,
  trigger: unknown,
): Record<string, unknown> {
  const e: Record<string, unknown> = { type: rule.transactionType };
  const entry = rule.kind === 'ENTRY';
  if (entry) {
    put(e, 'instrument', r.instrument);
    put(e, 'units', r.units);
    if (rule.threshold !== null) put(e, 'price', r.price);
    if (rule.priceBound) put(e, 'priceBound', r.priceBound);
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
    if (rule.threshold !== 'DISTANCE') put(e, 'price', r.price);
    put(e, 'distance', r.distance);
    put(e, 'timeInForce', tif);
    put(e, 'gtdTime', normalizeDateTime(r.gtdTime));
    put(e, 'triggerCondition', trigger);
  }
  put(e, 'clientExtensions', echoExtensions(r.clientExtensions));
  if (entry) {
    echoDetails(e, 'takeProfitOnFill', r.takeProfitOnFill, ['price', 'timeInForce', 'gtdTime', 'clientExtensions']);
    echoDetails(e, 'stopLossOnFill', r.stopLossOnFill, ['price', 'distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    echoDetails(e, 'trailingStopLossOnFill', r.trailingStopLossOnFill, ['distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    put(e, 'tradeClientExtensions', echoExtensions(r.tradeClientExtensions));
  }
  return e;
}

/** Sets a member that was given (a module function: a closure per echo is an allocation, and a __name call under tsx). */
function put(e: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== undefined) e[k] = v;
}

/** Copies the keys of an on-fill detail object in v20 order, with the default time in force; a non-object is left out. */
function echoDetails(e: Record<string, unknown>, key: string, details: unknown, keys: readonly string[]): void {
  if (details === undefined || details === null || typeof details !== 'object') return;
  const value = details as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (value[k] === undefined) continue;
    out[k] = k === 'clientExtensions' ? echoExtensions(value[k]) : k === 'gtdTime' ? normalizeDateTime(value[k]) : value[k];
  }
  if (out['timeInForce'] === undefined) out['timeInForce'] = ON_FILL_DEFAULT_TIME_IN_FORCE;
  e[key] = out;
}
