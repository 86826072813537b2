import { LIMITS } from '../domain/limits.js';
import type { ClientExtensions } from '../domain/transactions.js';
import { isStr } from './fields.js';

export type ClientExtensionsCheck = { ok: true; value: ClientExtensions | undefined } | { ok: false; reason: string };

/** Client extensions: strings of bounded length; the id may not start with '@' (it would be ambiguous). */
export function checkClientExtensions(value: unknown, prefix: 'CLIENT_ORDER' | 'CLIENT_TRADE'): ClientExtensionsCheck {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: `${prefix}_ID_INVALID` };
  const v = value as Record<string, unknown>;
  const out: ClientExtensions = {};
  const max = LIMITS.clientExtensionFieldLength;
  if (v['id'] !== undefined) {
    if (!isStr(v['id']) || v['id'].length === 0 || v['id'].length > max || v['id'].startsWith('@'))
      return { ok: false, reason: `${prefix}_ID_INVALID` };
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

/**
 * Client extensions as echoed in transactions: only v20's three fields, whatever else the client
 * sent (an unknown key would otherwise be stored, echoed and journaled). A non-object is echoed as
 * is so the reject shows what was refused. A string over the field limit is refused (its
 * *_INVALID reason) and echoed cut to the limit: the reject shows what was sent without keeping
 * an unbounded value in the journal and in memory for good.
 */
export function echoExtensions(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['id', 'tag', 'comment']) if (v[key] !== undefined) out[key] = withinLimit(v[key], LIMITS.clientExtensionFieldLength);
  return out;
}

/** A string cut to `max` characters (a refused value as a reject echoes it); anything else as is. */
export function withinLimit(value: unknown, max: number): unknown {
  return typeof value === 'string' && value.length > max ? value.slice(0, max) : value;
}
