import { LIMITS } from '../domain/limits.js';
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { TransactionLog } from '../account/transaction-log.js';
import { accountOf, type V3Call } from './call.js';
import { RANGE_NOT_SATISFIABLE, V20Error, invalidValue, noSuch } from './errors.js';
import { parseTimeQuery } from './pricing.js';
import { answer, ok, type Json, type V20Response } from './response.js';
import { TRANSACTION_PAGES_MAX } from '../domain/limits.js';

/** Transactions endpoints of the v3 API. */

/** Every v20 TransactionType. */
const TRANSACTION_TYPES = [
  'CREATE',
  'CLOSE',
  'REOPEN',
  'CLIENT_CONFIGURE',
  'CLIENT_CONFIGURE_REJECT',
  'TRANSFER_FUNDS',
  'TRANSFER_FUNDS_REJECT',
  'MARKET_ORDER',
  'MARKET_ORDER_REJECT',
  'FIXED_PRICE_ORDER',
  'LIMIT_ORDER',
  'LIMIT_ORDER_REJECT',
  'STOP_ORDER',
  'STOP_ORDER_REJECT',
  'MARKET_IF_TOUCHED_ORDER',
  'MARKET_IF_TOUCHED_ORDER_REJECT',
  'TAKE_PROFIT_ORDER',
  'TAKE_PROFIT_ORDER_REJECT',
  'STOP_LOSS_ORDER',
  'STOP_LOSS_ORDER_REJECT',
  'GUARANTEED_STOP_LOSS_ORDER',
  'GUARANTEED_STOP_LOSS_ORDER_REJECT',
  'TRAILING_STOP_LOSS_ORDER',
  'TRAILING_STOP_LOSS_ORDER_REJECT',
  'ORDER_FILL',
  'ORDER_CANCEL',
  'ORDER_CANCEL_REJECT',
  'ORDER_CLIENT_EXTENSIONS_MODIFY',
  'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
  'TRADE_CLIENT_EXTENSIONS_MODIFY',
  'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
  'MARGIN_CALL_ENTER',
  'MARGIN_CALL_EXTEND',
  'MARGIN_CALL_EXIT',
  'DELAYED_TRADE_CLOSURE',
  'DAILY_FINANCING',
  'DIVIDEND_ADJUSTMENT',
  'RESET_RESETTABLE_PL',
] as const;

/** The one-cancels-all filters v20 lists although no transaction type matches them. */
const OCA_FILTERS = ['ONE_CANCELS_ALL_ORDER', 'ONE_CANCELS_ALL_ORDER_REJECT', 'ONE_CANCELS_ALL_ORDER_TRIGGERED'] as const;

/**
 * v20's group filters (its docs name them only): ORDER = transactions that create, cancel, fill
 * or modify orders, their rejections included; FUNDING = money in and out (transfers, financing,
 * dividends); ADMIN = account administration (create, close, reopen, configure, P/L reset,
 * margin calls).
 */
const GROUPS: Readonly<Record<string, ReadonlySet<string>>> = {
  ORDER: new Set(TRANSACTION_TYPES.filter((t) => /_ORDER(_REJECT)?$/.test(t) || t.startsWith('ORDER_'))),
  FUNDING: new Set(['TRANSFER_FUNDS', 'TRANSFER_FUNDS_REJECT', 'DAILY_FINANCING', 'DIVIDEND_ADJUSTMENT']),
  ADMIN: new Set([
    'CREATE',
    'CLOSE',
    'REOPEN',
    'CLIENT_CONFIGURE',
    'CLIENT_CONFIGURE_REJECT',
    'RESET_RESETTABLE_PL',
    'MARGIN_CALL_ENTER',
    'MARGIN_CALL_EXTEND',
    'MARGIN_CALL_EXIT',
  ]),
};

const FILTERS: ReadonlySet<string> = new Set([...TRANSACTION_TYPES, ...OCA_FILTERS, ...Object.keys(GROUPS)]);

type TypeFilter = (type: string) => boolean;

/** A csv of TransactionFilter values: the filters as given, and a predicate (undefined: all). */
function parseTypeFilter(text: string | undefined): { filters: string[]; matches: TypeFilter } | undefined {
  if (text === undefined) return undefined;
  const filters = text.split(',');
  const types = new Set<string>();
  for (const f of filters) {
    if (!FILTERS.has(f)) throw invalidValue('type');
    const group = GROUPS[f];
    if (group === undefined) types.add(f);
    else for (const t of group) types.add(t);
  }
  return { filters, matches: (type) => types.has(type) };
}

const INVALID_PAGESIZE = (): V20Error =>
  new V20Error(400, { errorCode: 'INVALID_PAGESIZE', errorMessage: 'The specified page size is invalid' });

function parsePageSize(text: string | undefined): number {
  if (text === undefined) return LIMITS.transactionsPageDefault;
  if (!/^\d{1,7}$/.test(text)) throw INVALID_PAGESIZE();
  const n = Number(text);
  if (n < 1 || n > LIMITS.transactionsPageMax) throw INVALID_PAGESIZE();
  return n;
}

function timeOf(tx: Transaction): Micros {
  const t = parseDateTime(tx.time, 'RFC3339');
  if (t === null) throw new Error(`transaction ${tx.id} has an unreadable time: ${tx.time}`);
  return t;
}

/** The first ID whose transaction time is >= t (or > t when strict); times never decrease. */
function firstAtOrAfter(log: TransactionLog, t: Micros, strict: boolean): number {
  return log.firstWhere(strict ? (tx) => timeOf(tx) > t : (tx) => timeOf(tx) >= t);
}

export interface TransactionsQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly pageSize?: string | undefined;
  readonly type?: string | undefined;
}

/** GET transactions: the count and page URLs (idrange) of a time window, filtered by type. */
export function listTransactionPages(call: V3Call, q: TransactionsQuery): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const log = account.log;
    const pageSize = parsePageSize(q.pageSize);
    const filter = parseTypeFilter(q.type);
    const first = log.get(1);
    const created = first === undefined ? 0 : timeOf(first);
    const from = parseTimeQuery(q.from, 'from') ?? created;
    const to = parseTimeQuery(q.to, 'to') ?? call.now ?? call.engine.now;
    if (from > to) throw RANGE_NOT_SATISFIABLE("The 'from' time is after the 'to' time");
    const span = matchingSpan(log, firstAtOrAfter(log, from, false), firstAtOrAfter(log, to, true), filter);
    const pages: string[] = [];
    if (span.count > 0) {
      const pageCount = Math.ceil((span.lastId - span.firstId + 1) / pageSize);
      if (pageCount > TRANSACTION_PAGES_MAX)
        throw RANGE_NOT_SATISFIABLE(`The range spans more than ${TRANSACTION_PAGES_MAX} pages; narrow it or raise pageSize`);
      const base = `${call.baseUrl ?? ''}/v3/accounts/${call.accountID}/transactions/idrange`;
      const typeParam = filter === undefined ? '' : `&type=${filter.filters.join(',')}`;
      for (let start = span.firstId; start <= span.lastId; start += pageSize) {
        pages.push(`${base}?from=${start}&to=${Math.min(start + pageSize - 1, span.lastId)}${typeParam}`);
      }
    }
    const body: Json = { from: formatRfc3339(from), to: formatRfc3339(to), pageSize };
    if (filter !== undefined) body['type'] = filter.filters;
    body['count'] = span.count;
    body['pages'] = pages;
    body['lastTransactionID'] = String(account.state.lastTransactionID);
    return ok(body);
  });
}

/** Transactions with IDs lo to hi - 1: the matching ones' count and ID span. */
function matchingSpan(
  log: TransactionLog,
  lo: number,
  hi: number,
  filter: { matches: TypeFilter } | undefined,
): { count: number; firstId: number; lastId: number } {
  if (filter === undefined) return { count: Math.max(0, hi - lo), firstId: lo, lastId: hi - 1 };
  let count = 0;
  let firstId = 0;
  let lastId = 0;
  for (const tx of log.from(lo, hi - 1)) {
    if (!filter.matches(tx.type)) continue;
    count += 1;
    if (firstId === 0) firstId = Number(tx.id);
    lastId = Number(tx.id);
  }
  return { count, firstId, lastId };
}

/** GET transactions/idrange: from and to inclusive; a 'to' past the end reads to the end. */
export function getTransactionRange(
  call: V3Call,
  q: { readonly from: string; readonly to: string; readonly type?: string | undefined },
): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const filter = parseTypeFilter(q.type);
    const last = account.state.lastTransactionID;
    const from = Number(q.from);
    const requestedTo = Number(q.to);
    if (from > requestedTo) throw RANGE_NOT_SATISFIABLE("The 'from' ID is greater than the 'to' ID");
    if (from > last) throw RANGE_NOT_SATISFIABLE(`The 'from' ID is beyond the last transaction ${last}`);
    // What remains may hold at most one page (1000 IDs).
    const to = Math.min(requestedTo, last);
    if (to - from + 1 > LIMITS.transactionsPageMax)
      throw RANGE_NOT_SATISFIABLE(`The range holds more than ${LIMITS.transactionsPageMax} transactions`);
    const slice = account.log.range(from, to);
    return ok({
      transactions: filter === undefined ? slice : slice.filter((tx) => filter.matches(tx.type)),
      lastTransactionID: String(last),
    });
  });
}

/** GET transactions/sinceid: every transaction after an ID, at most sinceIdMax. */
export function getTransactionsSince(call: V3Call, q: { readonly id: string; readonly type?: string | undefined }): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const filter = parseTypeFilter(q.type);
    const last = account.state.lastTransactionID;
    const id = Number(q.id);
    if (id > last) throw RANGE_NOT_SATISFIABLE(`The ID is beyond the last transaction ${last}`);
    const transactions: Transaction[] = [];
    for (const tx of account.log.from(id + 1)) {
      if (transactions.length >= LIMITS.sinceIdMax) break;
      if (filter === undefined || filter.matches(tx.type)) transactions.push(tx);
    }
    return ok({ transactions, lastTransactionID: String(last) });
  });
}

export function getTransaction(call: V3Call, transactionID: string): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const id = Number(transactionID);
    const tx = account.log.get(id);
    if (tx === undefined) throw noSuch('TRANSACTION', account.state.lastTransactionID);
    return ok({ transaction: tx, lastTransactionID: String(account.state.lastTransactionID) });
  });
}
