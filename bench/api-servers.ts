/**
 * The servers and the load of the API bench (api.bench.ts): a fresh engine (one USD account, one
 * EUR/USD quote) behind the real app or behind a bare Fastify baseline, listening on 127.0.0.1 at
 * a free port; autocannon runs against it; a probe request checks the answer a case expects.
 */
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountSummaryView } from '../src/account/views.js';
import { buildApp, type App } from '../src/api/app.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';

export const ACCOUNT = '101-004-1000005-001';
const TOKEN = 'bench-token';
export const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const QUOTE: Tick = { instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 };
export const DAY_MICROS = 86_400_000_000;

export const CONNECTIONS = 10;
/** Seconds an autocannon run may overstay its duration before it is stopped (a stuck server must not hang the run). */
const GUARD_S = 30;

export const LIMIT_BODY = JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' } });
export const MARKET_BODY = JSON.stringify({ order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
export const BARE_PATH = '/bare';
/** The bare server's route answering GET summary's very text, built once: what the response's size costs alone. */
export const BARE_SUMMARY_PATH = '/bare-summary';

const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export interface Server {
  readonly engine: Engine;
  readonly app: App | FastifyInstance;
  readonly url: string;
}

export async function startServer(bare: boolean, quotes: Iterable<Tick>): Promise<Server> {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000000' }], start: T0 });
  engine.pushTick(QUOTE);
  const app = bare ? bareFastify(engine) : await buildApp({ engine, tokens: [{ token: TOKEN, accounts: '*' }] });
  // After the app: its market data builds candles from the quotes it sees.
  for (const tick of quotes) engine.pushTick(tick);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { engine, app, url: `http://127.0.0.1:${port}` };
}

/** The floor on this machine: Fastify with one route answering a small JSON object, no hooks. */
function bareFastify(engine: Engine): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get(BARE_PATH, async () => ({ lastTransactionID: '1' }));
  const state = engine.account(ACCOUNT)?.state;
  if (state === undefined) throw new Error(`no account ${ACCOUNT}`);
  const summary = JSON.stringify({ account: accountSummaryView(state), lastTransactionID: String(state.lastTransactionID) });
  app.get(BARE_SUMMARY_PATH, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(summary);
  });
  // Fastify's own JSON parser reads the body; nothing looks at it.
  app.post(BARE_PATH, async () => ({ lastTransactionID: '1' }));
  return app;
}

export interface Load {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

/** One autocannon run against the server; resolves with its result, never hangs past the guard. */
export function cannon(url: string, load: Load, seconds: number): Promise<autocannon.Result> {
  const options: autocannon.Options = {
    url: `${url}${load.path}`,
    method: load.method,
    headers: HEADERS,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    workers: 1,
  };
  if (load.body !== undefined) options.body = load.body;
  return new Promise((resolve, reject) => {
    const started: { instance?: autocannon.Instance } = {};
    const guard = setTimeout(() => started.instance?.stop(), (seconds + GUARD_S) * 1000);
    started.instance = autocannon(options, (err, result) => {
      clearTimeout(guard);
      if (err !== null && err !== undefined) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(result);
    });
  });
}

/** One request by hand before the load: the status and transaction count the case expects. */
export async function probe(url: string, load: Load, status: number, transactions: number | undefined): Promise<string> {
  const init: RequestInit = { method: load.method, headers: HEADERS };
  if (load.body !== undefined) init.body = load.body;
  const res = await fetch(`${url}${load.path}`, init);
  const body = (await res.json()) as { relatedTransactionIDs?: unknown[] };
  const got = body.relatedTransactionIDs?.length;
  if (res.status !== status || (transactions !== undefined && got !== transactions)) {
    return `WARNING: probe answered ${res.status} with ${String(got)} transactions, expected ${status} with ${String(transactions)}`;
  }
  return '';
}
