/**
 * `v20sim backtest`'s options checked into a plan (command line over config file over defaults),
 * and the tick files' reading started from it. Light on purpose: the command loads this, starts
 * the reader thread, and only then loads the engine (backtest-run.ts).
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isTransferAmount } from '../account/transfer-amount.js';
import type { BacktestAccountOptions } from '../backtest/index.js';
import type { Metrics } from '../backtest/report.js';
import { checkRankMetric } from '../backtest/metric-names.js';
import { parseDuration } from '../backtest/format.js';
import { SAMPLE_TICKS_FILE } from '../backtest/tick-files.js';
import { countRuns } from '../backtest/param-count.js';
import { startSweepWorkers } from '../backtest/sweep-pool.js';
import { startTickThread, tickThreadMode, type TickThread } from '../backtest/tick-thread.js';
import { LIMITS } from '../domain/limits.js';
import { decompressedSize } from '../engine/feeds/byte-chunks.js';
import type { FeedFormat } from '../engine/feeds/options.js';
import type { TickWindow } from '../engine/feeds/window.js';
import { checkFeedFormat, checkWindow, checkWorkers, type BacktestFileConfig } from './backtest-config.js';
import { UsageError } from './program.js';

export interface BacktestIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** True on a terminal: a live progress bar instead of plain progress lines. */
  readonly isTTY: boolean;
  /** Aborted on Ctrl-C or SIGTERM: a queued sweep then takes its unstarted runs off the queue. */
  readonly stop?: AbortSignal;
}

/** The run's inputs: command line over config file over defaults, checked. */
export interface BacktestPlan {
  readonly strategyFile: string;
  readonly tickFiles: readonly string[];
  readonly readOpts: { format?: FeedFormat; instrument?: string };
  /** The period of the tick files the run takes (--from, --to). */
  readonly window: TickWindow;
  readonly outDir: string;
  readonly account: BacktestAccountOptions;
  readonly equityIntervalMicros: number;
  readonly rank: keyof Metrics;
  /** Threads for a sweep, this one included; undefined = chosen from the amount of work. */
  readonly workers: number | undefined;
  /** Run a sweep's cells on `v20sim worker`s through this Redis (redis://HOST:PORT/DB) instead of threads here. */
  readonly queue: { readonly url: string; readonly unreachableMs: number } | undefined;
  readonly cliParams: readonly string[];
  readonly fileParams: Readonly<Record<string, unknown>> | undefined;
}

function optionalString(options: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
}

function checked<T>(flag: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
}

/** The --config file's options, if one is given (its reader loads TypeBox and ajv, so only then). */
export async function configOf(options: Readonly<Record<string, unknown>>): Promise<BacktestFileConfig> {
  const configFile = optionalString(options, 'config');
  if (configFile === undefined) return {};
  const { readBacktestConfig } = await import('./backtest-config-file.js');
  return readBacktestConfig(configFile);
}

/** Each tick file exists, and only once: the same file twice would merge every tick with itself. */
function checkTickFiles(files: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const file of files) {
    if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`tick file not found: ${file}`);
    // The real path, so that ./a.csv, a.csv and a link to it are one file.
    const real = realpathSync(file);
    const earlier = seen.get(real);
    if (earlier !== undefined)
      throw new UsageError(`tick file given twice: ${earlier === file ? file : `${earlier} and ${file} are the same file`}`);
    seen.set(real, file);
  }
}

/**
 * The output folder, if it exists or can be made: a sweep makes it only when every run is done,
 * and mkdir's own error (EEXIST, ENOENT) says nothing about --out.
 */
function checkOutDir(dir: string): string {
  if (dir === '') throw new UsageError('--out needs a folder name');
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(at)) {
      if (statSync(at).isDirectory()) return dir;
      throw new UsageError(`output folder ${dir} cannot be made: ${at === path.resolve(dir) ? 'it' : at} is a file`);
    }
    if (path.dirname(at) === at) return dir;
  }
}

export function planOf(options: Readonly<Record<string, unknown>>, config: BacktestFileConfig): BacktestPlan {
  const opt = (key: string): string | undefined => optionalString(options, key);
  // A bad value is named where it was written: the option, or the config file's key.
  const configFile = opt('config');
  const field = (key: string, flag: string): string => (opt(key) === undefined ? `config ${configFile}: ${key}` : flag);
  const strategyFile = opt('strategy') ?? config.strategy;
  if (strategyFile === undefined) throw new UsageError('--strategy FILE is required (see v20sim backtest --help)');
  if (!existsSync(strategyFile) || !statSync(strategyFile).isFile()) throw new UsageError(`strategy file not found: ${strategyFile}`);
  const cliTicks = (options['ticks'] as string[] | undefined) ?? [];
  const tickFiles = cliTicks.length > 0 ? cliTicks : (config.ticks ?? [SAMPLE_TICKS_FILE]);
  checkTickFiles(tickFiles);
  const cliFormat = opt('format');
  const format = cliFormat === undefined ? config.format : checkFeedFormat(cliFormat);
  const instrument = opt('instrument') ?? config.instrument;
  const window = checkWindow(opt('from') ?? config.from, opt('to') ?? config.to, field);
  const balance = opt('balance') ?? config.balance;
  if (balance !== undefined && !/^\d+(\.\d+)?$/.test(balance))
    throw new UsageError(`${field('balance', '--balance')} must be a non-negative decimal, got ${JSON.stringify(balance)}`);
  // The opening deposit is a TRANSFER_FUNDS: what it would refuse is refused here, before any run.
  if (balance !== undefined && Number(balance) !== 0 && !isTransferAmount(balance))
    throw new UsageError(
      `${field('balance', '--balance')} must have at most 4 decimal places and be at most ${LIMITS.transferAmountMax}, got ${balance}`,
    );
  const currency = opt('accountCurrency') ?? config.accountCurrency;
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency))
    throw new UsageError(
      `${field('accountCurrency', '--account-currency')} must be a currency code such as USD, got ${JSON.stringify(currency)}`,
    );
  const hedging = options['hedging'] === true ? true : config.hedging;
  const cliWorkers = opt('workers');
  return {
    strategyFile,
    tickFiles,
    readOpts: { ...(format === undefined ? {} : { format }), ...(instrument === undefined ? {} : { instrument }) },
    window,
    outDir: checkOutDir(opt('out') ?? config.out ?? 'backtest-out'),
    account: {
      ...(currency === undefined ? {} : { currency }),
      ...(balance === undefined ? {} : { balance }),
      ...(hedging === undefined ? {} : { hedgingEnabled: hedging }),
      ...(config.marginPreset === undefined ? {} : { marginPreset: config.marginPreset }),
      ...(config.marginCloseout === undefined ? {} : { marginCloseout: config.marginCloseout }),
      ...(config.homeConversionFee === undefined ? {} : { homeConversionFee: config.homeConversionFee }),
    },
    equityIntervalMicros: checked(field('equityInterval', '--equity-interval'), () =>
      parseDuration(opt('equityInterval') ?? config.equityInterval ?? '1m'),
    ),
    rank: checked(field('rank', '--rank'), () => checkRankMetric(opt('rank') ?? config.rank ?? 'sharpe')),
    workers: cliWorkers === undefined ? config.workers : checkWorkers(cliWorkers, '--workers'),
    queue: queueOf(opt('queue'), opt('queueTimeout')),
    cliParams: (options['param'] as string[] | undefined) ?? [],
    fileParams: config.params,
  };
}

function queueOf(url: string | undefined, timeout: string | undefined): BacktestPlan['queue'] {
  if (url === undefined) {
    if (timeout !== undefined) throw new UsageError('--queue-timeout needs --queue');
    return undefined;
  }
  // The same check as src/queue/connection.ts (checkQueueUrl), without loading the queue for a local run.
  if (!/^rediss?:\/\/[^/]+(\/\d*)?$/.test(url)) throw new UsageError(`--queue: expected redis://HOST:PORT/DB, got ${JSON.stringify(url)}`);
  const seconds = timeout === undefined ? 60 : Number(timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--queue-timeout must be a positive number of seconds, got ${JSON.stringify(timeout)}`);
  return { url, unreachableMs: seconds * 1000 };
}

/** The share of the tick files read so far: their decompressed bytes parsed, against their sizes. */
export interface ByteShare {
  readonly total: number;
  share(): number | undefined;
  onBytes(bytes: number): void;
}

export function byteShare(files: readonly string[]): ByteShare {
  const total = files.reduce((sum, file) => sum + decompressedSize(file), 0);
  let read = 0;
  return { total, share: () => (total > 0 ? read / total : undefined), onBytes: (bytes) => void (read += bytes) };
}

/**
 * The tick files of a single run, being read on a second thread if that pays (tick-thread.ts), and
 * the sizes the thread's progress counts against; both undefined when the options asked for a sweep.
 */
export interface RunTicks {
  readonly bytes: ByteShare | undefined;
  readonly thread: TickThread | undefined;
}

/**
 * Starts what the run needs before the strategy and the engine load, so that their start-up
 * overlaps that loading: a sweep's workers when the parameters ask for several runs (and no
 * queue runs them), else the tick reader.
 */
export function startEarly(plan: BacktestPlan): RunTicks {
  const runs = countRuns(plan.fileParams, plan.cliParams);
  if (runs > 1) {
    if (plan.queue === undefined) startSweepWorkers(plan.tickFiles, runs, plan.workers);
    return { bytes: undefined, thread: undefined };
  }
  const bytes = byteShare(plan.tickFiles);
  const thread = startTickThread(plan.tickFiles, {
    ...plan.readOpts,
    ...plan.window,
    onBytes: bytes.onBytes,
    textBytes: bytes.total,
    mode: tickThreadMode(process.env),
  });
  return { bytes, thread };
}
