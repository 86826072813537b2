import { Decimal } from '../domain/decimal.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { ON_FILL_DEFAULT_TIME_IN_FORCE, ON_FILL_TIME_IN_FORCE } from '../domain/order-types.js';
import type { Micros } from '../domain/time.js';
import type { StopLossDetails, TakeProfitDetails, TrailingStopLossDetails } from '../domain/transactions.js';
import { checkClientExtensions } from './client-extensions.js';
import { checkGtd, checkPrice, isOneOf } from './fields.js';

/**
 * The orders an entry order asks to create when it fills (takeProfitOnFill, stopLossOnFill,
 * trailingStopLossOnFill), checked when the entry order is created, each with its own reasons.
 */

type DetailCheck<T> = { ok: true; value: T | undefined } | { ok: false; reason: string };

export type OnFillCheck =
  | {
      ok: true;
      takeProfitOnFill: TakeProfitDetails | undefined;
      stopLossOnFill: StopLossDetails | undefined;
      trailingStopLossOnFill: TrailingStopLossDetails | undefined;
    }
  | { ok: false; reason: string };

/** The three details of an entry order request, in v20's order, then their client order IDs against each other. */
export function checkOnFillOrders(
  r: { takeProfitOnFill?: unknown; stopLossOnFill?: unknown; trailingStopLossOnFill?: unknown },
  spec: InstrumentSpec | undefined,
  precision: number,
  now: Micros,
): OnFillCheck {
  const tp = checkTakeProfitDetails(r.takeProfitOnFill, precision, now);
  if (!tp.ok) return tp;
  const sl = checkStopLossDetails(r.stopLossOnFill, precision, now);
  if (!sl.ok) return sl;
  const tsl = checkTrailingDetails(r.trailingStopLossOnFill, spec, precision, now);
  if (!tsl.ok) return tsl;
  const tpId = tp.value?.clientExtensions?.id;
  const slId = sl.value?.clientExtensions?.id;
  const tslId = tsl.value?.clientExtensions?.id;
  if ((tpId !== undefined && (tpId === slId || tpId === tslId)) || (slId !== undefined && slId === tslId)) {
    return { ok: false, reason: 'ORDERS_ON_FILL_DUPLICATE_CLIENT_ORDER_IDS' };
  }
  return { ok: true, takeProfitOnFill: tp.value, stopLossOnFill: sl.value, trailingStopLossOnFill: tsl.value };
}

function detailCommon(prefix: string, d: Record<string, unknown>, now: Micros): string | null {
  const tif = d['timeInForce'] ?? ON_FILL_DEFAULT_TIME_IN_FORCE;
  if (!isOneOf(ON_FILL_TIME_IN_FORCE, tif)) return `${prefix}_TIME_IN_FORCE_INVALID`;
  const gtd = checkGtd(tif, d['gtdTime'], now);
  if (!gtd.ok)
    return gtd.reason === 'MISSING'
      ? `${prefix}_GTD_TIMESTAMP_MISSING`
      : gtd.reason === 'IN_PAST'
        ? `${prefix}_GTD_TIMESTAMP_IN_PAST`
        : `${prefix}_TIME_IN_FORCE_INVALID`;
  const ce = checkClientExtensions(d['clientExtensions'], 'CLIENT_ORDER');
  if (!ce.ok) return `${prefix}_${ce.reason}`;
  return null;
}

function asDetails(value: unknown): Record<string, unknown> | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

/** A price or distance of on-fill details on the instrument's grid, or the `<prefix>_INVALID` / `<prefix>_PRECISION_EXCEEDED` reason. */
function gridRefusal(value: unknown, precision: number, prefix: string): { ok: false; reason: string } | null {
  const p = checkPrice(value, precision);
  if (p.ok) return null;
  return { ok: false, reason: p.reason === 'INVALID' ? `${prefix}_INVALID` : `${prefix}_PRECISION_EXCEEDED` };
}

function checkTakeProfitDetails(value: unknown, precision: number, now: Micros): DetailCheck<TakeProfitDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'TAKE_PROFIT_ON_FILL_PRICE_INVALID' };
  if (d['price'] === undefined) return { ok: false, reason: 'TAKE_PROFIT_ON_FILL_PRICE_MISSING' };
  const bad = gridRefusal(d['price'], precision, 'TAKE_PROFIT_ON_FILL_PRICE');
  if (bad !== null) return bad;
  const common = detailCommon('TAKE_PROFIT_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as TakeProfitDetails };
}

function checkStopLossDetails(value: unknown, precision: number, now: Micros): DetailCheck<StopLossDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_INVALID' };
  if (d['price'] !== undefined && d['distance'] !== undefined)
    return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_SPECIFIED' };
  if (d['price'] === undefined && d['distance'] === undefined)
    return { ok: false, reason: 'STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_MISSING' };
  const bad =
    d['price'] !== undefined
      ? gridRefusal(d['price'], precision, 'STOP_LOSS_ON_FILL_PRICE')
      : gridRefusal(d['distance'], precision, 'STOP_LOSS_ON_FILL_DISTANCE');
  if (bad !== null) return bad;
  const common = detailCommon('STOP_LOSS_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as StopLossDetails };
}

function checkTrailingDetails(
  value: unknown,
  spec: InstrumentSpec | undefined,
  precision: number,
  now: Micros,
): DetailCheck<TrailingStopLossDetails> {
  const d = asDetails(value);
  if (d === undefined) return { ok: true, value: undefined };
  if (d === null) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_INVALID' };
  if (d['distance'] === undefined) return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MISSING' };
  const bad = gridRefusal(d['distance'], precision, 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE');
  if (bad !== null) return bad;
  if (spec !== undefined) {
    const dist = new Decimal(d['distance'] as string);
    if (dist.greaterThan(spec.maximumTrailingStopDistance))
      return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED' };
    if (dist.lessThan(spec.minimumTrailingStopDistance))
      return { ok: false, reason: 'TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MINIMUM_NOT_MET' };
  }
  const common = detailCommon('TRAILING_STOP_LOSS_ON_FILL', d, now);
  if (common !== null) return { ok: false, reason: common };
  return { ok: true, value: d as unknown as TrailingStopLossDetails };
}
