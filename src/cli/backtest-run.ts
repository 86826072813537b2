/**
 * The part of `v20sim backtest` that runs: one backtest written to files, or a sweep ranked into
 * sweep.csv / sweep.json. Loaded by backtest-command.ts once the options are checked and the tick
 * reader has started, so that loading the engine overlaps the reader's start-up. The only part of
 * the backtest that reads the wall clock, for the progress display; everything it writes is a
 * function of the inputs.
 */
import path from 'node:path';
import { summaryTable } from './backtest-summary.js';
import {
  OUTPUT_FILES,
  ParamError,
  StrategyError,
  buildParamGrid,
  describeSources,
  expandGrid,
  fmtNumber,
  loadStrategy,
  openTicks,
  rankRows,
  runBacktestToFiles,
  runSweep,
  sweepReport,
  sweepTable,
  sweptNames,
  writeSweep,
  type Metrics,
  type StrategyDefinition,
  type StrategyParams,
  type SweepRunner,
  type SweepSpec,
  type TickSourceInfo,
} from '../backtest/index.js';
import { windowText } from '../engine/feeds/window.js';
import { byteShare, type BacktestIo, type BacktestPlan, type RunTicks } from './backtest-plan.js';
import { UsageError } from './program.js';
import { clock, progressDisplay } from './progress.js';

/** Loads the strategy and runs its one backtest, or its sweep when parameters take several values. */
export async function runPlan(plan: BacktestPlan, ticks: RunTicks, io: BacktestIo): Promise<void> {
  const definition = await loadStrategy(plan.strategyFile);
  const grid = buildParamGrid(definition, plan.fileParams, plan.cliParams);
  const combos = expandGrid(definition, grid);
  // The queue carries a sweep's cells; one run would silently go on here instead of where asked.
  if (combos.length === 1 && plan.queue !== undefined)
    throw new UsageError(
      '--queue runs a sweep, and this is a single run: give a parameter several values (--param name=a,b) or leave out --queue',
    );
  if (combos.length === 1) singleRun(plan, definition, combos[0] as Record<string, unknown>, ticks, io);
  else {
    // A sweep reads its files its own way (sweep-ticks.ts).
    ticks.thread?.close();
    await sweep(plan, definition, combos, sweptNames(definition, grid), io);
  }
}

/** A bad parameter value or grid: a usage error. */
export function isParamError(error: unknown): boolean {
  return error instanceof ParamError;
}

/** The stack of the strategy's own error behind a StrategyError, to show after its message. */
export function strategyErrorStack(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return error instanceof StrategyError && cause instanceof Error ? cause.stack : undefined;
}

function singleRun(
  plan: BacktestPlan,
  definition: StrategyDefinition,
  params: Record<string, unknown>,
  ticks: RunTicks,
  io: BacktestIo,
): void {
  const say = (text: string): void => void io.stdout.write(`${text}\n`);
  const files = plan.tickFiles;
  io.stderr.write(
    `backtest: ${definition.name} (${paramText(params)}) on ${files.length === 1 ? path.basename(files[0] as string) : `${files.length} tick files`}${windowText(plan.window)}\n`,
  );
  // Counted here when the options looked like a sweep and the grid turned out a single run.
  const bytes = ticks.bytes ?? byteShare(files);
  const progress = progressDisplay({ write: (text) => void io.stderr.write(text), isTTY: io.isTTY, share: bytes.share });
  // Streamed: transactions.ndjson and equity.csv are written as the run goes (stream-outputs.ts).
  const result = runBacktestToFiles(
    {
      strategy: definition,
      params,
      ticks: ticks.thread ?? openTicks(files, { ...plan.readOpts, ...plan.window, onBytes: bytes.onBytes }),
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
