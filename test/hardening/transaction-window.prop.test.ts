/**
 * Property: for any window and any sequence of writes and reads, a server keeping `window`
 * transactions in memory, and as many ended orders and closed trades (the others paged out as
 * text, src/account/id-table.ts), answers every read endpoint of transactions, orders, trades,
 * positions and the account with the same status and body as one keeping them all
 * (src/account/transaction-log.ts; the memory journal is the reader).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.js';
import type { RecordStore } from '../../src/account/id-table.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { MemoryJournal } from '../../src/journal/journal.js';
import { ACCOUNT, ADMIN_TOKEN, T0, TOKEN } from '../support/constants.js';

type Write =
  | { readonly k: 'market'; readonly units: number }
  | { readonly k: 'limit' }
  | { readonly k: 'cancel' }
  | { readonly k: 'alias'; readonly n: number }
  | { readonly k: 'reject' }
  | { readonly k: 'tick'; readonly move: number; readonly seconds: number };

type Read =
  | { readonly k: 'one'; readonly id: number }
  | { readonly k: 'idrange'; readonly from: number; readonly span: number; readonly typed: boolean }
  | { readonly k: 'sinceid'; readonly id: number; readonly typed: boolean }
  | { readonly k: 'changes'; readonly since: number }
  | { readonly k: 'list'; readonly fromMinute: number; readonly minutes: number; readonly pageSize: number; readonly typed: boolean }
  | { readonly k: 'journal' }
  | { readonly k: 'orders'; readonly state: string; readonly count: number }
  | { readonly k: 'order'; readonly id: number }
  | { readonly k: 'trades'; readonly state: string }
  | { readonly k: 'trade'; readonly id: number }
  | { readonly k: 'account' };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ k: fc.constant('market' as const), units: fc.integer({ min: -300, max: 300 }).filter((u) => u !== 0) }),
  fc.record({ k: fc.constant('limit' as const) }),
  fc.record({ k: fc.constant('cancel' as const) }),
  fc.record({ k: fc.constant('alias' as const), n: fc.nat(99) }),
  fc.record({ k: fc.constant('reject' as const) }),
  fc.record({ k: fc.constant('tick' as const), move: fc.integer({ min: -20, max: 20 }), seconds: fc.integer({ min: 0, max: 600 }) }),
);

const read: fc.Arbitrary<Read> = fc.oneof(
  fc.record({ k: fc.constant('one' as const), id: fc.integer({ min: 1, max: 90 }) }),
  fc.record({
    k: fc.constant('idrange' as const),
    from: fc.integer({ min: 1, max: 80 }),
    span: fc.nat(40),
    typed: fc.boolean(),
  }),
  fc.record({ k: fc.constant('sinceid' as const), id: fc.nat(80), typed: fc.boolean() }),
  fc.record({ k: fc.constant('changes' as const), since: fc.nat(80) }),
  fc.record({
    k: fc.constant('list' as const),
    fromMinute: fc.nat(120),
    minutes: fc.nat(240),
    pageSize: fc.integer({ min: 1, max: 30 }),
    typed: fc.boolean(),
  }),
  fc.record({ k: fc.constant('journal' as const) }),
  fc.record({
    k: fc.constant('orders' as const),
    state: fc.constantFrom('ALL', 'FILLED', 'CANCELLED', 'PENDING'),
    count: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ k: fc.constant('order' as const), id: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ k: fc.constant('trades' as const), state: fc.constantFrom('ALL', 'CLOSED', 'OPEN') }),
  fc.record({ k: fc.constant('trade' as const), id: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ k: fc.constant('account' as const) }),
);

interface Server {
  readonly app: App;
  readonly engine: Engine;
  clock: number;
  bid: number;
}

/** Paged-out records as text in memory (journal/record-file.ts keeps them in a file). */
function textStore(): RecordStore {
  const texts = new Map<number, string>();
  return { put: (id, text) => void texts.set(id, text), get: (id) => texts.get(id) };
}

async function server(transactionsInMemory: number | undefined): Promise<Server> {
  const engine = createEngine({
    accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }],
    start: T0,
    journal: new MemoryJournal(),
    ...(transactionsInMemory === undefined
      ? {}
      : { transactionsInMemory, recordsInMemory: { window: transactionsInMemory, store: () => textStore() } }),
  });
  const app = await buildApp({ engine, tokens: [{ token: TOKEN, accounts: '*' }], adminToken: ADMIN_TOKEN, baseUrl: 'http://v20sim.test' });
  engine.pushTick({ instrument: 'EUR_USD', time: T0 + 1, bid: 1.1, ask: 1.1002 });
  return { app, engine, clock: T0 + 1, bid: 1.1 };
}

async function send(s: Server, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown): Promise<string> {
  const token = url.startsWith('/sim') ? ADMIN_TOKEN : TOKEN;
  const r = await s.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return `${r.statusCode} ${r.body}`;
}

const orders = `/v3/accounts/${ACCOUNT}/orders`;

async function apply(s: Server, w: Write): Promise<void> {
  switch (w.k) {
    case 'market':
      await send(s, 'POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: String(w.units) } });
      return;
    case 'limit':
      await send(s, 'POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' } });
      return;
    case 'cancel': {
      const pending = [...s.engine.account(ACCOUNT)!.state.orders.values()].filter((o) => o.state === 'PENDING');
      await send(s, 'PUT', `${orders}/${pending.at(-1)?.id ?? 1}/cancel`);
      return;
    }
    case 'alias':
      await send(s, 'PATCH', `/v3/accounts/${ACCOUNT}/configuration`, { alias: `alias ${w.n}` });
      return;
    case 'reject':
      await send(s, 'POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '0' } });
      return;
    case 'tick':
      s.clock += w.seconds * 1_000_000;
      s.bid = Math.max(1, s.bid + w.move / 10_000);
      s.engine.pushTick({ instrument: 'EUR_USD', time: s.clock, bid: s.bid, ask: s.bid + 0.0002 });
      return;
  }
}

const iso = (minute: number): string => new Date(T0 / 1000 + minute * 60_000).toISOString();

function urlOf(r: Read): string {
  const t = `/v3/accounts/${ACCOUNT}/transactions`;
  switch (r.k) {
    case 'one':
      return `${t}/${r.id}`;
    case 'idrange':
      return `${t}/idrange?from=${r.from}&to=${r.from + r.span}${r.typed ? '&type=ORDER_FILL,ADMIN' : ''}`;
    case 'sinceid':
      return `${t}/sinceid?id=${r.id}${r.typed ? '&type=ORDER' : ''}`;
    case 'changes':
      return `/v3/accounts/${ACCOUNT}/changes?sinceTransactionID=${r.since}`;
    case 'list':
      return `${t}?from=${iso(r.fromMinute)}&to=${iso(r.fromMinute + r.minutes)}&pageSize=${r.pageSize}${r.typed ? '&type=MARKET_ORDER,FUNDING' : ''}`;
    case 'journal':
      return `/sim/journal/${ACCOUNT}`;
    case 'orders':
      return `/v3/accounts/${ACCOUNT}/orders?state=${r.state}&count=${r.count}`;
    case 'order':
      return `/v3/accounts/${ACCOUNT}/orders/${r.id}`;
    case 'trades':
      return `/v3/accounts/${ACCOUNT}/trades?state=${r.state}`;
    case 'trade':
      return `/v3/accounts/${ACCOUNT}/trades/${r.id}`;
    case 'account':
      return `/v3/accounts/${ACCOUNT}`;
  }
}

describe('bounded transaction and record windows', () => {
  it('answers every read endpoint as the unbounded run does, for random windows, writes and reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(
          fc.oneof(
            write.map((w) => ({ w })),
            read.map((r) => ({ r })),
          ),
          { minLength: 10, maxLength: 80 },
        ),
        fc.array(read, { minLength: 5, maxLength: 20 }),
        async (window, steps, finalReads) => {
          const [bounded, whole] = await Promise.all([server(window), server(undefined)]);
          try {
            for (const step of [...steps, ...finalReads.map((r) => ({ r }))]) {
              if ('w' in step) {
                await apply(bounded, step.w);
                await apply(whole, step.w);
                continue;
              }
              const url = urlOf(step.r);
              expect(await send(bounded, 'GET', url), url).toBe(await send(whole, 'GET', url));
            }
          } finally {
            await Promise.all([bounded.app.close(), whole.app.close()]);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
