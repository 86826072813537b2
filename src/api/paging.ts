import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../account/account.js';
import { listNewestFirst } from '../account/views.js';
import { LIMITS } from '../domain/limits.js';
import { baseUrlOf } from './app.js';
import type { ApiContext } from './context.js';
import { ApiError, invalidValue } from './errors.js';

/** The query of GET orders and GET trades (already checked by their schemas). */
export interface ListQuery {
  readonly ids?: string;
  readonly state?: string;
  readonly instrument?: string;
  readonly count?: string;
  readonly beforeID?: string;
}

/**
 * One page of orders or trades as v20 lists them: filtered by ids, state (default for the
 * resource) and instrument, newest first, at most `count` (default 50, at most 500), below an
 * exclusive beforeID; when more match, a `Link: <…beforeID=<lowest on page>…>; rel="next"` header
 * that keeps the other filters.
 */
export function listPage<T extends { readonly id: number; readonly state: string; readonly instrument: string }>(
  context: ApiContext, request: FastifyRequest, reply: FastifyReply, account: Account,
  resource: 'orders' | 'trades', items: Iterable<T>, q: ListQuery, defaultState: string,
): T[] {
  const count = q.count === undefined ? LIMITS.ordersPageDefault : Number(q.count);
  if (count < 1) throw invalidValue('count');
  if (count > LIMITS.ordersPageMax) throw new ApiError(400, { errorMessage: "Maximum value for 'count' exceeded" });
  const { page, more } = listNewestFirst(items, {
    state: q.state ?? defaultState,
    instrument: q.instrument,
    ids: q.ids === undefined ? undefined : new Set(q.ids.split(',').map(Number)),
    beforeID: q.beforeID === undefined ? undefined : Number(q.beforeID),
    count,
  });
  if (more) {
    const params = new URLSearchParams();
    if (q.ids !== undefined) params.set('ids', q.ids);
    if (q.state !== undefined) params.set('state', q.state);
    if (q.instrument !== undefined) params.set('instrument', q.instrument);
    if (q.count !== undefined) params.set('count', q.count);
    params.set('beforeID', String((page[page.length - 1] as T).id));
    void reply.header('Link', `<${baseUrlOf(context, request)}/v3/accounts/${account.id}/${resource}?${params.toString()}>; rel="next"`);
  }
  return page;
}
