import { Decimal, isDecimalString } from '../domain/decimal.js';
import { decimalToPriceInt, parsePriceInt } from '../domain/price.js';
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';

/** Checks of single request fields, shared by orders and their on-fill details. */

export function isStr(value: unknown): value is string {
  return typeof value === 'string';
}

/** Whether `value` is one of a v20 enumeration's values (the lists of domain/order-types.ts). */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

export type PriceCheck = { ok: true; int: number } | { ok: false; reason: 'INVALID' | 'PRECISION' };

/** A positive price (or distance) on the instrument's grid, as an integer count of its smallest step. */
export function checkPrice(value: unknown, precision: number): PriceCheck {
  if (!isDecimalString(value)) return { ok: false, reason: 'INVALID' };
  if (!value.startsWith('-')) {
    // The common case, without building a Decimal; refusals fall through to say why.
    const fast = parsePriceInt(value, precision);
    if (fast !== null && fast !== 0) return { ok: true, int: fast };
  }
  const d = new Decimal(value);
  if (d.isNegative() || d.isZero()) return { ok: false, reason: 'INVALID' };
  const int = decimalToPriceInt(d, precision);
  if (int === null) return { ok: false, reason: 'PRECISION' };
  if (!Number.isSafeInteger(int)) return { ok: false, reason: 'INVALID' };
  return { ok: true, int };
}

export type GtdCheck = { ok: true; gtd: Micros | undefined } | { ok: false; reason: 'MISSING' | 'IN_PAST' | 'INVALID' };

export function checkGtd(timeInForce: string, gtdTime: unknown, now: Micros): GtdCheck {
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
export function normalizeDateTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = parseDateTime(value);
  return t === null ? value : formatRfc3339(t);
}
