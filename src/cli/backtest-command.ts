/**
 * `v20sim backtest`: runs a strategy module over tick files and writes transactions, trades, the
 * equity curve, report.json and report.html; with swept parameters, runs the grid on worker
 * threads and writes a ranked sweep.csv / sweep.json. The options become a plan here
 * (backtest-plan.ts), the tick files start being read, and only then does the run itself load
 * (backtest-run.ts).
 */
import type * as BacktestRun from './backtest-run.js';
import { configOf, planOf, startEarly, type BacktestIo, type RunTicks } from './backtest-plan.js';
import { EXIT, UsageError, parseArgv, usageMessage, type Parsed } from './program.js';

export type { BacktestIo } from './backtest-plan.js';

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
  let ticks: RunTicks | undefined;
  // The strategy, the engine and the sweep load after the reader thread has started: their
  // loading overlaps its start-up instead of coming before it.
  let run: typeof BacktestRun | undefined;
  try {
    const plan = planOf(parsed.options, await configOf(parsed.options));
    ticks = startEarly(plan);
    run = await import('./backtest-run.js');
    await run.runPlan(plan, ticks, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError || run?.isParamError(error) === true) {
      warn(`v20sim backtest: ${(error as Error).message}`);
      return EXIT.usage;
    }
    warn(`v20sim backtest: ${error instanceof Error ? error.message : String(error)}`);
    const detail = run?.strategyErrorStack(error);
    if (detail !== undefined) warn(detail);
    return EXIT.failure;
  } finally {
    // A run that ended early (a usage error, a failed strategy) stops its reader.
    ticks?.thread?.close();
  }
}
