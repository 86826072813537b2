/**
 * `serve`: opens the data dir, builds the engine and the API over it, listens, and drives the
 * clock of the chosen mode. Each step has a file of its own (open-data-dir, build-engine,
 * clock-driver, banner); this one puts them in order and undoes them when a later one fails.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { App } from '../api/app.js';
import { CandleHistory } from '../api/candle-history.js';
import { buildCatalogue } from '../domain/instruments.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { DEFAULT_GENERATOR_START, generateHistory, type TickWindow } from '../engine/feeds/index.js';
import { banner, urlHost } from './banner.js';
import { buildServeApp, openEngine, shellEngine, stopOnJournalError } from './build-engine.js';
import { ClockDriver, firstTick, openFeed, wallMicros } from './clock-driver.js';
import type { ServeSettings } from './config.js';
import type { DataDir } from './data-dir.js';
import { lastTime, openDataDir, reconcileAccounts } from './open-data-dir.js';
import type { TickQueue } from './pump.js';
import { QuoteKeeper, readQuotes, restoreQuotes } from './quotes-file.js';
import { StartError, type ServeHandle, type ServeIo } from './serve-types.js';
import { VERSION } from './version.js';

export { StartError, type ServeHandle, type ServeIo };

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

/** A period's given ends as RFC 3339 texts. */
function windowRecord(window: TickWindow): { from?: string; to?: string } {
  return {
    ...(window.from === undefined ? {} : { from: formatRfc3339(window.from) }),
    ...(window.to === undefined ? {} : { to: formatRfc3339(window.to) }),
  };
}

/** The run's record in the data dir: what a later reader needs to know how the journal came about. */
function recordRun(data: DataDir, settings: ServeSettings, engine: Engine, wallAtStart: Micros): void {
  const prices =
    settings.ticks.length > 0
      ? {
          ticks: settings.ticks.map((t) => ({ file: t.file, bytes: statSync(t.file).size, sha256: sha256File(t.file) })),
          ...(settings.window === undefined ? {} : { window: windowRecord(settings.window) }),
        }
      : settings.generator !== undefined
        ? { generator: settings.generator }
        : { pushed: true };
  data.recordRun({
    started: new Date(Math.floor(wallAtStart / 1000)).toISOString(),
    v20sim: VERSION,
    seed: engine.info.seed,
    configDigest: engine.info.configDigest,
    configFile: settings.configFile ?? null,
    configFileSha256: settings.configFile === undefined ? null : sha256File(settings.configFile),
    clock: settings.clock,
    speed: settings.speed === Number.POSITIVE_INFINITY ? 'max' : settings.speed,
    simulatedStart: formatRfc3339(engine.now),
    prices,
    accounts: engine.accountIds(),
  });
}

/** Prices at once after a restart: the stored quotes go to the engine (and the API's market data), and the latest are kept from now on. */
function keepQuotes(data: DataDir, engine: Engine, io: ServeIo, cleanups: Cleanups): void {
  const { ticks, warnings } = readQuotes(data.dir, engine.instruments);
  for (const w of warnings) io.err(`v20sim: ${w}`);
  restoreQuotes(engine, ticks);
  const keeper = new QuoteKeeper(data.dir, data.fsync, (line) => io.err(line));
  keeper.start(engine, ticks);
  cleanups.add(() => keeper.stop());
}

/** Undo steps of a start, run in reverse order; each is best effort. */
class Cleanups {
  private readonly steps: (() => void)[] = [];

  add(step: () => void): void {
    this.steps.push(step);
  }

  run(): void {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        step();
      } catch {
        // Closing is best effort.
      }
    }
  }
}

async function listen(app: App, settings: ServeSettings): Promise<{ url: string; listenAll: boolean }> {
  try {
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    throw new StartError(`cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`, 1);
  }
  const address = app.server.address() as AddressInfo;
  return { url: `http://${urlHost(address)}:${address.port}`, listenAll: address.address === '0.0.0.0' || address.address === '::' };
}

/** The simulated start: the wall clock (live), else --start, the first tick or the generator's default; never before a restored journal. */
function startTime(settings: ServeSettings, wallAtStart: Micros, queue: TickQueue | null, data: DataDir | undefined): Micros {
  const first = firstTick(queue);
  const start = settings.clock === 'live' ? wallAtStart : (settings.start ?? first?.time ?? DEFAULT_GENERATOR_START);
  // A restored account's clock is its last transaction: the engine may not start before it.
  return Math.max(start, lastTime(data));
}

/** Journals from this size on take seconds to restore (808,622 transactions, 403 MB: 7-8 s). */
export const RESTORE_NOTICE_BYTES = 64_000_000;

/** What a restart that will take a while says on stderr first, so that its silence is not taken for a hang. */
export function restoreNotice(dir: string, accounts: number, bytes: number, from: number = RESTORE_NOTICE_BYTES): string | undefined {
  if (bytes < from) return undefined;
  return `v20sim: restoring ${accounts} account${accounts === 1 ? '' : 's'} from ${dir}: ${Math.round(bytes / 1e6)} MB of journals`;
}

async function startSteps(
  settings: ServeSettings,
  io: ServeIo,
  wallAtStart: Micros,
  queue: TickQueue | null,
  history: CandleHistory | undefined,
  cleanups: Cleanups,
): Promise<ServeHandle> {
  const data = await openDataDir(settings, io);
  if (data !== undefined) cleanups.add(() => data.close());
  const start = startTime(settings, wallAtStart, queue, data);
  const extra = data === undefined ? [] : reconcileAccounts(data, settings.accounts);
  const notice = data === undefined ? undefined : restoreNotice(data.dir, data.journal.accountIds().length, data.journal.committedBytes());
  if (notice !== undefined) io.err(notice);
  const inner = openEngine(settings, data, start, extra);
  const onError = stopOnJournalError(io);
  const driver = new ClockDriver(settings, queue, io, onError);
  const engine = shellEngine(inner, data, queue, driver, onError, settings.clock === 'manual');
  const app = await buildServeApp(settings, engine, () => driver.liveNow(inner), history);
  if (data !== undefined) keepQuotes(data, inner, io, cleanups);
  let appClosing: Promise<void> | undefined;
  const closeApp = (): Promise<void> => (appClosing ??= app.close());
  cleanups.add(() => void closeApp());
  const { url, listenAll } = await listen(app, settings);
  // The machine-readable first line; then the human-readable banner.
  io.out(`listening ${url}`);
  for (const line of banner(settings, url, engine, listenAll, data, history)) io.out(line);
  if (data !== undefined) recordRun(data, settings, inner, wallAtStart);
  cleanups.add(() => driver.stop());
  driver.start(inner);
  let closed = false;
  return {
    url,
    engine,
    app,
    close: async () => {
      if (closed) return;
      closed = true;
      driver.stop();
      await closeApp();
      cleanups.run();
    },
  };
}

/**
 * The candles' past, which a client starting up asks for (the last 200 H1, 500 M1): the tick
 * files' ticks before a period, else the generator's quotes of the days before its start (made
 * per instrument when its candles are first wanted); undefined with neither.
 */
function candleHistory(settings: ServeSettings, generatorStart: Micros): CandleHistory | undefined {
  const catalogue = buildCatalogue(settings.instruments);
  if (settings.window?.from !== undefined) return new CandleHistory(catalogue);
  const g = settings.ticks.length === 0 ? settings.generator : undefined;
  if (g === undefined || g.historyDays === 0) return undefined;
  return new CandleHistory(catalogue, undefined, {
    quotes: (instrument) =>
      g.instruments.includes(instrument)
        ? generateHistory({ seed: g.seed, instrument, start: generatorStart, days: g.historyDays, catalogue })
        : [],
    // A quote every 10-30 s: candles of a minute and longer.
    shortest: 'M1',
  });
}

/**
 * Starts `serve`: restores or opens the accounts, builds the API over the engine, listens, and
 * drives the clock of the chosen mode. Resolves once the server is listening.
 */
export async function startServe(settings: ServeSettings, io: ServeIo): Promise<ServeHandle> {
  const wallAtStart = wallMicros();
  const generatorStart = settings.clock === 'live' ? wallAtStart : (settings.start ?? DEFAULT_GENERATOR_START);
  const history = candleHistory(settings, generatorStart);
  const queue = openFeed(settings, generatorStart, history);
  const cleanups = new Cleanups();
  if (queue !== null) cleanups.add(() => queue.close());
  try {
    return await startSteps(settings, io, wallAtStart, queue, history, cleanups);
  } catch (error) {
    cleanups.run();
    throw error;
  }
}
