import { formatRfc3339, type Micros } from '../domain/time.js';

/** How a scenario run words what it saw: times, bodies and transactions in failure reports, and captures. */

/** Body text shown with a failure, at most this many characters. */
const ACTUAL_TEXT_MAX = 4000;
/** RFC3339 with as many fractional digits as the time needs: none, milliseconds or microseconds. */
export function shortTime(t: Micros): string {
  const text = formatRfc3339(t); // ...ss.ffffff000Z
  const micros = ((t % 1_000_000) + 1_000_000) % 1_000_000;
  if (micros === 0) return `${text.slice(0, 19)}Z`;
  return micros % 1000 === 0 ? `${text.slice(0, 23)}Z` : `${text.slice(0, 26)}Z`;
}

export function clip(text: string): string {
  return text.length > ACTUAL_TEXT_MAX ? `${text.slice(0, ACTUAL_TEXT_MAX)}\n... (${text.length - ACTUAL_TEXT_MAX} more characters)` : text;
}

/** A body for a failure report: one line per top-level key, each in compact JSON. */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.stringify(body) ?? '';
  const lines = Object.entries(body).map(([k, v]) => {
    const line = `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    return line.length > 600 ? `${line.slice(0, 597)}...` : line;
  });
  return `{\n${lines.join(',\n')}\n}`;
}

function briefTransaction(tx: Record<string, unknown>): string {
  const extra = ['reason', 'orderID', 'tradeID', 'units', 'price', 'rejectReason']
    .filter((k) => typeof tx[k] === 'string')
    .map((k) => `${k}=${tx[k] as string}`);
  return `${String(tx['id'])} ${String(tx['type'])}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
}

export function transactionsText(list: readonly unknown[]): string {
  if (list.length === 0) return '(none)';
  return list
    .map((tx) => (typeof tx === 'object' && tx !== null ? briefTransaction(tx as Record<string, unknown>) : String(tx)))
    .join('\n');
}

/** An HTTP answer as a scenario step sees it. */
export interface Response {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  text: string;
}

/** `body.a[0].b`, `headers.location`, `status` in a response. */
export function capture(res: Response, path: string): unknown {
  const parts = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const root = parts.shift();
  let value: unknown = root === 'body' ? res.body : root === 'headers' ? res.headers : root === 'status' ? res.status : undefined;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    if (part.startsWith('[')) {
      value = Array.isArray(value) ? value[Number(part.slice(1, -1))] : undefined;
    } else {
      const key = root === 'headers' ? part.toLowerCase() : part;
      value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    }
  }
  return value;
}

/** `1 tick`, `2 ticks`: a count and its noun, plural unless one. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
