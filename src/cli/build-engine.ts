/** Serve start-up, the engine: the accounts (configured and restored), the shell's hooks around it, the API over it. */
import type { AccountConfig } from '../account/state.js';
import type { CandleHistory } from '../api/candle-history.js';
import { buildApp, type App } from '../api/app.js';
import type { ApiOptions, TokenGrant } from '../api/context.js';
import type { Micros } from '../domain/time.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { JournalCorruptError, JournalWriteError } from '../journal/file-errors.js';
import type { ClockDriver } from './clock-driver.js';
import type { ServeSettings } from './config.js';
import type { DataDir } from './data-dir.js';
import type { TickQueue } from './pump.js';
import { StartError, type ServeIo } from './serve-types.js';
import { ShellEngine } from './shell-engine.js';

/** The engine of the settings with the configured and the restored (`extra`) accounts open. */
export function openEngine(settings: ServeSettings, data: DataDir | undefined, start: Micros, extra: readonly AccountConfig[]): Engine {
  try {
    const engine = createEngine({
      accounts: settings.accounts,
      instruments: settings.instruments,
      seed: settings.seed,
      start,
      transactionsInMemory: settings.transactionsInMemory,
      // With a data dir, ended orders and closed trades beyond the window page out under it.
      ...(data === undefined
        ? {}
        : { journal: data.journal, recordsInMemory: { window: settings.recordsInMemory, store: data.recordStore } }),
    });
    for (const c of extra) engine.openAccount(c);
    checkTokens(settings.tokens, engine);
    return engine;
  } catch (error) {
    if (error instanceof StartError) throw error;
    const where = data === undefined ? '' : ` from ${data.dir}`;
    const detail = error instanceof JournalCorruptError ? error.message : (error as Error).message;
    throw new StartError(`cannot open the accounts${where}: ${detail}`, data === undefined ? 2 : 1);
  }
}

function checkTokens(tokens: readonly TokenGrant[], engine: Engine): void {
  const known = new Set(engine.accountIds());
  tokens.forEach((t, i) => {
    if (t.accounts === '*') return;
    t.accounts.forEach((id, j) => {
      if (!known.has(id))
        throw new StartError(`tokens[${i}].accounts[${j}]: ${id} is neither in the config's accounts nor in the data dir`, 2);
    });
  });
}

/** A journal write failed: memory is now ahead of the disk. Stop before anyone is told otherwise. */
export function stopOnJournalError(io: ServeIo): (error: unknown) => void {
  return (error) => {
    if (error instanceof JournalWriteError)
      io.fatal(`v20sim: ${error.message}; stopping so that no unrecorded transaction is acknowledged`);
  };
}

/**
 * The engine as the API sees it: new accounts are recorded in the data dir, a manual clock feeds
 * the replay's ticks as it moves, any other clock move re-plans the replay.
 */
export function shellEngine(
  inner: Engine,
  data: DataDir | undefined,
  queue: TickQueue | null,
  driver: ClockDriver,
  onError: (error: unknown) => void,
  manual: boolean,
): ShellEngine {
  const manualFeed = manual ? queue : null;
  return new ShellEngine(inner, {
    onError,
    ...(data === undefined ? {} : { beforeOpen: (config: AccountConfig) => data.recordAccount(config) }),
    ...(manualFeed === null
      ? {}
      : { beforeTime: (time: Micros) => manualFeed.drainUntil(inner, time, (error) => driver.feedStopped(error)) }),
    afterTime: () => driver.kick(),
  });
}

/** The Fastify app over the engine (not listening yet). */
export function buildServeApp(settings: ServeSettings, engine: Engine, liveNow: () => Micros, history?: CandleHistory): Promise<App> {
  const apiOptions: { -readonly [K in keyof ApiOptions]: ApiOptions[K] } = {
    engine,
    tokens: settings.tokens,
    adminToken: settings.adminToken,
    dashboard: true,
  };
  if (settings.clock === 'live') apiOptions.now = liveNow;
  if (settings.heartbeatMs !== undefined) apiOptions.heartbeatMs = settings.heartbeatMs;
  if (settings.enumSpelling !== undefined) apiOptions.enumSpelling = settings.enumSpelling;
  if (settings.priceStreamThrottleMs !== undefined) apiOptions.priceStreamThrottleMs = settings.priceStreamThrottleMs;
  if (settings.baseUrl !== undefined) apiOptions.baseUrl = settings.baseUrl;
  if (settings.allowedHosts !== undefined) apiOptions.allowedHosts = settings.allowedHosts;
  if (settings.limits !== undefined) apiOptions.limits = settings.limits;
  if (history !== undefined) apiOptions.candleHistory = history;
  // After a restart, RequestIDs continue above the highest numeric requestID in the journal so no
  // two requests of a data directory share one (the default base repeats on every fresh start).
  const highest = engine.replayedRequestIdMax;
  if (highest !== undefined) apiOptions.requestIdBase = highest + 1_000_000n;
  return buildApp(apiOptions);
}
