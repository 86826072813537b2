/**
 * `v20sim backtest`: runs a strategy module over tick files and writes transactions, trades, the
 * equity curve, report.json and report.html; with swept parameters, runs the grid on worker
 * threads and writes a ranked sweep.csv / sweep.json. The only part of the backtest that reads the
 * wall clock, for the progress display; everything it writes is a function of the inputs.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { summaryTable } from './backtest-summary.js';
import {
  OUTPUT_FILES,
  ParamError,
  SAMPLE_TICKS_FILE,
  StrategyError,
  buildParamGrid,
  checkRankMetric,
  describeSources,
  expandGrid,
  fmtNumber,
  loadStrategy,
  openTicks,
  parseDuration,
  rankRows,
  runBacktestToFiles,
  runSweep,
  sweepReport,
  sweepTable,
  sweptNames,
  writeSweep,
  type BacktestAccountOptions,
  type Metrics,
  type StrategyDefinition,
  type StrategyParams,
  type SweepRunner,
  type SweepSpec,
  type TickSourceInfo,
} from '../backtest/index.js';
import { isTransferAmount } from '../account/decide-account.js';
import { LIMITS } from '../domain/limits.js';
import { decompressedSize, type FeedFormat, type TickWindow } from '../engine/feeds/index.js';
import { windowText } from '../engine/feeds/window.js';
import { checkFeedFormat, checkWindow, checkWorkers, type BacktestFileConfig } from './backtest-config.js';
import { EXIT, UsageError, parseArgv, usageMessage, type Parsed } from './program.js';
import { clock, progressDisplay } from './progress.js';

export interface BacktestIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** True on a terminal: a live progress bar instead of plain progress lines. */
  readonly isTTY: boolean;
  /** Aborted on Ctrl-C or SIGTERM: a queued sweep then takes its unstarted runs off the queue. */
  readonly stop?: AbortSignal;
}

/** The run's inputs: command line over config file over defaults, checked. */
interface BacktestPlan {
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
async function configOf(options: Readonly<Record<string, unknown>>): Promise<BacktestFileConfig> {
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

function planOf(options: Readonly<Record<string, unknown>>, config: BacktestFileConfig): BacktestPlan {
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
function byteShare(files: readonly string[]): { share: () => number | undefined; onBytes: (bytes: number) => void } {
  const total = files.reduce((sum, file) => sum + decompressedSize(file), 0);
  let read = 0;
  return { share: () => (total > 0 ? read / total : undefined), onBytes: (bytes) => void (read += bytes) };
}

function singleRun(plan: BacktestPlan, definition: StrategyDefinition, params: Record<string, unknown>, io: BacktestIo): void {
  const say = (text: string): void => void io.stdout.write(`${text}\n`);
  const files = plan.tickFiles;
  io.stderr.write(
    `backtest: ${definition.name} (${paramText(params)}) on ${files.length === 1 ? path.basename(files[0] as string) : `${files.length} tick files`}${windowText(plan.window)}\n`,
  );
  const bytes = byteShare(files);
  const progress = progressDisplay({ write: (text) => void io.stderr.write(text), isTTY: io.isTTY, share: bytes.share });
  // Streamed: transactions.ndjson and equity.csv are written as the run goes (stream-outputs.ts).
  const result = runBacktestToFiles(
    {
      strategy: definition,
      params,
      ticks: openTicks(files, { ...plan.readOpts, ...plan.window, onBytes: bytes.onBytes }),
      window: plan.window,
      account: plan.account,
      equityIntervalMicros: plan.equityIntervalMicros,
      sources: describeSources(files),
      strategySource: describeSources([plan.strategyFile])[0] as TickSourceInfo,
      progressEvery: 1 << 13,
      onProgress: (ticks, time) => progress.update(ticks, time),
    },
    plan.outDir,
  );
  progress.finish(result.ticks);
  say(
    `${result.strategy}: ${fmtNumber(result.ticks, 0)} ticks, ${result.metrics.startTime.slice(0, 19).replace('T', ' ')} to ${result.metrics.endTime.slice(0, 19).replace('T', ' ')} UTC`,
  );
  say(summaryTable(result));
  // A run whose orders were refused should say why, not only how many (e.g. no price converts
  // the account currency: every order is INSTRUMENT_PRICE_UNKNOWN).
  if (result.refusals.length > 0) say(`  refused: ${result.refusals.map(([reason, n]) => `${reason} ${fmtNumber(n, 0)}`).join(', ')}`);
  const written = [...OUTPUT_FILES, ...(result.strategyLog.length > 0 ? ['strategy.log'] : [])];
  say(`written to ${plan.outDir}${path.sep}: ${written.join(', ')}`);
}

async function sweep(
  plan: BacktestPlan,
  definition: StrategyDefinition,
  combos: readonly StrategyParams[],
  swept: readonly string[],
  io: BacktestIo,
): Promise<void> {
  const say = (text: string): void => void io.stdout.write(`${text}\n`);
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  const spec: SweepSpec = {
    strategyFile: path.resolve(plan.strategyFile),
    tickFiles: plan.tickFiles.map((f) => path.resolve(f)),
    ...plan.readOpts,
    ...plan.window,
    account: plan.account,
    equityIntervalMicros: plan.equityIntervalMicros,
  };
  const rank = plan.rank;
  const runner = plan.queue === undefined ? runSweep : await queueRunner(plan.queue, warn, io.stop);
  let announced = false;
  const announce = (where: string): void => {
    announced = true;
    warn(`sweep: ${definition.name}, ${combos.length} runs over ${swept.join(' x ')}${windowText(plan.window)} on ${where}`);
  };
  // Threads here: announced by runSweep once it has settled their number (onThreads).
  if (plan.queue !== undefined) announce(`the queue at ${plan.queue.url.replace(/:[^:@/]*@/, ':***@')}`);
  const started = process.hrtime.bigint();
  const rows = await runner(
    spec,
    combos.map((params, index) => ({ index, params })),
    {
      ...(plan.workers === undefined ? {} : { workers: plan.workers }),
      // A second call: the runs, timed, proved long enough to share with workers started now
      // (on a terminal, over the progress line it interrupts).
      onThreads: (threads) =>
        announced
          ? warn(`${io.isTTY ? '\r\x1b[K' : ''}sweep: the runs are long enough to share: now on ${threads} threads`)
          : announce(`${threads} thread${threads === 1 ? '' : 's'}`),
      onResult: (row, done, total) => {
        const secs = Number(process.hrtime.bigint() - started) / 1e9;
        const left = done < total ? `, about ${clock((secs / done) * (total - done))} left` : '';
        const line = `sweep: ${done}/${total} done (${swept.map((n) => `${n}=${String(row.params[n])}`).join(' ')}: ${rank} ${metricText(row.metrics[rank])})${left}`;
        if (io.isTTY) io.stderr.write(`\r\x1b[K${line}${done === total ? '\n' : ''}`);
        else warn(line);
      },
    },
  );
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  warn(`sweep: ${combos.length} runs in ${secs.toFixed(1)} s`);
  const report = sweepReport(definition, spec, swept, rankRows(rows, rank), rank);
  writeSweep(plan.outDir, report, Object.keys(definition.params));
  say(`${definition.name}: ${combos.length} runs ranked by ${rank}`);
  say(sweepTable(report));
  say(`written to ${plan.outDir}${path.sep}: sweep.csv, sweep.json`);
}

/** The queue's runner, loaded only for a queued sweep (BullMQ is not loaded otherwise). */
async function queueRunner(
  queue: NonNullable<BacktestPlan['queue']>,
  warn: (text: string) => void,
  stop: AbortSignal | undefined,
): Promise<SweepRunner> {
  const { queueSweepRunner } = await import('../queue/sweep-queue.js');
  return queueSweepRunner({
    url: queue.url,
    unreachableMs: queue.unreachableMs,
    ...(stop === undefined ? {} : { signal: stop }),
    onQueued: (sweepId, cells) => warn(`sweep: ${cells} runs queued as sweep ${sweepId}; waiting for v20sim workers`),
  });
}

/** The parameters as `name=value ...`, shown in parentheses after the strategy's name. */
function paramText(params: Readonly<Record<string, unknown>>): string {
  const text = Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  return text === '' ? 'no parameters' : text;
}

/** A metric in a progress line: a metric that has no value (null) reads n/a, as in the final table. */
function metricText(value: Metrics[keyof Metrics]): string {
  return value === null ? 'n/a' : String(value);
}

/** Runs `v20sim backtest ARGS`; returns the exit code. Output: results on stdout, progress and errors on stderr. */
export async function runBacktestCommand(args: readonly string[], io: BacktestIo): Promise<number> {
  const parsed = parseArgv(['backtest', ...args]);
  if (parsed.kind === 'print') {
    (parsed.exitCode === 0 ? io.stdout : io.stderr).write(`${parsed.text}\n`);
    return parsed.exitCode;
  }
  if (parsed.kind === 'usage') {
    io.stderr.write(`${usageMessage(parsed)}\n`);
    return EXIT.usage;
  }
  return runParsedBacktest(parsed, io);
}

/** `v20sim backtest` with its options parsed (see program.ts). */
export async function runParsedBacktest(parsed: Extract<Parsed, { kind: 'run' }>, io: BacktestIo): Promise<number> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  try {
    const plan = planOf(parsed.options, await configOf(parsed.options));
    const definition = await loadStrategy(plan.strategyFile);
    const grid = buildParamGrid(definition, plan.fileParams, plan.cliParams);
    const combos = expandGrid(definition, grid);
    // The queue carries a sweep's cells; one run would silently go on here instead of where asked.
    if (combos.length === 1 && plan.queue !== undefined)
      throw new UsageError(
        '--queue runs a sweep, and this is a single run: give a parameter several values (--param name=a,b) or leave out --queue',
      );
    if (combos.length === 1) singleRun(plan, definition, combos[0] as Record<string, unknown>, io);
    else await sweep(plan, definition, combos, sweptNames(definition, grid), io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ParamError) {
      warn(`v20sim backtest: ${error.message}`);
      return EXIT.usage;
    }
    warn(`v20sim backtest: ${error instanceof Error ? error.message : String(error)}`);
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof StrategyError && cause instanceof Error && cause.stack !== undefined) warn(cause.stack);
    return EXIT.failure;
  }
}
