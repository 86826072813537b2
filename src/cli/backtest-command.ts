/**
 * `v20sim backtest`: runs a strategy module over tick files and writes transactions, trades, the
 * equity curve, report.json and report.html; with swept parameters, runs the grid on worker
 * threads and writes a ranked sweep.csv / sweep.json. The only part of the backtest that reads the
 * wall clock, for the progress display; everything it writes is a function of the inputs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  OUTPUT_FILES, ParamError, SAMPLE_TICKS_FILE, StrategyError, buildParamGrid, checkRankMetric, describeSources, expandGrid,
  fmtDuration, fmtNumber, fmtPercent, loadStrategy, openTicks, parseDuration, rankRows, runBacktest, runSweep, sweepReport,
  sweepTable, sweptNames, textTable, writeOutputs, writeSweep, type BacktestAccountOptions, type BacktestResult, type Metrics,
  type SweepSpec, type TickSourceInfo,
} from '../backtest/index.js';
import { startTickCount, type TickCount } from '../backtest/tick-count.js';
import { FEED_FORMATS, type FeedFormat } from '../engine/feeds/index.js';

export interface BacktestIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** True on a terminal: a live progress bar instead of plain progress lines. */
  readonly isTTY: boolean;
}

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

export const BACKTEST_USAGE = `Usage: v20sim backtest --strategy FILE [--ticks FILE...] [options]

Runs a strategy (a .ts or .js module whose default export is a StrategyDefinition) over
recorded ticks in one simulated v20 account, and writes to the output folder:
  transactions.ndjson  every v20 transaction of the account, one per line
  trades.csv           every trade: entry, exit, P/L, financing, spread cost
  equity.csv           mark-to-market equity at a fixed simulated interval and at every fill
  report.json          net P/L, return, drawdown, Sharpe, Sortino, win rate, profit factor, ...
  report.html          a self-contained page with charts (opens offline)
Same inputs, same files, byte for byte.

Options:
  --strategy FILE          strategy module (TypeScript runs without a build step)
  --ticks FILE...          tick files, merged by time (csv, ndjson, lean, truefx, histdata;
                           plain, .gz or .zip). Default: the shipped sample (EUR_USD and
                           USD_JPY, 2-5 January 2024, generated)
  --format FMT             format of the tick files (default: detected per file)
  --instrument NAME        instrument of tick files whose lines do not name one
  --config FILE            JSON with any of: strategy, ticks, format, instrument, params,
                           out, accountCurrency, balance, hedging, equityInterval, rank,
                           workers (paths relative to the file; options given here win)
  --param NAME=VALUE       a strategy parameter (repeatable). Several values (a,b,c) or a
                           range (start:stop:step) make a sweep over every combination
  --out DIR                output folder (default backtest-out)
  --account-currency CUR   home currency of the account (default USD)
  --balance N              opening balance (default 100000)
  --hedging                a hedging account (long and short trades side by side)
  --equity-interval DUR    mark-to-market interval: 30s, 1m, 1h, 1d (default 1m)
  --rank METRIC            sweep ranking: sharpe (default), sortino, netPL, return,
                           maxDrawdown, profitFactor, winRate, expectancy, trades, ...
  --workers N              threads for a sweep, this one included (default: one per core)
  -h, --help               this help

Examples:
  v20sim backtest --strategy examples/strategies/ma-crossover.ts
  v20sim backtest --strategy examples/strategies/grid.ts --ticks data/*.zip --param levels=6
  v20sim backtest --strategy examples/strategies/ma-crossover.ts --param fast=5,10,20 --param slow=50,100 --rank sharpe

Exit codes: 0 done, 1 the run failed (strategy error, unreadable data), 2 invalid options.`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

interface CliOptions {
  help: boolean;
  strategy?: string;
  ticks: string[];
  format?: FeedFormat;
  instrument?: string;
  config?: string;
  params: string[];
  out?: string;
  accountCurrency?: string;
  balance?: string;
  hedging?: boolean;
  equityInterval?: string;
  rank?: string;
  workers?: number;
}

const VALUE_FLAGS = new Set([
  '--strategy', '--format', '--instrument', '--config', '--param', '--out', '--account-currency', '--balance', '--equity-interval', '--rank', '--workers',
]);

function checkFormat(value: string): FeedFormat {
  if (!(FEED_FORMATS as readonly string[]).includes(value)) throw new UsageError(`--format must be one of ${FEED_FORMATS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as FeedFormat;
}

function checkWorkers(value: unknown, where: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`${where} must be a whole number from 1 to 256, got ${JSON.stringify(value)}`);
  return n;
}

/** `--flag value` and `--flag=value`; `--ticks` takes every following argument up to the next option. */
export function parseBacktestArgs(argv: readonly string[]): CliOptions {
  const out: CliOptions = { help: false, ticks: [], params: [] };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    if (arg === '--hedging') {
      out.hedging = true;
      continue;
    }
    if (arg === '--ticks') {
      let taken = 0;
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) {
        out.ticks.push(argv[i + 1] as string);
        i += 1;
        taken += 1;
      }
      if (taken === 0) throw new UsageError('--ticks needs at least one file');
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--ticks') {
      out.ticks.push(arg.slice(eq + 1));
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) throw new UsageError(arg.startsWith('-') ? `unknown option ${flag}` : `unexpected argument ${JSON.stringify(arg)}`);
    let value: string;
    if (flag !== arg) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      value = next;
      i += 1;
    }
    if (flag !== '--param') {
      if (seen.has(flag)) throw new UsageError(`${flag} given twice`);
      seen.add(flag);
    }
    switch (flag) {
      case '--strategy': out.strategy = value; break;
      case '--format': out.format = checkFormat(value); break;
      case '--instrument': out.instrument = value; break;
      case '--config': out.config = value; break;
      case '--param': out.params.push(value); break;
      case '--out': out.out = value; break;
      case '--account-currency': out.accountCurrency = value; break;
      case '--balance': out.balance = value; break;
      case '--equity-interval': out.equityInterval = value; break;
      case '--rank': out.rank = value; break;
      case '--workers': out.workers = checkWorkers(value, '--workers'); break;
    }
  }
  return out;
}

interface FileConfig {
  strategy?: string;
  ticks?: string[];
  format?: FeedFormat;
  instrument?: string;
  params?: Record<string, unknown>;
  out?: string;
  accountCurrency?: string;
  balance?: string;
  hedging?: boolean;
  equityInterval?: string;
  rank?: string;
  workers?: number;
}

const CONFIG_KEYS = new Set(['strategy', 'ticks', 'format', 'instrument', 'params', 'out', 'accountCurrency', 'balance', 'hedging', 'equityInterval', 'rank', 'workers']);

function readConfig(file: string): FileConfig {
  if (!existsSync(file)) throw new UsageError(`config file not found: ${file}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`config ${file} must hold a JSON object`);
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!CONFIG_KEYS.has(key)) throw new UsageError(`config ${file}: unknown key ${JSON.stringify(key)}; known: ${[...CONFIG_KEYS].join(', ')}`);
  const dir = path.dirname(file);
  const str = (key: string): string | undefined => {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') throw new UsageError(`config ${file}: ${key} must be a non-empty string`);
    return v;
  };
  const rel = (p: string | undefined): string | undefined => (p === undefined ? undefined : path.resolve(dir, p));
  const config: FileConfig = {};
  const strategy = rel(str('strategy'));
  if (strategy !== undefined) config.strategy = strategy;
  const ticks = obj['ticks'];
  if (ticks !== undefined) {
    const list = Array.isArray(ticks) ? ticks : [ticks];
    if (list.length === 0 || !list.every((t) => typeof t === 'string' && t !== '')) throw new UsageError(`config ${file}: ticks must be a file name or a list of them`);
    config.ticks = (list as string[]).map((t) => path.resolve(dir, t));
  }
  const format = str('format');
  if (format !== undefined) config.format = checkFormat(format);
  const instrument = str('instrument');
  if (instrument !== undefined) config.instrument = instrument;
  const params = obj['params'];
  if (params !== undefined) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new UsageError(`config ${file}: params must be an object`);
    config.params = params as Record<string, unknown>;
  }
  const outDir = rel(str('out'));
  if (outDir !== undefined) config.out = outDir;
  const currency = str('accountCurrency');
  if (currency !== undefined) config.accountCurrency = currency;
  const balance = obj['balance'];
  if (balance !== undefined) {
    if (typeof balance !== 'string' && typeof balance !== 'number') throw new UsageError(`config ${file}: balance must be a number or a decimal string`);
    config.balance = String(balance);
  }
  const hedging = obj['hedging'];
  if (hedging !== undefined) {
    if (typeof hedging !== 'boolean') throw new UsageError(`config ${file}: hedging must be true or false`);
    config.hedging = hedging;
  }
  const interval = str('equityInterval');
  if (interval !== undefined) config.equityInterval = interval;
  const rank = str('rank');
  if (rank !== undefined) config.rank = rank;
  if (obj['workers'] !== undefined) config.workers = checkWorkers(obj['workers'], `config ${file}: workers`);
  return config;
}

// ---------------------------------------------------------------------------------------------
// Progress (the wall clock is read here and only here)

const BAR_WIDTH = 28;
const REDRAW_NANOS = 100_000_000n;
const LINE_NANOS = 5_000_000_000n;

function compact(rate: number): string {
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(2)}M`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(1)}k`;
  return rate.toFixed(0);
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}

function simulated(time: number): string {
  return new Date(Math.floor(time / 1000)).toISOString().slice(0, 16).replace('T', ' ');
}

interface Progress {
  update(ticks: number, time: number): void;
  finish(ticks: number): void;
}

/** After this long the bar starts counting the ticks (on another thread) to show the time left. */
const COUNT_AFTER_NANOS = 1_000_000_000n;

/**
 * On a terminal: a bar redrawn at most every 100 ms. A run still going after a second starts a
 * worker that counts the ticks, and once it knows the total the bar shows the share done and the
 * time left; shorter runs never pay for counting. Elsewhere: a plain line every 5 seconds.
 */
function progressDisplay(io: BacktestIo, startCounter: () => TickCount): Progress & { stop(): void } {
  const started = process.hrtime.bigint();
  let last = started;
  let counter: TickCount | undefined;
  const elapsed = (now: bigint): number => Number(now - started) / 1e9;
  const stop = (): void => counter?.stop();
  if (io.isTTY) {
    return {
      stop,
      update(ticks, time) {
        const now = process.hrtime.bigint();
        if (now - last < REDRAW_NANOS) return;
        last = now;
        if (counter === undefined && now - started >= COUNT_AFTER_NANOS) counter = startCounter();
        const secs = elapsed(now);
        const rate = secs > 0 ? ticks / secs : 0;
        const total = counter?.total();
        let line: string;
        if (total !== undefined && total > 0) {
          const share = Math.min(1, ticks / total);
          const filled = Math.round(share * BAR_WIDTH);
          const left = rate > 0 ? (total - ticks) / rate : 0;
          line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${fmtNumber(ticks, 0)}/${fmtNumber(total, 0)} ticks  ${compact(rate)} ticks/s  ${clock(left)} left`;
        } else {
          line = `${fmtNumber(ticks, 0)} ticks  ${compact(rate)} ticks/s  ${simulated(time)} UTC  (counting ticks for the time left)`;
        }
        io.stderr.write(`\r\x1b[K${line}`);
      },
      finish(ticks) {
        const secs = elapsed(process.hrtime.bigint());
        io.stderr.write(`\r\x1b[K${fmtNumber(ticks, 0)} ticks in ${secs.toFixed(1)} s (${compact(secs > 0 ? ticks / secs : 0)} ticks/s)\n`);
      },
    };
  }
  return {
    stop,
    update(ticks, time) {
      const now = process.hrtime.bigint();
      if (now - last < LINE_NANOS) return;
      last = now;
      const secs = elapsed(now);
      io.stderr.write(`backtest: ${fmtNumber(ticks, 0)} ticks, ${compact(secs > 0 ? ticks / secs : 0)} ticks/s, simulated time ${simulated(time)} UTC\n`);
    },
    finish(ticks) {
      const secs = elapsed(process.hrtime.bigint());
      io.stderr.write(`backtest: ${fmtNumber(ticks, 0)} ticks in ${secs.toFixed(1)} s (${compact(secs > 0 ? ticks / secs : 0)} ticks/s)\n`);
    },
  };
}

// ---------------------------------------------------------------------------------------------

function summaryTable(result: BacktestResult): string {
  const m: Metrics = result.metrics;
  const cur = result.currency;
  const rows: [string, string][] = [
    ['net P/L', `${fmtNumber(m.netPL)} ${cur}`],
    ['return', fmtPercent(m.return)],
    ['final NAV', `${fmtNumber(m.finalNAV)} ${cur}`],
    ['max drawdown', `${fmtPercent(m.maxDrawdown)} (${fmtNumber(m.maxDrawdownAmount)} ${cur}), ${fmtDuration(m.maxDrawdownDurationSeconds)}${m.maxDrawdownRecoveryTime === null && m.maxDrawdown > 0 ? ', not recovered' : ''}`],
    ['sharpe (daily)', m.sharpe === null ? 'n/a' : m.sharpe.toFixed(2)],
    ['sortino (daily)', m.sortino === null ? 'n/a' : m.sortino.toFixed(2)],
    ['trades', `${fmtNumber(m.trades, 0)} (${fmtNumber(m.longTrades, 0)} long, ${fmtNumber(m.shortTrades, 0)} short, ${fmtNumber(m.openTrades, 0)} open at the end)`],
    ['win rate', fmtPercent(m.winRate, 1)],
    ['profit factor', m.profitFactor === null ? 'n/a' : m.profitFactor.toFixed(2)],
    ['average win / loss', `${m.averageWin === null ? 'n/a' : fmtNumber(m.averageWin)} / ${m.averageLoss === null ? 'n/a' : fmtNumber(m.averageLoss)} ${cur}`],
    ['exposure', fmtPercent(m.exposure, 1)],
    ['financing', `${fmtNumber(m.financing)} ${cur}`],
    ['spread cost', `${fmtNumber(m.spreadCost)} ${cur}`],
    ['transactions', `${fmtNumber(m.transactions, 0)} (${fmtNumber(m.fills, 0)} fills, ${fmtNumber(m.rejects, 0)} rejects)`],
  ];
  return textTable(['metric', 'value'], rows);
}

function paramText(params: Readonly<Record<string, unknown>>): string {
  const text = Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(' ');
  return text === '' ? '(no parameters)' : text;
}

/** Runs `v20sim backtest ARGS`; returns the exit code. Output: results on stdout, progress and errors on stderr. */
export async function runBacktestCommand(args: string[], io: BacktestIo): Promise<number> {
  const say = (text: string): void => void io.stdout.write(`${text}\n`);
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  let stopProgress = (): void => undefined;
  try {
    const cli = parseBacktestArgs(args);
    if (cli.help) {
      say(BACKTEST_USAGE);
      return EXIT_OK;
    }
    const config = cli.config === undefined ? {} : readConfig(cli.config);
    const strategyFile = cli.strategy ?? config.strategy;
    if (strategyFile === undefined) throw new UsageError('--strategy FILE is required (see v20sim backtest --help)');
    const tickFiles = cli.ticks.length > 0 ? cli.ticks : config.ticks ?? [SAMPLE_TICKS_FILE];
    for (const file of tickFiles) {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`tick file not found: ${file}`);
    }
    const format = cli.format ?? config.format;
    const instrument = cli.instrument ?? config.instrument;
    const outDir = cli.out ?? config.out ?? 'backtest-out';
    const balance = cli.balance ?? config.balance;
    if (balance !== undefined && !/^\d+(\.\d+)?$/.test(balance)) throw new UsageError(`--balance must be a non-negative decimal, got ${JSON.stringify(balance)}`);
    const currency = cli.accountCurrency ?? config.accountCurrency;
    if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw new UsageError(`--account-currency must be a currency code such as USD, got ${JSON.stringify(currency)}`);
    const hedging = cli.hedging ?? config.hedging;
    let equityIntervalMicros: number;
    try {
      equityIntervalMicros = parseDuration(cli.equityInterval ?? config.equityInterval ?? '1m');
    } catch (error) {
      throw new UsageError(`--equity-interval: ${(error as Error).message}`);
    }
    const rankName = cli.rank ?? config.rank ?? 'sharpe';
    let rank: keyof Metrics;
    try {
      rank = checkRankMetric(rankName);
    } catch (error) {
      throw new UsageError(`--rank: ${(error as Error).message}`);
    }
    const workers = cli.workers ?? config.workers ?? availableParallelism();
    const account: BacktestAccountOptions = {
      ...(currency === undefined ? {} : { currency }),
      ...(balance === undefined ? {} : { balance }),
      ...(hedging === undefined ? {} : { hedgingEnabled: hedging }),
    };
    const readOpts = { ...(format === undefined ? {} : { format }), ...(instrument === undefined ? {} : { instrument }) };

    const definition = await loadStrategy(strategyFile);
    const grid = buildParamGrid(definition, config.params, cli.params);
    const combos = expandGrid(definition, grid);
    const swept = sweptNames(definition, grid);

    if (combos.length === 1) {
      const params = combos[0] as Record<string, unknown>;
      warn(`backtest: ${definition.name} (${paramText(params)}) on ${tickFiles.length === 1 ? path.basename(tickFiles[0] as string) : `${tickFiles.length} tick files`}`);
      const progress = progressDisplay(io, () => startTickCount({ files: tickFiles, ...readOpts }));
      stopProgress = progress.stop;
      const result = runBacktest({
        strategy: definition,
        params,
        ticks: openTicks(tickFiles, readOpts),
        account,
        equityIntervalMicros,
        sources: describeSources(tickFiles),
        strategySource: describeSources([strategyFile])[0] as TickSourceInfo,
        progressEvery: 1 << 13,
        onProgress: (ticks, time) => progress.update(ticks, time),
      });
      progress.finish(result.ticks);
      writeOutputs(outDir, result);
      say(`${result.strategy}: ${fmtNumber(result.ticks, 0)} ticks, ${result.metrics.startTime.slice(0, 19).replace('T', ' ')} to ${result.metrics.endTime.slice(0, 19).replace('T', ' ')} UTC`);
      say(textTableIndent(summaryTable(result)));
      const written = [...OUTPUT_FILES, ...(result.strategyLog.length > 0 ? ['strategy.log'] : [])];
      say(`written to ${outDir}${path.sep}: ${written.join(', ')}`);
      return EXIT_OK;
    }

    const spec: SweepSpec = {
      strategyFile: path.resolve(strategyFile),
      tickFiles: tickFiles.map((f) => path.resolve(f)),
      ...readOpts,
      account,
      equityIntervalMicros,
    };
    const threads = Math.min(workers, combos.length);
    warn(`sweep: ${definition.name}, ${combos.length} runs over ${swept.join(' x ')} on ${threads} thread${threads === 1 ? '' : 's'}`);
    const started = process.hrtime.bigint();
    const rows = await runSweep(spec, combos.map((params, index) => ({ index, params })), {
      workers,
      onResult: (row, done, total) => {
        const secs = Number(process.hrtime.bigint() - started) / 1e9;
        const left = done < total ? `, about ${clock((secs / done) * (total - done))} left` : '';
        const line = `sweep: ${done}/${total} done (${swept.map((n) => `${n}=${String(row.params[n])}`).join(' ')}: ${rank} ${String(row.metrics[rank])})${left}`;
        if (io.isTTY) io.stderr.write(`\r\x1b[K${line}${done === total ? '\n' : ''}`);
        else warn(line);
      },
    });
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    warn(`sweep: ${combos.length} runs in ${secs.toFixed(1)} s`);
    const ranked = rankRows(rows, rank);
    const report = sweepReport(definition, spec, swept, ranked, rank);
    writeSweep(outDir, report, Object.keys(definition.params));
    say(`${definition.name}: ${combos.length} runs ranked by ${rank}`);
    say(sweepTable(report));
    say(`written to ${outDir}${path.sep}: sweep.csv, sweep.json`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ParamError) {
      warn(`v20sim backtest: ${error.message}`);
      return EXIT_USAGE;
    }
    if (error instanceof StrategyError) {
      warn(`v20sim backtest: ${error.message}`);
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof Error && cause.stack !== undefined) warn(cause.stack);
      return EXIT_FAILURE;
    }
    warn(`v20sim backtest: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  } finally {
    stopProgress();
  }
}

function textTableIndent(table: string): string {
  return table.split('\n').map((line) => `  ${line}`).join('\n');
}
