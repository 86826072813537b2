/**
 * Transaction stream fan-out: line deliveries per second from one server to its stream clients
 * (GET /v3/accounts/:id/transactions/stream, NDJSON over loopback).
 *
 * Each case gets a fresh engine (one USD account, one EUR/USD quote) and a server on 127.0.0.1 at
 * a free port, with a one-hour heartbeat (no heartbeat lines during the run) and a stream buffer
 * large enough that a reading client is never dropped. The clients are node:http GETs with the
 * bearer token in a worker thread of this process (the server keeps the main thread, one of the two
 * cores); each counts the newlines it receives and throws the data away.
 *
 * The transactions are made in process on the main thread: engine.execute(CREATE_ORDER) of a
 * resting LIMIT buy (one LIMIT_ORDER transaction each, so the account grows by one pending order
 * per line), BATCH at a time with a setImmediate between batches so the streams flush. A warm-up
 * of WARMUP_TX transactions is delivered first. The timed part starts before the first timed
 * batch and ends when the last client has counted every line (the worker stamps that moment with
 * process.hrtime, the same monotonic clock as the main thread's):
 *
 *   deliveries/s = transactions x clients / that wall time.
 *
 * With 0 clients the same loop gives the rate at which transactions are made at all (engine +
 * MemoryJournal line), the ceiling of the 1-client figure. Each case runs PASSES times on a fresh
 * server; the median pass is the figure. The main thread's event-loop utilization over the timed
 * part says whether the server side was the limit.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp, type App } from '../src/api/app.js';
import { activeStreamClients } from '../src/api/stream/registry.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import type { OrderRequest } from '../src/orders/request.js';
import { fmtNum, isMain, runStandalone, secondsSince, type Row } from './lib.js';

const SUITE = 'streams';
const ACCOUNT = '101-004-1000006-001';
const TOKEN = 'bench-token';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const QUOTE: Tick = { instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 };
const STREAM_PATH = `/v3/accounts/${ACCOUNT}/transactions/stream`;

/** Clients -> timed transactions per pass (about a second or two each; 100 x 20,000 = 2,000,000 deliveries). */
export const CASES: ReadonlyArray<readonly [clients: number, transactions: number]> = [
  [0, 100_000],
  [1, 100_000],
  [100, 20_000],
];
/** Fresh server per pass; the median pass is reported, the best one in the note. */
export const PASSES = 3;
const WARMUP_TX = 2_000;
/** engine.execute calls between two setImmediate yields. */
export const BATCH = 500;
const HEARTBEAT_MS = 3_600_000;
/** Per client; 102,000 lines of about 320 bytes are 33 MB, so even a client that read nothing would stay. */
const STREAM_BUFFER_MAX = 64 * 1024 * 1024;
/** Waits longer than this (connecting, delivering) end the case with what arrived. */
const GUARD_MS = 60_000;

/** The transaction stream's fan-out goal. */
export const DELIVERY_GOAL = 1_000_000;

const px = (points: number): string => (points / 100_000).toFixed(5);
/** Resting buys far below the market (1.05000 .. 1.04001): nothing ever fills. */
const ORDERS: readonly OrderRequest[] = Array.from({ length: 1_000 }, (_, i) => ({
  type: 'LIMIT',
  instrument: 'EUR_USD',
  units: '100',
  price: px(105_000 - i),
}));

/**
 * The clients (CommonJS, run with `eval: true`): open `count` streams, count newlines and bytes per
 * client, and report when every client has reached the expected line count.
 */
const CLIENT_WORKER = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, path, token, count } = workerData;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const lines = new Array(count).fill(0);
const bytes = new Array(count).fill(0);
const reachedFlags = new Uint8Array(count);
const requests = [];
let opened = 0;
let ended = 0;
let failed = 0;
let target = -1;
let reached = 0;
let closing = false;

function stats() {
  let min = Infinity, max = 0, sumLines = 0, sumBytes = 0;
  for (let i = 0; i < count; i += 1) {
    min = Math.min(min, lines[i]); max = Math.max(max, lines[i]);
    sumLines += lines[i]; sumBytes += bytes[i];
  }
  return { minLines: min, maxLines: max, sumLines, sumBytes, ended, failed };
}

function check(i) {
  if (target < 0 || reachedFlags[i] === 1 || lines[i] < target) return;
  reachedFlags[i] = 1;
  reached += 1;
  if (reached === count) parentPort.postMessage({ ev: 'done', at: process.hrtime.bigint(), ...stats() });
}

function gone() {
  if (!closing) ended += 1;
}

for (let i = 0; i < count; i += 1) {
  const req = http.get({ host: '127.0.0.1', port, path, agent, headers: { authorization: 'Bearer ' + token } }, (res) => {
    if (res.statusCode !== 200) failed += 1; else opened += 1;
    if (opened + failed === count) parentPort.postMessage({ ev: 'opened', opened, failed });
    res.on('data', (chunk) => {
      let n = 0;
      for (let j = chunk.indexOf(10); j !== -1; j = chunk.indexOf(10, j + 1)) n += 1;
      lines[i] += n;
      bytes[i] += chunk.length;
      check(i);
    });
    res.on('close', gone);
  });
  req.on('error', () => {
    if (closing) return;
    failed += 1;
    if (opened + failed === count) parentPort.postMessage({ ev: 'opened', opened, failed });
  });
  requests.push(req);
}

parentPort.on('message', (m) => {
  if (m.cmd === 'expect') {
    target = m.lines;
    reachedFlags.fill(0);
    reached = 0;
    for (let i = 0; i < count; i += 1) check(i);
  } else if (m.cmd === 'status') {
    parentPort.postMessage({ ev: 'status', ...stats() });
  } else if (m.cmd === 'close') {
    closing = true;
    for (const req of requests) req.destroy();
    agent.destroy();
    parentPort.postMessage({ ev: 'closed', ...stats() });
  }
});
`;

interface ClientStats {
  readonly minLines: number;
  readonly maxLines: number;
  readonly sumLines: number;
  readonly sumBytes: number;
  /** Streams that ended before the bench closed them (dropped or failed). */
  readonly ended: number;
  readonly failed: number;
}

type WorkerMessage =
  | { ev: 'opened'; opened: number; failed: number }
  | ({ ev: 'done'; at: bigint } & ClientStats)
  | ({ ev: 'status' } & ClientStats)
  | ({ ev: 'closed' } & ClientStats);

/** The next message of kind `ev`, or null after `ms`. */
function nextMessage<E extends WorkerMessage['ev']>(worker: Worker, ev: E, ms: number): Promise<Extract<WorkerMessage, { ev: E }> | null> {
  return new Promise((resolve) => {
    const onMessage = (m: WorkerMessage): void => {
      if (m.ev !== ev) return;
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(m as Extract<WorkerMessage, { ev: E }>);
    };
    const timer = setTimeout(() => {
      worker.off('message', onMessage);
      resolve(null);
    }, ms);
    worker.on('message', onMessage);
  });
}

/** `count` LIMIT orders, BATCH per event-loop turn. */
async function generate(engine: Engine, count: number, offset: number): Promise<void> {
  let i = 0;
  while (i < count) {
    const end = Math.min(count, i + BATCH);
    for (; i < end; i += 1) engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: ORDERS[(offset + i) % ORDERS.length] as OrderRequest });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

interface Server {
  readonly engine: Engine;
  readonly app: App;
  readonly port: number;
}

async function startServer(clients: number): Promise<Server> {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000000' }], start: T0 });
  engine.pushTick(QUOTE);
  const app = await buildApp({
    engine,
    tokens: [{ token: TOKEN, accounts: '*' }],
    heartbeatMs: HEARTBEAT_MS,
    streamBufferMax: STREAM_BUFFER_MAX,
    streamClientsMax: Math.max(clients, 1) + 10,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { engine, app, port: (app.server.address() as AddressInfo).port };
}

interface CaseResult {
  readonly clients: number;
  /** Seconds from the first timed batch until every client had every line (or NaN). */
  readonly seconds: number;
  /** Seconds spent making the transactions (the generation loop alone). */
  readonly genSeconds: number;
  readonly deliveries: number;
  readonly bytesPerLine: number;
  /** Event-loop utilization of the main thread (server + making) over the timed part. */
  readonly busy: number;
  readonly dropped: number;
  readonly warning: string;
}

async function runPass(clients: number, txCount: number): Promise<CaseResult> {
  const server = await startServer(clients);
  let worker: Worker | undefined;
  try {
    const warnings: string[] = [];
    if (clients > 0) {
      worker = new Worker(CLIENT_WORKER, {
        eval: true,
        workerData: { port: server.port, path: STREAM_PATH, token: TOKEN, count: clients },
      });
      worker.on('error', (err) => warnings.push(`worker error: ${String(err)}`));
      const opened = await nextMessage(worker, 'opened', GUARD_MS);
      if (opened === null || opened.failed > 0) throw new Error(`stream clients did not connect: ${JSON.stringify(opened)}`);
      const active = activeStreamClients(server.engine);
      if (active !== clients) warnings.push(`${active} streams registered, expected ${clients}`);
      // Warm-up: the same path, delivered in full before the timed part.
      const warm = nextMessage(worker, 'done', GUARD_MS);
      worker.postMessage({ cmd: 'expect', lines: WARMUP_TX });
      await generate(server.engine, WARMUP_TX, 0);
      if ((await warm) === null) warnings.push('warm-up not delivered in time');
    } else {
      await generate(server.engine, WARMUP_TX, 0);
    }

    const done = worker === undefined ? null : nextMessage(worker, 'done', GUARD_MS);
    worker?.postMessage({ cmd: 'expect', lines: WARMUP_TX + txCount });
    const elu = performance.eventLoopUtilization();
    const start = process.hrtime.bigint();
    await generate(server.engine, txCount, WARMUP_TX);
    const genSeconds = secondsSince(start);
    let seconds = genSeconds;
    let bytesPerLine = Number.NaN;
    let ended = 0;
    if (worker !== undefined) {
      const result = await done;
      if (result === null) {
        const status = nextMessage(worker, 'status', 5_000);
        worker.postMessage({ cmd: 'status' });
        warnings.push(`not every client got every line within ${GUARD_MS / 1000} s: ${JSON.stringify(await status)}`);
        seconds = Number.NaN;
      } else {
        seconds = Number(result.at - start) / 1e9;
        bytesPerLine = result.sumBytes / result.sumLines;
        ended = result.ended;
      }
    }
    const busy = performance.eventLoopUtilization(elu).utilization;
    const stillOpen = activeStreamClients(server.engine);
    const dropped = Math.max(clients - stillOpen, ended);
    const pending = server.engine.account(ACCOUNT)?.state.pendingCount;
    if (pending !== WARMUP_TX + txCount) warnings.push(`${String(pending)} pending orders, expected ${WARMUP_TX + txCount}`);
    return {
      clients,
      seconds,
      genSeconds,
      deliveries: txCount * Math.max(clients, 1),
      bytesPerLine,
      busy,
      dropped,
      warning: warnings.join('; '),
    };
  } finally {
    if (worker !== undefined) {
      const closed = nextMessage(worker, 'closed', 5_000);
      worker.postMessage({ cmd: 'close' });
      await closed;
      await worker.terminate();
    }
    await server.app.close();
  }
}

/** Transactions per second (0 clients) or line deliveries per second. */
const rateOf = (r: CaseResult): number => r.deliveries / r.seconds;

/** PASSES passes; the median by rate (NaN rates sort last, so a failed pass is not hidden by the median alone). */
async function runCase(clients: number, txCount: number): Promise<{ median: CaseResult; best: CaseResult; all: CaseResult[] }> {
  const all: CaseResult[] = [];
  for (let p = 0; p < PASSES; p += 1) {
    try {
      all.push(await runPass(clients, txCount));
    } catch (err) {
      // A pass that could not run is a NaN figure with the reason, not the end of the whole run.
      all.push({
        clients,
        seconds: Number.NaN,
        genSeconds: Number.NaN,
        deliveries: txCount * Math.max(clients, 1),
        bytesPerLine: Number.NaN,
        busy: Number.NaN,
        dropped: 0,
        warning: `pass failed: ${String(err)}`,
      });
    }
  }
  const sorted = [...all].sort((a, b) => (Number.isNaN(rateOf(a)) ? 1 : Number.isNaN(rateOf(b)) ? -1 : rateOf(a) - rateOf(b)));
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)] as CaseResult,
    best: sorted.filter((r) => !Number.isNaN(rateOf(r))).at(-1) ?? (sorted[0] as CaseResult),
    all,
  };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function streams(): Promise<Row[]> {
  process.stdout.write(
    `streams: clients (node:http) in a worker thread of this process; server and transaction making on the main thread; ` +
      `${fmtNum(WARMUP_TX)} warm-up + timed LIMIT orders, ${BATCH} per event-loop turn; MemoryJournal; median of ${PASSES} passes\n`,
  );
  const rows: Row[] = [];
  for (const [clients, txCount] of CASES) {
    const { median: r, best, all } = await runCase(clients, txCount);
    const rate = rateOf(r);
    const passes = all.map((x) => fmtNum(rateOf(x))).join(', ');
    const dropped = all.reduce((n, x) => n + x.dropped, 0);
    const warnings = [...new Set(all.map((x) => x.warning).filter((w) => w !== ''))].join('; ');
    if (clients === 0) {
      const note = `${fmtNum(txCount)} LIMIT orders in ${r.seconds.toFixed(3)} s (engine.execute + MemoryJournal, ${BATCH} per turn); passes ${passes} tx/s${warnings === '' ? '' : `; ${warnings}`}`;
      process.stdout.write(`  0 clients: ${fmtNum(rate)} transactions/s made (no stream); ${note}\n`);
      rows.push({ suite: SUITE, id: 'streams.tx0', name: 'transactions made, no stream client', value: rate, unit: 'tx/s', note });
      continue;
    }
    const note =
      `${fmtNum(txCount)} tx x ${plural(clients, 'client')} in ${r.seconds.toFixed(3)} s (making them: ${r.genSeconds.toFixed(3)} s), ` +
      `${fmtNum(txCount / r.seconds)} tx/s; server thread busy ${(r.busy * 100).toFixed(0)}%; ${fmtNum(r.bytesPerLine)} B/line, ${fmtNum((rate * r.bytesPerLine) / 2 ** 20, 0)} MB/s; ` +
      `passes ${passes} (best ${fmtNum(rateOf(best))}); dropped ${dropped}${warnings === '' ? '' : `; ${warnings}`}`;
    process.stdout.write(`  ${plural(clients, 'client')}: ${fmtNum(rate)} line deliveries/s; ${note}\n`);
    rows.push({
      suite: SUITE,
      id: `streams.fanout${clients}`,
      name: `transaction stream, ${plural(clients, 'client')}`,
      value: rate,
      unit: 'lines/s',
      note,
    });
    rows.push({
      suite: SUITE,
      id: `streams.fanout${clients}.dropped`,
      name: `transaction stream, ${plural(clients, 'client')}: dropped`,
      value: dropped,
      unit: 'clients',
      note: `streams the server ended before the bench closed them, over ${PASSES} passes`,
    });
    if (clients === 100) {
      process.stdout.write(
        `streams goal:\n  ${rate >= DELIVERY_GOAL ? 'met   ' : 'MISSED'}  >= ${fmtNum(DELIVERY_GOAL)} line deliveries/s to 100 clients: ${fmtNum(rate)} lines/s (median pass)\n`,
      );
    }
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(streams);
