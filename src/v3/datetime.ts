import { formatUnix, parseDateTime, type DatetimeFormat } from '../domain/time.js';

/** The DateTime fields of v20 resources, which Accept-Datetime-Format turns into UNIX strings. */
const DATETIME_KEYS = new Set([
  'time',
  'createTime',
  'filledTime',
  'cancelledTime',
  'openTime',
  'closeTime',
  'gtdTime',
  'timestamp',
  'createdTime',
  'resettablePLTime',
  'marginCallEnterTime',
  'lastMarginCallExtensionTime',
  'lastOrderFillTimestamp',
  'from',
  'to',
]);

export function parseDatetimeFormat(header: unknown): DatetimeFormat | null {
  if (header === undefined) return 'RFC3339';
  if (header === 'RFC3339' || header === 'UNIX') return header;
  return null;
}

/** A copy of the body with every RFC3339 DateTime field rewritten as UNIX seconds. */
export function toUnixDatetimes(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    if (key === undefined || !DATETIME_KEYS.has(key)) return value;
    const t = parseDateTime(value, 'RFC3339');
    return t === null ? value : formatUnix(t);
  }
  if (Array.isArray(value)) return value.map((v) => toUnixDatetimes(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toUnixDatetimes(v, k);
    return out;
  }
  return value;
}
