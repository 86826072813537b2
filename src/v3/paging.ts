import { LIMITS } from '../domain/limits.js';
import type { V3Call } from './call.js';
import { COUNT_EXCEEDED, invalidValue } from './errors.js';
import { listNewestFirst, type ListFilter } from './lists.js';

/** The query of GET orders and GET trades as sent (already checked by their schemas). */
export interface ListQuery {
  readonly ids?: string | undefined;
  readonly state?: string | undefined;
  readonly instrument?: string | undefined;
  readonly count?: string | undefined;
  readonly beforeID?: string | undefined;
}

function listFilterOf(q: ListQuery, defaultState: string): ListFilter {
  const count = q.count === undefined ? LIMITS.ordersPageDefault : Number(q.count);
  if (count < 1) throw invalidValue('count');
  if (count > LIMITS.ordersPageMax) throw COUNT_EXCEEDED();
  return {
    state: q.state ?? defaultState,
    instrument: q.instrument,
    ids: q.ids === undefined ? undefined : new Set(q.ids.split(',').map(Number)),
    beforeID: q.beforeID === undefined ? undefined : Number(q.beforeID),
    count,
  };
}

/**
 * One page of orders or trades as v20 lists them: filtered by ids, state (default for the
 * resource) and instrument, newest first, at most `count` (default 50, at most 500), below an
 * exclusive beforeID; when more match, a `Link: <…beforeID=<lowest on page>…>; rel="next"` header
 * that keeps the other filters.
 */
export function listPage<T extends { readonly id: number; readonly state: string; readonly instrument: string }>(
  call: V3Call,
  resource: 'orders' | 'trades',
  items: Iterable<T>,
  q: ListQuery,
  defaultState: string,
): { page: T[]; headers?: Record<string, string> } {
  const { page, more } = listNewestFirst(items, listFilterOf(q, defaultState));
  if (!more) return { page };
  const params = new URLSearchParams();
  if (q.ids !== undefined) params.set('ids', q.ids);
  if (q.state !== undefined) params.set('state', q.state);
  if (q.instrument !== undefined) params.set('instrument', q.instrument);
  if (q.count !== undefined) params.set('count', q.count);
  params.set('beforeID', String((page[page.length - 1] as T).id));
  const link = `<${call.baseUrl ?? ''}/v3/accounts/${call.accountID}/${resource}?${params.toString()}>; rel="next"`;
  return { page, headers: { Link: link } };
}
