import type { AccountState } from '../account/state.js';
import { LIMITS } from '../domain/limits.js';
import type { EnumSpelling } from '../domain/enum-spelling.js';
import { accountOf, spellingOf, type V3Call } from './call.js';
import { COUNT_EXCEEDED, invalidValue, noSuch } from './errors.js';
import { listNewestFirst, type ListFilter } from './lists.js';
import { answer, ok, type Json, type V20Response } from './response.js';

type Listable = { readonly id: number; readonly state: string; readonly instrument: string };
/** A v20 view of one order or trade; Order resources take the call's EnumSpelling. */
type View<T> = (state: AccountState, item: T, spelling: EnumSpelling) => Json;

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
    instruments: q.instrument === undefined ? undefined : new Set(q.instrument.split(',')),
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
export function listPage<T extends Listable>(
  call: V3Call,
  resource: 'orders' | 'trades',
  newestFirst: Iterable<T>,
  q: ListQuery,
  defaultState: string,
): { page: T[]; headers?: Record<string, string> } {
  const { page, more } = listNewestFirst(newestFirst, listFilterOf(q, defaultState));
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

/** GET orders / GET trades: one page of the account's orders or trades (listPage), each as its v20 view. */
export function pagedList<T extends Listable>(
  resource: 'orders' | 'trades',
  defaultState: string,
  /** Every order or trade, newest first. */
  newestOf: (state: AccountState) => Iterable<T>,
  /** The live ones (pending orders, open trades), oldest first. */
  liveOf: (state: AccountState) => T[],
  view: View<T>,
): (call: V3Call, query: ListQuery) => V20Response {
  return (call, query) =>
    answer(() => {
      const { state } = accountOf(call);
      // The default state (PENDING orders, OPEN trades) is what the account keeps listed: no walk of its history.
      const items = (query.state ?? defaultState) === defaultState ? liveOf(state).reverse() : newestOf(state);
      const { page, headers } = listPage(call, resource, items, query, defaultState);
      return ok(
        { [resource]: page.map((item) => view(state, item, spellingOf(call))), lastTransactionID: String(state.lastTransactionID) },
        headers,
      );
    });
}

/** GET pendingOrders / GET openTrades: every such order or trade, newest first, without paging. */
export function wholeList<T>(
  resource: 'orders' | 'trades',
  itemsOf: (state: AccountState) => readonly T[],
  view: View<T>,
): (call: V3Call) => V20Response {
  return (call) =>
    answer(() => {
      const { state } = accountOf(call);
      return ok({
        [resource]: itemsOf(state).map((item) => view(state, item, spellingOf(call))),
        lastTransactionID: String(state.lastTransactionID),
      });
    });
}

/** GET orders/{orderSpecifier} / GET trades/{tradeSpecifier}: the one order or trade, else 404. */
export function bySpecifier<T>(
  key: 'order' | 'trade',
  find: (state: AccountState, specifier: string) => T | undefined,
  view: View<T>,
): (call: V3Call, specifier: string) => V20Response {
  const kind = key === 'order' ? 'ORDER' : 'TRADE';
  return (call, specifier) =>
    answer(() => {
      const { state } = accountOf(call);
      const item = find(state, specifier);
      if (item === undefined) throw noSuch(kind, state.lastTransactionID);
      return ok({ [key]: view(state, item, spellingOf(call)), lastTransactionID: String(state.lastTransactionID) });
    });
}
