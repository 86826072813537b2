import type { InstrumentSpec } from '../domain/instruments.js';
import { formatRfc3339, parseDateTime, parseNewYorkLocal } from '../domain/time.js';
import { invalidValue, type V20Error } from './errors.js';

/**
 * Malformed input that a request schema cannot see, as real v20 refuses it (400, no transaction):
 * an instrument the server does not trade, a DateTime it cannot read. Well-formed values that
 * break a trading rule pass here and become reject transactions in the core.
 */
type Instruments = ReadonlyMap<string, InstrumentSpec>;

const ON_FILL_KEYS = ['takeProfitOnFill', 'stopLossOnFill', 'trailingStopLossOnFill'] as const;
const DEPENDENT_KEYS = ['takeProfit', 'stopLoss', 'trailingStopLoss'] as const;
const DETAILS_KEYS = [...ON_FILL_KEYS, ...DEPENDENT_KEYS] as const;

function gtdTimeOf(details: unknown): unknown {
  return typeof details === 'object' && details !== null ? (details as { gtdTime?: unknown }).gtdTime : undefined;
}

function badDateTime(value: unknown): boolean {
  return typeof value === 'string' && parseDateTime(value) === null;
}

/** A request DateTime: RFC 3339 or UNIX, or without a zone designator (New York local time, as v20 reads it). */
export function parseRequestDateTime(text: string): number | null {
  return parseDateTime(text) ?? parseNewYorkLocal(text);
}

/** A zoneless gtdTime as the RFC 3339 UTC text it stands for (the echo then shows it as v20 does); anything else as it is. */
function zonedGtd<T>(details: T): T {
  if (typeof details !== 'object' || details === null) return details;
  const gtd = (details as { gtdTime?: unknown }).gtdTime;
  const t = typeof gtd === 'string' && parseDateTime(gtd) === null ? parseNewYorkLocal(gtd) : null;
  return t === null ? details : { ...details, gtdTime: formatRfc3339(t) };
}

/**
 * The order (or trade-orders body) with every zoneless gtdTime read as New York local time and
 * written in UTC: `"2018-07-02T00:00:00"` becomes `"2018-07-02T04:00:00.000000000Z"`, as a real
 * v20 response shows (domain/time.ts parseNewYorkLocal). The core sees only zoned DateTimes.
 */
export function withZonedDateTimes<T>(body: T): T {
  if (typeof body !== 'object' || body === null) return body;
  const out = zonedGtd(body) as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of DETAILS_KEYS) {
    const details = out[key];
    const zoned = zonedGtd(details);
    if (zoned !== details) (copy ??= { ...out })[key] = zoned;
  }
  return (copy ?? out) as T;
}

/** The order of a create or replace request. */
export function orderWireError(instruments: Instruments, order: unknown): V20Error | undefined {
  if (typeof order !== 'object' || order === null) return invalidValue('order');
  const fields = order as Record<string, unknown>;
  const instrument = fields['instrument'];
  if (typeof instrument === 'string' && !instruments.has(instrument)) return invalidValue('order.instrument');
  if (badDateTime(fields['gtdTime'])) return invalidValue('order.gtdTime');
  for (const key of ON_FILL_KEYS) if (badDateTime(gtdTimeOf(fields[key]))) return invalidValue(`order.${key}.gtdTime`);
  return undefined;
}

/** The body of PUT trades/{tradeSpecifier}/orders. */
export function tradeOrdersWireError(body: Readonly<Record<string, unknown>>): V20Error | undefined {
  for (const key of DEPENDENT_KEYS) if (badDateTime(gtdTimeOf(body[key]))) return invalidValue(`${key}.gtdTime`);
  return undefined;
}

/** An instrument in a path (positions): one the server does not trade is malformed input. */
export function instrumentWireError(instruments: Instruments, instrument: string): V20Error | undefined {
  return instruments.has(instrument) ? undefined : invalidValue('instrument');
}
