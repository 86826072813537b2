import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AccountConfig } from '../account/state.js';
import { buildApp, type App } from '../api/app.js';
import type { ApiOptions, TokenGrant } from '../api/context.js';
import { buildCatalogue } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';
import type { CreateTransaction } from '../domain/transactions.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { DEFAULT_GENERATOR_START, generateTicks, mergeByTime, readTicks } from '../engine/feeds/index.js';
import { JournalCorruptError, JournalWriteError } from '../journal/file-journal.js';
import type { ServeSettings } from './config.js';
import { DataDir, DataDirLockedError } from './data-dir.js';
import { FeedPump, TickQueue, type Timers } from './pump.js';
import { ShellEngine } from './shell-engine.js';
import { VERSION } from './version.js';

export interface ServeIo {
  out(line: string): void;
  err(line: string): void;
  /** A fatal error after start (a failed journal write): print and end the process. */
  fatal(message: string): never;
}

export interface ServeHandle {
  /** http://host:port of the REST and stream API. */
  readonly url: string;
  readonly engine: Engine;
  readonly app: App;
  close(): Promise<void>;
}

/** A refusal to start, with the exit code the CLI should end with. */
export class StartError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2) {
    super(message);
    this.name = 'StartError';
  }
}

let lastWall: Micros = 0;

/**
 * The wall clock in microseconds: the system clock, with the sub-millisecond digits of the
 * monotonic clock, never going back (a system clock set back holds still until it catches up).
 */
function wallMicros(): Micros {
  const t = Date.now() * 1000 + Math.floor((performance.now() * 1000) % 1000);
  if (t > lastWall) lastWall = t;
  return lastWall;
}

const realTimers: Timers = {
  nowMs: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function randomToken(): string {
  return randomBytes(24).toString('hex');
}


function sha256File(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The price source of the settings, opened; null when prices only come from /sim/ticks. */
function openFeed(settings: ServeSettings, generatorStart: Micros): TickQueue | null {
  if (settings.ticks.length > 0) {
    const sources = settings.ticks.map((s, i) => {
      try {
        if (!statSync(s.file).isFile()) throw new Error('not a file');
      } catch (error) {
        throw new StartError(`ticks[${i}]: cannot read ${s.file}: ${(error as Error).message}`, 2);
      }
      const opts: { format?: typeof s.format; instrument?: string } = {};
      if (s.format !== undefined) opts.format = s.format;
      if (s.instrument !== undefined) opts.instrument = s.instrument;
      return readTicks(s.file, opts);
    });
    return new TickQueue(sources.length === 1 ? (sources[0] as Iterable<Tick>) : mergeByTime(sources));
  }
  const g = settings.generator;
  if (g === undefined) return null;
  try {
    return new TickQueue(generateTicks({
      seed: g.seed,
      instruments: g.instruments,
      start: generatorStart,
      count: Number.MAX_SAFE_INTEGER,
      meanIntervalMicros: g.meanIntervalMicros,
      catalogue: buildCatalogue(settings.instruments),
    }));
  } catch (error) {
    throw new StartError(`generator: ${(error as Error).message}`, 2);
  }
}

function firstTick(queue: TickQueue | null): Tick | undefined {
  try {
    return queue?.peek();
  } catch (error) {
    throw new StartError(`cannot read the first tick: ${(error as Error).message}`, 2);
  }
}

function lastTime(data: DataDir | undefined): Micros {
  let latest = Number.NEGATIVE_INFINITY;
  if (data === undefined) return latest;
  for (const id of data.journal.accountIds()) {
    const tx = data.journal.last(id);
    const t = tx === undefined ? null : parseDateTime(tx.time, 'RFC3339');
    if (t !== null && t > latest) latest = t;
  }
  return latest;
}

/** The config of an account found in the data dir: as recorded, else from its CREATE transaction. */
function restoredConfig(data: DataDir, id: string): AccountConfig {
  const recorded = data.recordedAccount(id);
  if (recorded !== undefined) return recorded;
  const first = data.journal.read(id)[0];
  if (first?.type !== 'CREATE') throw new StartError(`journal ${data.journal.path(id)} does not start with a CREATE transaction`, 1);
  return { id, currency: (first as CreateTransaction).homeCurrency };
}

/** A configured account must agree with the history in the data dir on what cannot change. */
function checkAgainstHistory(data: DataDir, config: AccountConfig, index: number): void {
  if (!data.journal.accountIds().includes(config.id)) return;
  const history = restoredConfig(data, config.id);
  if (history.currency !== config.currency) {
    throw new StartError(`accounts[${index}].currency: ${config.id} is ${config.currency} in the config but its journal in ${data.dir} was opened in ${history.currency}`, 2);
  }
  const recorded = data.recordedAccount(config.id);
  if (recorded !== undefined && (recorded.hedgingEnabled ?? false) !== (config.hedgingEnabled ?? false)) {
    throw new StartError(`accounts[${index}].hedging: ${config.id} was opened with hedging ${recorded.hedgingEnabled ?? false} in ${data.dir}; it cannot change on an account with history`, 2);
  }
}

function checkTokens(tokens: readonly TokenGrant[], engine: Engine): void {
  const known = new Set(engine.accountIds());
  tokens.forEach((t, i) => {
    if (t.accounts === '*') return;
    t.accounts.forEach((id, j) => {
      if (!known.has(id)) throw new StartError(`tokens[${i}].accounts[${j}]: ${id} is neither in the config's accounts nor in the data dir`, 2);
    });
  });
}

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

function describePrices(settings: ServeSettings): string {
  if (settings.ticks.length > 0) return `${settings.ticks.length === 1 ? 'tick file' : 'tick files'} ${settings.ticks.map((t) => t.file).join(', ')}`;
  if (settings.generator !== undefined) return `seeded generator (seed ${JSON.stringify(settings.generator.seed)}) for ${settings.generator.instruments.join(', ')}`;
  return 'pushed ticks only (POST /sim/ticks)';
}

function banner(settings: ServeSettings, url: string, engine: Engine, listenAll: boolean, data: DataDir | undefined): string[] {
  const lines: string[] = [];
  const clock = settings.clock === 'replay'
    ? `replay at ${settings.speed === Number.POSITIVE_INFINITY ? 'full speed' : `${settings.speed}x real time`}`
    : settings.clock === 'live' ? 'live (wall clock)' : 'manual (POST /sim/clock/advance, /sim/ticks)';
  lines.push(`v20sim ${VERSION}: v20 paper-trading server`);
  lines.push(`  base URL:    ${url}${listenAll ? `   (listening on all interfaces, ${settings.host})` : ''}`);
  lines.push(`  stream URL:  ${url}   (same server: /v3/accounts/{id}/pricing/stream, /transactions/stream)`);
  lines.push(`  clock:       ${clock}, simulated time ${formatRfc3339(engine.now)}`);
  lines.push(`  prices:      ${describePrices(settings)}`);
  const generated = new Set(settings.generatedTokens);
  for (const t of settings.tokens) {
    const which = t.accounts === '*' ? 'all accounts' : t.accounts.join(', ');
    lines.push(`  token:       ${generated.has(t.token) ? t.token : '(configured)'}   (${which})`);
  }
  lines.push(`  admin token: ${settings.adminTokenGenerated ? settings.adminToken : '(configured)'}   (control API under ${url}/sim)`);
  const ids = engine.accountIds();
  ids.forEach((id, i) => {
    const state = engine.account(id)?.state;
    const label = state === undefined ? '' : `  ${state.currency}  ${state.alias}`.trimEnd();
    lines.push(`  ${i === 0 ? 'accounts:   ' : '            '} ${id}${label}`);
  });
  lines.push(`  data dir:    ${data === undefined ? 'none (state is lost on exit; use --data-dir DIR to keep it)' : data.dir}`);
  const first = ids[0];
  const grant = settings.tokens.find((t) => first !== undefined && (t.accounts === '*' || t.accounts.includes(first))) ?? settings.tokens[0];
  // A configured token is not printed: the config holds it.
  const token = grant === undefined ? '' : generated.has(grant.token) ? grant.token : '$TOKEN';
  if (first !== undefined) {
    const instrument = settings.generator?.instruments[0] ?? 'EUR_USD';
    lines.push('  try:');
    lines.push(`    curl -s -H "Authorization: Bearer ${token}" ${url}/v3/accounts/${first}/summary`);
    lines.push(`    curl -s -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"order":{"type":"MARKET","instrument":"${instrument}","units":"1000"}}' ${url}/v3/accounts/${first}/orders`);
    lines.push(`    curl -sN -H "Authorization: Bearer ${token}" "${url}/v3/accounts/${first}/pricing/stream?instruments=${instrument}"`);
  }
  return lines;
}

/**
 * Starts `serve`: restores or opens the accounts, builds the API over the engine, listens, and
 * drives the clock of the chosen mode. Resolves once the server is listening.
 */
export async function startServe(settings: ServeSettings, io: ServeIo): Promise<ServeHandle> {
  const wallAtStart = wallMicros();
  const queue = openFeed(settings, settings.clock === 'live' ? wallAtStart : (settings.start ?? DEFAULT_GENERATOR_START));
  let data: DataDir | undefined;
  let closed = false;
  const cleanups: (() => void)[] = [];
  const cleanup = (): void => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        fn();
      } catch {
        // Closing is best effort.
      }
    }
  };
  if (queue !== null) cleanups.push(() => queue.close());
  try {
    if (settings.dataDir !== undefined) {
      try {
        data = DataDir.open(settings.dataDir, settings.fsync);
      } catch (error) {
        if (error instanceof DataDirLockedError) throw new StartError(error.message, 2);
        throw new StartError(`cannot open data dir ${settings.dataDir}: ${(error as Error).message}`, 1);
      }
      const opened = data;
      cleanups.push(() => opened.close());
      for (const w of data.warnings) io.err(`v20sim: ${w}`);
    }

    const first = firstTick(queue);
    let start: Micros = settings.clock === 'live' ? wallAtStart : (settings.start ?? first?.time ?? DEFAULT_GENERATOR_START);
    // A restored account's clock is its last transaction: the engine may not start before it.
    start = Math.max(start, lastTime(data));

    const configured = settings.accounts;
    const extra: AccountConfig[] = [];
    if (data !== undefined) {
      try {
        configured.forEach((c, i) => checkAgainstHistory(data as DataDir, c, i));
        const ids = new Set(configured.map((c) => c.id));
        for (const id of data.journal.accountIds()) if (!ids.has(id)) extra.push(restoredConfig(data, id));
      } catch (error) {
        if (error instanceof JournalCorruptError) throw new StartError(`cannot restore the accounts of ${data.dir}: ${error.message}`, 1);
        throw error;
      }
      for (const c of configured) data.recordAccount(c);
    }

    let inner: Engine;
    try {
      inner = createEngine({
        accounts: configured,
        instruments: settings.instruments,
        seed: settings.seed,
        start,
        ...(data === undefined ? {} : { journal: data.journal }),
      });
      for (const c of extra) inner.openAccount(c);
    } catch (error) {
      if (error instanceof StartError) throw error;
      const where = data === undefined ? '' : ` from ${data.dir}`;
      const detail = error instanceof JournalCorruptError ? error.message : (error as Error).message;
      throw new StartError(`cannot open the accounts${where}: ${detail}`, data === undefined ? 2 : 1);
    }
    checkTokens(settings.tokens, inner);

    const onError = (error: unknown): void => {
      // A journal write failed: memory is now ahead of the disk. Stop before anyone is told otherwise.
      if (error instanceof JournalWriteError) io.fatal(`v20sim: ${error.message}; stopping so that no unrecorded transaction is acknowledged`);
    };

    let pump: FeedPump | undefined;
    const manualFeed = settings.clock === 'manual' ? queue : null;
    const engine = new ShellEngine(inner, {
      onError,
      ...(data === undefined ? {} : { beforeOpen: (config: AccountConfig) => (data as DataDir).recordAccount(config) }),
      ...(manualFeed === null ? {} : { beforeTime: (time: Micros) => manualFeed.drainUntil(inner, time) }),
      afterTime: () => pump?.kick(),
    });

    const liveNow = (): Micros => Math.max(wallMicros(), inner.now);
    const apiOptions: { -readonly [K in keyof ApiOptions]: ApiOptions[K] } = { engine, tokens: settings.tokens, adminToken: settings.adminToken };
    if (settings.clock === 'live') apiOptions.now = liveNow;
    if (settings.heartbeatMs !== undefined) apiOptions.heartbeatMs = settings.heartbeatMs;
    const restoredBase = requestIdBaseAfter(engine);
    if (restoredBase !== undefined) apiOptions.requestIdBase = restoredBase;
    const app = await buildApp(apiOptions);
    let appClosing: Promise<void> | undefined;
    const closeApp = (): Promise<void> => (appClosing ??= app.close());
    cleanups.push(() => void closeApp());
    try {
      await app.listen({ host: settings.host, port: settings.port });
    } catch (error) {
      throw new StartError(`cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`, 1);
    }
    const address = app.server.address() as AddressInfo;
    const url = `http://${urlHost(address)}:${address.port}`;
    const listenAll = address.address === '0.0.0.0' || address.address === '::';
    // The machine-readable first line; then the human-readable banner.
    io.out(`listening ${url}`);
    for (const line of banner(settings, url, engine, listenAll, data)) io.out(line);

    if (data !== undefined) {
      const prices = settings.ticks.length > 0
        ? { ticks: settings.ticks.map((t) => ({ file: t.file, bytes: statSync(t.file).size, sha256: sha256File(t.file) })) }
        : settings.generator !== undefined ? { generator: settings.generator } : { pushed: true };
      data.recordRun({
        started: new Date(Math.floor(wallAtStart / 1000)).toISOString(),
        v20sim: VERSION,
        seed: inner.info.seed,
        configDigest: inner.info.configDigest,
        configFile: settings.configFile ?? null,
        configFileSha256: settings.configFile === undefined ? null : sha256File(settings.configFile),
        clock: settings.clock,
        speed: settings.speed === Number.POSITIVE_INFINITY ? 'max' : settings.speed,
        simulatedStart: formatRfc3339(inner.now),
        prices,
        accounts: inner.accountIds(),
      });
    }

    const onFeedError = (error: unknown): void => {
      onError(error);
      io.err(`v20sim: the price feed stopped: ${(error as Error).message}`);
    };
    if (queue !== null && settings.clock !== 'manual') {
      pump = new FeedPump(inner, queue, {
        speed: settings.clock === 'live' ? 1 : settings.speed,
        ...(settings.clock === 'live' ? { restamp: liveNow } : {}),
        onEnd: () => io.out(`replay finished at ${formatRfc3339(inner.now)}: ${pump?.pushed ?? 0} ticks pushed${queue.skipped > 0 ? `, ${queue.skipped} skipped (older than the clock)` : ''}`),
        onError: onFeedError,
      }, realTimers);
      const running = pump;
      cleanups.push(() => running.stop());
      running.start();
    }
    if (settings.clock === 'live') {
      // GTD expiries and daily financing happen on time even when no tick or request comes.
      const ticker = setInterval(() => {
        try {
          const t = liveNow();
          if (t > inner.now) inner.advanceTo(t);
        } catch (error) {
          onError(error);
          io.err(`v20sim: advancing the clock failed: ${(error as Error).message}`);
        }
      }, 1000);
      cleanups.push(() => clearInterval(ticker));
    }

    return {
      url,
      engine,
      app,
      close: async () => {
        if (closed) return;
        closed = true;
        pump?.stop();
        await closeApp();
        cleanup();
      },
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/**
 * After a restart, RequestIDs continue above the highest numeric requestID in the journal so no
 * two requests of a data directory share one (the default base repeats on every fresh start).
 */
function requestIdBaseAfter(engine: { accountIds(): string[]; account(id: string): { log: readonly { requestID?: string }[] } | undefined }): bigint | undefined {
  let highest: bigint | undefined;
  for (const id of engine.accountIds()) {
    for (const tx of engine.account(id)?.log ?? []) {
      if (tx.requestID === undefined || !/^\d{1,30}$/.test(tx.requestID)) continue;
      const n = BigInt(tx.requestID);
      if (highest === undefined || n > highest) highest = n;
    }
  }
  return highest === undefined ? undefined : highest + 1_000_000n;
}
