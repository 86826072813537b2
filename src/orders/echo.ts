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
  const put = (k: string, v: unknown): void => {
    if (v !== undefined) e[k] = v;
  };
  const entry = rule.kind === 'ENTRY';
  if (entry) {
    put('instrument', r.instrument);
    put('units', r.units);
    if (rule.threshold !== null) put('price', r.price);
    if (rule.priceBound) put('priceBound', r.priceBound);
    put('timeInForce', tif);
    put('gtdTime', normalizeDateTime(r.gtdTime));
    if (rule.triggerCondition) {
      put('triggerCondition', trigger);
      e['partialFill'] = 'DEFAULT';
    }
    put('positionFill', positionFill);
  } else {
    put('tradeID', r.tradeID);
    put('clientTradeID', r.clientTradeID);
    if (rule.threshold !== 'DISTANCE') put('price', r.price);
    put('distance', r.distance);
    put('timeInForce', tif);
    put('gtdTime', normalizeDateTime(r.gtdTime));
    put('triggerCondition', trigger);
  }
  put('clientExtensions', echoExtensions(r.clientExtensions));
  if (entry) {
    echoDetails(e, 'takeProfitOnFill', r.takeProfitOnFill, ['price', 'timeInForce', 'gtdTime', 'clientExtensions']);
    echoDetails(e, 'stopLossOnFill', r.stopLossOnFill, ['price', 'distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    echoDetails(e, 'trailingStopLossOnFill', r.trailingStopLossOnFill, ['distance', 'timeInForce', 'gtdTime', 'clientExtensions']);
    put('tradeClientExtensions', echoExtensions(r.tradeClientExtensions));
  }
  return e;
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
