/**
 * HTTP API: requests per second and latency through the whole server (Fastify routing, auth hook,
 * schema validation, engine.execute, MemoryJournal line, JSON reply) over loopback.
 *
 * Each case gets a fresh engine (one USD account, one EUR/USD quote) and a server listening on
 * 127.0.0.1 at a free port. The load generator is autocannon 9 with `workers: 1`: it runs in a
 * worker thread of this process, so the server keeps the main thread (one of the two cores) to
 * itself. The cases run in ROUNDS rounds, in an order rotated each round; in each, a case gets a
 * fresh server, a WARMUP_S warm-up run (JIT), then a DURATION_S measured run with CONNECTIONS
 * keep-alive connections and no pipelining. A case's figure is the median of its rounds, and a
 * ratio to a bare route is taken within each round before the median: on a shared machine a
 * route measured a minute later can be 20-30% faster or slower by itself. Runs end by themselves;
 * a guard stops autocannon if it overstays, and each server is closed after its run.
 *
 * - POST /orders, resting LIMIT buy far below the market: 201 with one transaction (LIMIT_ORDER);
 * - POST /orders, MARKET buy: 201 with two (MARKET_ORDER + ORDER_FILL), a new trade each;
 * - GET /summary of the (empty) account;
 * - GET candles (once, after the rounds), the 500 latest M1 candles of a day of seeded generated EUR/USD quotes (what a
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
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import type { Tick } from '../src/domain/tick.js';
import type { Engine } from '../src/engine/engine.js';
import { generateTicks } from '../src/engine/feeds/index.js';
import {
  ACCOUNT,
  BARE_PATH,
  BARE_SUMMARY_PATH,
  CONNECTIONS,
  DAY_MICROS,
  LIMIT_BODY,
  MARKET_BODY,
  T0,
  cannon,
  probe,
  startServer,
  type Load,
} from './api-servers.js';
import { collector, fmtNum, fmtSpread, isMain, runStandalone, spreadOf, type Row, type Spread } from './lib.js';

const SUITE = 'api';
/**
 * Rounds: every case but those measured once runs once in each, on a fresh server. Five, not
 * three: on a shared VM one round's ratio can be half or twice the next's, and the median of
 * three moved with a single disturbed round.
 */
export const ROUNDS = 5;
/** Seconds of load per case and round. */
export const DURATION_S = 3;
const WARMUP_S = 1;

/** The HTTP API's speed goals. */
export const POST_GOAL = 15_000;
export const GET_GOAL = 25_000;
export const P99_GOAL_MS = 5;
/** The goals as ratios to the bare GET route (p99 as P99_GOAL_MS). */
export const GET_RATIO_GOAL = 0.8;
export const POST_RATIO_GOAL = 0.6;

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
  /** Measured once after the rounds rather than in each (no ratio depends on it, and its set-up is long). */
  readonly once?: boolean;
}

/** One measured run of a case: a fresh server, its probe, a warm-up and DURATION_S under load. */
interface Slice {
  readonly result: autocannon.Result;
  /** Microseconds the server's thread was busy per request. */
  readonly busyMicros: number;
  readonly busyShare: number;
  readonly growth: string;
  readonly probeNote: string;
}

interface CaseResult {
  readonly spec: CaseSpec;
  /** One per round it ran in (index = round), undefined where a round's run failed. */
  readonly slices: readonly (Slice | undefined)[];
  /** Its figures over the rounds that ran; undefined when none did. */
  readonly figures: Figures | undefined;
}

/** A case's figures over its rounds, worked out once for its rows, its note and the goals. */
interface Figures {
  readonly rounds: number;
  /** Requests per second: the median of the rounds (min, max). */
  readonly rate: Spread;
  readonly requests: number;
  readonly busyShare: number;
  readonly busyMicros: number;
  /** p50 the median of the rounds; p99 and max the worst round's (ms). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly growth: string;
  readonly probeNotes: string;
}

async function runSlice(spec: CaseSpec): Promise<Slice> {
  const server = await startServer(spec.bare === true, spec.quotes?.() ?? []);
  try {
    const probeNote = await probe(server.url, spec.load, spec.status, spec.transactions);
    await cannon(server.url, spec.load, WARMUP_S);
    const elu = performance.eventLoopUtilization();
    const result = await cannon(server.url, spec.load, DURATION_S);
    const busy = performance.eventLoopUtilization(elu);
    const growth = spec.growth?.(server.engine) ?? '';
    return { result, busyMicros: (busy.active * 1000) / result.requests.total, busyShare: busy.utilization, growth, probeNote };
  } finally {
    await server.app.close();
  }
}

function figuresOf(slices: readonly (Slice | undefined)[]): Figures | undefined {
  const done = slices.filter((slice): slice is Slice => slice !== undefined);
  if (done.length === 0) return undefined;
  const median = (f: (slice: Slice) => number): number => spreadOf(done.map(f)).median;
  const worst = (f: (slice: Slice) => number): number => Math.max(...done.map(f));
  const sum = (f: (slice: Slice) => number): number => done.reduce((t, slice) => t + f(slice), 0);
  return {
    rounds: done.length,
    rate: spreadOf(done.map((slice) => slice.result.requests.average)),
    requests: sum((slice) => slice.result.requests.total),
    busyShare: median((slice) => slice.busyShare),
    busyMicros: median((slice) => slice.busyMicros),
    p50: median((slice) => slice.result.latency.p50),
    p99: worst((slice) => slice.result.latency.p99),
    max: worst((slice) => slice.result.latency.max),
    non2xx: sum((slice) => slice.result.non2xx),
    errors: sum((slice) => slice.result.errors),
    timeouts: sum((slice) => slice.result.timeouts),
    growth: done[done.length - 1]?.growth ?? '',
    probeNotes: [...new Set(done.map((slice) => slice.probeNote))].join('; '),
  };
}

function caseNote(f: Figures): string {
  return [
    f.rounds === 1 ? '1 run' : `median of ${f.rounds} rounds (min-max) ${fmtSpread(f.rate)} req/s`,
    `${fmtNum(f.requests)} requests in ${f.rounds} x ${DURATION_S} s, ${CONNECTIONS} connections`,
    `server thread busy ${(f.busyShare * 100).toFixed(0)}% (${fmtNum(f.busyMicros, 1)} µs per request)`,
    `p50 ${f.p50} ms, p99 ${f.p99} ms (worst round), max ${f.max} ms`,
    `non-2xx ${f.non2xx}, errors ${f.errors}, timeouts ${f.timeouts}`,
    f.growth,
    f.probeNotes,
  ]
    .filter((s) => s !== '')
    .join('; ');
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
    once: true,
  },
];

function verdict(ok: boolean): string {
  return ok ? 'met   ' : 'MISSED';
}

/** The goals' verdicts, printed, and the ratio rows. */
function goals(results: readonly CaseResult[]): Row[] {
  const rows: Row[] = [];
  const byId = (id: string): CaseResult | undefined => results.find((r) => r.spec.id === id);
  process.stdout.write('api goals:\n');
  for (const [id, label, goal] of [
    ['api.post.limit', 'POST (resting LIMIT)', POST_GOAL],
    ['api.get.summary', 'GET summary', GET_GOAL],
  ] as const) {
    const f = byId(id)?.figures;
    if (f === undefined) continue;
    const rate = f.rate.median;
    const p99 = f.p99;
    process.stdout.write(`  ${verdict(rate >= goal)}  >= ${fmtNum(goal)} ${label}/s: ${fmtNum(rate)} req/s (median of the rounds)\n`);
    process.stdout.write(`  ${verdict(p99 < P99_GOAL_MS)}  ${label} p99 < ${P99_GOAL_MS} ms: ${p99} ms (worst round)\n`);
  }
  /**
   * One ratio's verdict, printed, and its row: the case's rate over the bare route's within each
   * round (measured minutes apart, a ratio would carry whatever else the machine did in between),
   * the verdict on their median.
   */
  const ratioRow = (c: CaseResult, label: string, goal: number, bare: CaseResult, bareName: 'GET' | 'POST'): Row | undefined => {
    const ratios: number[] = [];
    c.slices.forEach((slice, round) => {
      const base = bare.slices[round];
      if (slice !== undefined && base !== undefined) ratios.push(slice.result.requests.average / base.result.requests.average);
    });
    if (ratios.length === 0) return undefined;
    const s = spreadOf(ratios);
    const each = ratios.map((r) => r.toFixed(2)).join(', ');
    process.stdout.write(
      `  ${verdict(s.median >= goal)}  ${label} >= ${goal}x the bare ${bareName} route: ${s.median.toFixed(2)}x (rounds: ${each})\n`,
    );
    return {
      suite: SUITE,
      id: bareName === 'GET' ? `${c.spec.id}.ratio` : `${c.spec.id}.ratioPost`,
      name: `${label}: ratio to the bare ${bareName} route`,
      value: Number(s.median.toFixed(3)),
      unit: 'x',
      note:
        `goal >= ${goal}; median of ${ratios.length} rounds (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)}), each within one round` +
        (bareName === 'POST' ? '; the bare POST route parses the same body' : ''),
    };
  };
  const bareGet = byId('api.bare');
  const barePost = byId('api.barePost');
  for (const [id, label, goal] of [
    ['api.get.summary', 'GET summary', GET_RATIO_GOAL],
    ['api.post.limit', 'POST (resting LIMIT)', POST_RATIO_GOAL],
    ['api.post.market', 'POST (MARKET fill)', POST_RATIO_GOAL],
  ] as const) {
    const c = byId(id);
    if (c === undefined || bareGet === undefined) continue;
    const row = ratioRow(c, label, goal, bareGet, 'GET');
    if (row !== undefined) rows.push(row);
    // A POST is also measured against the bare route that reads and parses the same body: both
    // verdicts are printed, the bare POST route being itself well under the bare GET route.
    const postRow = barePost !== undefined && id.startsWith('api.post') ? ratioRow(c, label, goal, barePost, 'POST') : undefined;
    if (postRow !== undefined) rows.push(postRow);
  }
  return rows;
}

/** One run of a case in a round, or undefined (printed) when it could not run. */
async function sliceOrFailure(spec: CaseSpec, gc: () => void, round: string): Promise<Slice | undefined> {
  // Each run from a collected heap: the garbage of the one before (a server with 100,000 orders) is not collected on its time.
  gc();
  try {
    const slice = await runSlice(spec);
    const r = slice.result;
    process.stdout.write(
      `  ${round}${spec.name}: ${fmtNum(r.requests.average)} req/s; ${fmtNum(slice.busyMicros, 1)} µs per request in the server; p99 ${r.latency.p99} ms\n`,
    );
    return slice;
  } catch (err) {
    // A run that could not happen is a gap in the figures with the reason, not the end of the whole run.
    process.stdout.write(`  ${round}${spec.name}: FAILED: ${String(err)}\n`);
    return undefined;
  }
}

/** A case's rows: its requests per second, p50, p99 and bad answers over the rounds. */
function caseRows({ spec, figures: f }: CaseResult): Row[] {
  if (f === undefined)
    return [{ suite: SUITE, id: spec.id, name: spec.name, value: Number.NaN, unit: 'req/s', note: 'failed in every round' }];
  const note = caseNote(f);
  process.stdout.write(`  ${spec.name}: ${fmtNum(f.rate.median)} req/s; ${note}\n`);
  return [
    { suite: SUITE, id: spec.id, name: spec.name, value: f.rate.median, unit: 'req/s', note },
    {
      suite: SUITE,
      id: `${spec.id}.p50`,
      name: `${spec.name}: p50 latency`,
      value: f.p50,
      unit: 'ms',
      note: 'autocannon latency.p50 (1 ms resolution), median of the rounds',
    },
    {
      suite: SUITE,
      id: `${spec.id}.p99`,
      name: `${spec.name}: p99 latency`,
      value: f.p99,
      unit: 'ms',
      note: 'autocannon latency.p99 (1 ms resolution), the worst round',
    },
    {
      suite: SUITE,
      id: `${spec.id}.bad`,
      name: `${spec.name}: non-2xx + errors`,
      value: f.non2xx + f.errors,
      unit: 'responses',
      note: `non-2xx ${f.non2xx}, errors ${f.errors} (timeouts ${f.timeouts}), all rounds`,
    },
  ];
}

export async function api(): Promise<Row[]> {
  process.stdout.write(
    `api: load generator autocannon 9 in a worker thread of this process (workers: 1); server on the main thread; ` +
      `${CONNECTIONS} connections; ${ROUNDS} rounds, each case in each round on a fresh server ` +
      `(${WARMUP_S} s warm-up + ${DURATION_S} s), the cases' order rotated each round; MemoryJournal\n`,
  );
  const gc = collector();
  const rounded = CASES.filter((c) => c.once !== true);
  const slices = new Map<string, (Slice | undefined)[]>(CASES.map((c) => [c.id, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotated, so no case always runs first (on the coolest machine) or right after the same one.
    const order = [...rounded.slice(round % rounded.length), ...rounded.slice(0, round % rounded.length)];
    for (const spec of order) {
      const slice = await sliceOrFailure(spec, gc, `[${round + 1}/${ROUNDS}] `);
      const list = slices.get(spec.id);
      if (list !== undefined) list[round] = slice;
    }
  }
  for (const spec of CASES.filter((c) => c.once === true)) slices.get(spec.id)?.push(await sliceOrFailure(spec, gc, ''));

  const results: CaseResult[] = CASES.map((spec) => {
    const list = slices.get(spec.id) ?? [];
    return { spec, slices: list, figures: figuresOf(list) };
  });
  const rows = results.flatMap(caseRows);
  rows.push(...goals(results));
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(api);
