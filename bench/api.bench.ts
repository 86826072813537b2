/**
 * HTTP API: requests per second and latency through the whole server (Fastify routing, auth hook,
 * schema validation, engine.execute, MemoryJournal line, JSON reply) over loopback.
 *
 * Each case gets a fresh engine (one USD account, one EUR/USD quote) and a server listening on
 * 127.0.0.1 at a free port. The load generator is autocannon 9 with `workers: 1`: it runs in a
 * worker thread of this process, so the server keeps the main thread (one of the two cores) to
 * itself. Each case is a WARMUP_S warm-up run (JIT), then a DURATION_S measured run with
 * CONNECTIONS keep-alive connections and no pipelining. Runs end by themselves; a guard stops
 * autocannon if it overstays, and the server is closed after each case.
 *
 * - POST /orders, resting LIMIT buy far below the market: 201 with one transaction (LIMIT_ORDER);
 * - POST /orders, MARKET buy: 201 with two (MARKET_ORDER + ORDER_FILL), a new trade each;
 * - GET /summary of the (empty) account;
 * - GET candles, the 500 latest M1 candles of a day of seeded generated EUR/USD quotes (what a
 *   client polling candles asks; their views are kept, so this is the answer printed from them);
 * - baselines: a bare Fastify server (no hooks, no schemas, no engine) with a GET route answering a
 *   small JSON object (what Fastify + loopback + autocannon reach on this machine at all), a GET
 *   route sending GET summary's very text (what the response's size costs alone), and a POST route
 *   reading the LIMIT case's JSON body with Fastify's own parser and answering a small object.
 *
 * The ratios of the goals are to the bare GET route, measured in the same run; POST cases get a
 * second verdict against the bare POST route, which pays for reading and parsing a body as they do.
 *
 * The POST cases grow the account (and the journal) for as long as they run: the pending-order
 * or open-trade count at the end is reported.
 *
 * autocannon's latency histogram has a 1 ms resolution: p50/p99 are whole milliseconds.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountSummaryView } from '../src/account/views.js';
import { buildApp, type App } from '../src/api/app.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { generateTicks } from '../src/engine/feeds/index.js';
import { fmtNum, isMain, runStandalone, type Row } from './lib.js';

const SUITE = 'api';
const ACCOUNT = '101-004-1000005-001';
const TOKEN = 'bench-token';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const QUOTE: Tick = { instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 };
const DAY_MICROS = 86_400_000_000;

export const CONNECTIONS = 10;
export const DURATION_S = 5;
const WARMUP_S = 1;
/** autocannon runs for DURATION_S; past this it is stopped (a stuck server must not hang the run). */
const GUARD_S = 30;

/** The goals of the issue. */
export const POST_GOAL = 15_000;
export const GET_GOAL = 25_000;
export const P99_GOAL_MS = 5;

const LIMIT_BODY = JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' } });
const MARKET_BODY = JSON.stringify({ order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
const BARE_PATH = '/bare';
/** The bare server's route answering GET summary's very text, built once: what the response's size costs alone. */
const BARE_SUMMARY_PATH = '/bare-summary';

/** The goals as ratios to the bare GET route (p99 as P99_GOAL_MS). */
export const GET_RATIO_GOAL = 0.8;
export const POST_RATIO_GOAL = 0.6;
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

interface Server {
  readonly engine: Engine;
  readonly app: App | FastifyInstance;
  readonly url: string;
}

async function startServer(bare: boolean, quotes: Iterable<Tick>): Promise<Server> {
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

interface Load {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

/** One autocannon run against the server; resolves with its result, never hangs past the guard. */
function cannon(url: string, load: Load, seconds: number): Promise<autocannon.Result> {
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
async function probe(url: string, load: Load, status: number, transactions: number | undefined): Promise<string> {
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

interface CaseSpec {
  readonly id: string;
  readonly name: string;
  readonly load: Load;
  readonly status: number;
  readonly transactions?: number;
  /** A bare Fastify server instead of the API (the baseline). */
  readonly bare?: boolean;
  /** Quotes the engine sees after QUOTE, before the load. */
  readonly quotes?: () => Iterable<Tick>;
  /** What the account holds at the end, for the note. */
  readonly growth?: (engine: Engine) => string;
}

interface CaseResult {
  readonly spec: CaseSpec;
  readonly result: autocannon.Result;
  readonly note: string;
}

async function runCase(spec: CaseSpec): Promise<CaseResult> {
  const server = await startServer(spec.bare === true, spec.quotes?.() ?? []);
  try {
    const probeNote = await probe(server.url, spec.load, spec.status, spec.transactions);
    await cannon(server.url, spec.load, WARMUP_S);
    const elu = performance.eventLoopUtilization();
    const result = await cannon(server.url, spec.load, DURATION_S);
    const busy = performance.eventLoopUtilization(elu);
    const growth = spec.growth?.(server.engine) ?? '';
    const r = result;
    const note = [
      `${fmtNum(r.requests.total)} requests in ${r.duration} s, ${CONNECTIONS} connections`,
      `server thread busy ${(busy.utilization * 100).toFixed(0)}% (${fmtNum((busy.active * 1000) / r.requests.total, 1)} µs per request)`,
      `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
      `non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`,
      growth,
      probeNote,
    ]
      .filter((s) => s !== '')
      .join('; ');
    process.stdout.write(`  ${spec.name}: ${fmtNum(r.requests.average)} req/s; ${note}\n`);
    return { spec, result, note };
  } finally {
    await server.app.close();
  }
}

const ORDERS_PATH = `/v3/accounts/${ACCOUNT}/orders`;

export const CASES: readonly CaseSpec[] = [
  {
    id: 'api.post.limit',
    name: 'POST /orders, resting LIMIT (1 transaction)',
    load: { method: 'POST', path: ORDERS_PATH, body: LIMIT_BODY },
    status: 201,
    transactions: 1,
    growth: (engine) =>
      `${fmtNum(engine.account(ACCOUNT)?.state.pendingCount ?? Number.NaN)} pending orders at the end (warm-up and probe included)`,
  },
  {
    id: 'api.post.market',
    name: 'POST /orders, MARKET that fills (2 transactions)',
    load: { method: 'POST', path: ORDERS_PATH, body: MARKET_BODY },
    status: 201,
    transactions: 2,
    growth: (engine) =>
      `${fmtNum(engine.account(ACCOUNT)?.state.openTradeCount ?? Number.NaN)} open trades at the end (warm-up and probe included)`,
  },
  {
    id: 'api.get.summary',
    name: 'GET /summary',
    load: { method: 'GET', path: `/v3/accounts/${ACCOUNT}/summary` },
    status: 200,
  },
  {
    id: 'api.bare',
    name: 'baseline: bare Fastify GET, one route, no hooks',
    load: { method: 'GET', path: BARE_PATH },
    status: 200,
    bare: true,
  },
  {
    id: 'api.bareSummary',
    name: 'baseline: bare Fastify GET sending the summary text, built once',
    load: { method: 'GET', path: BARE_SUMMARY_PATH },
    status: 200,
    bare: true,
  },
  {
    id: 'api.barePost',
    name: 'baseline: bare Fastify POST, the LIMIT body parsed, no hooks',
    load: { method: 'POST', path: BARE_PATH, body: LIMIT_BODY },
    status: 200,
    bare: true,
  },
  {
    id: 'api.get.candles',
    name: 'GET candles, 500 M1 of a day of generated quotes',
    load: { method: 'GET', path: '/v3/instruments/EUR_USD/candles?granularity=M1&count=500' },
    status: 200,
    quotes: () => generateTicks({ seed: 1, start: T0, end: T0 + DAY_MICROS, meanIntervalMicros: 500_000 }),
  },
];

function verdict(ok: boolean): string {
  return ok ? 'met   ' : 'MISSED';
}

/** The goals' verdicts, printed, and the ratio rows. */
function goals(results: readonly CaseResult[]): Row[] {
  const rows: Row[] = [];
  const byId = (id: string): autocannon.Result | undefined => results.find((r) => r.spec.id === id)?.result;
  process.stdout.write('api goals:\n');
  for (const [id, label, goal] of [
    ['api.post.limit', 'POST (resting LIMIT)', POST_GOAL],
    ['api.get.summary', 'GET summary', GET_GOAL],
  ] as const) {
    const r = byId(id);
    if (r === undefined) continue;
    process.stdout.write(`  ${verdict(r.requests.average >= goal)}  >= ${fmtNum(goal)} ${label}/s: ${fmtNum(r.requests.average)} req/s\n`);
    process.stdout.write(`  ${verdict(r.latency.p99 < P99_GOAL_MS)}  ${label} p99 < ${P99_GOAL_MS} ms: ${r.latency.p99} ms\n`);
  }
  const bareGet = byId('api.bare')?.requests.average;
  const barePost = byId('api.barePost')?.requests.average;
  /** One ratio's verdict, printed, and its row. */
  const ratioRow = (id: string, label: string, goal: number, ratio: number, bare: 'GET' | 'POST'): Row => {
    process.stdout.write(`  ${verdict(ratio >= goal)}  ${label} >= ${goal}x the bare ${bare} route: ${ratio.toFixed(2)}x\n`);
    return {
      suite: SUITE,
      id: bare === 'GET' ? `${id}.ratio` : `${id}.ratioPost`,
      name: `${label}: ratio to the bare ${bare} route`,
      value: Number(ratio.toFixed(3)),
      unit: 'x',
      note: bare === 'GET' ? `goal >= ${goal}` : `goal >= ${goal}; the bare POST route parses the same body`,
    };
  };
  for (const [id, label, goal] of [
    ['api.get.summary', 'GET summary', GET_RATIO_GOAL],
    ['api.post.limit', 'POST (resting LIMIT)', POST_RATIO_GOAL],
    ['api.post.market', 'POST (MARKET fill)', POST_RATIO_GOAL],
  ] as const) {
    const r = byId(id)?.requests.average;
    if (r === undefined || bareGet === undefined) continue;
    rows.push(ratioRow(id, label, goal, r / bareGet, 'GET'));
    // A POST is also measured against the bare route that reads and parses the same body: both
    // verdicts are printed, the bare POST route being itself well under the bare GET route.
    if (barePost !== undefined && id.startsWith('api.post')) rows.push(ratioRow(id, label, goal, r / barePost, 'POST'));
  }
  return rows;
}

export async function api(): Promise<Row[]> {
  process.stdout.write(
    `api: load generator autocannon 9 in a worker thread of this process (workers: 1); server on the main thread; ` +
      `${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per case; MemoryJournal\n`,
  );
  const results: CaseResult[] = [];
  const rows: Row[] = [];
  for (const spec of CASES) {
    // Each case from a collected heap: the garbage of the one before (a server with 100,000 orders) is not collected on its time.
    (globalThis as { gc?: () => void }).gc?.();
    try {
      results.push(await runCase(spec));
    } catch (err) {
      // A case that could not run is a NaN figure with the reason, not the end of the whole run.
      process.stdout.write(`  ${spec.name}: FAILED: ${String(err)}\n`);
      rows.push({ suite: SUITE, id: spec.id, name: spec.name, value: Number.NaN, unit: 'req/s', note: `failed: ${String(err)}` });
    }
  }

  for (const { spec, result, note } of results) {
    rows.push({ suite: SUITE, id: spec.id, name: spec.name, value: result.requests.average, unit: 'req/s', note });
    rows.push({
      suite: SUITE,
      id: `${spec.id}.p50`,
      name: `${spec.name}: p50 latency`,
      value: result.latency.p50,
      unit: 'ms',
      note: 'autocannon latency.p50 (1 ms resolution)',
    });
    rows.push({
      suite: SUITE,
      id: `${spec.id}.p99`,
      name: `${spec.name}: p99 latency`,
      value: result.latency.p99,
      unit: 'ms',
      note: 'autocannon latency.p99 (1 ms resolution)',
    });
    rows.push({
      suite: SUITE,
      id: `${spec.id}.bad`,
      name: `${spec.name}: non-2xx + errors`,
      value: result.non2xx + result.errors,
      unit: 'responses',
      note: `non-2xx ${result.non2xx}, errors ${result.errors} (timeouts ${result.timeouts})`,
    });
  }

  rows.push(...goals(results));
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(api);
