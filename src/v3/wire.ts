import type { InstrumentSpec } from '../domain/instruments.js';
import { parseDateTime } from '../domain/time.js';
import { invalidValue, type V20Error } from './errors.js';

/**
 * Malformed input that a request schema cannot see, as real v20 refuses it (400, no transaction):
 * an instrument the server does not trade, a DateTime it cannot read. Well-formed values that
 * break a trading rule pass here and become reject transactions in the core.
 */
type Instruments = ReadonlyMap<string, InstrumentSpec>;

const ON_FILL_KEYS = ['takeProfitOnFill', 'stopLossOnFill', 'trailingStopLossOnFill'] as const;
const DEPENDENT_KEYS = ['takeProfit', 'stopLoss', 'trailingStopLoss'] as const;

function gtdTimeOf(details: unknown): unknown {
  return typeof details === 'object' && details !== null ? (details as { gtdTime?: unknown }).gtdTime : undefined;
}

function badDateTime(value: unknown): boolean {
  return typeof value === 'string' && parseDateTime(value) === null;
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
