/**
 * A sweep as `v20sim backtest --param` runs it: a fresh process (bin/v20sim.js, which runs the
 * build when it is current), its threads chosen from the work, against the same sweep with
 * `--workers 1`, passes alternated. This is what a user of the CLI waits for; the sweep rows of
 * backtest.bench.ts measure what a program running several sweeps in one process gets (a warm
 * worker).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtModule } from '../src/workers/built-module.js';
import { timeV20sim, type Row } from './lib.js';

const SUITE = 'backtest';
const PASSES = 3;
const GRID = ['--param', 'fast=5,10,20,40', '--param', 'slow=50,100,150,200'];

interface CliSweep {
  readonly seconds: number;
  /** The thread count the sweep announced. */
  readonly threads: number;
}

/** Seconds from spawn to exit of one `v20sim backtest` sweep of ma-crossover over `files`, and its thread count. */
async function timeCliSweep(files: readonly string[], out: string, extra: readonly string[]): Promise<CliSweep> {
  const args = ['backtest', '--strategy', 'examples/strategies/ma-crossover.ts', '--ticks', ...files, ...GRID, '--out', out, ...extra];
  const { seconds, stderr } = await timeV20sim(args);
  return { seconds, threads: Number(/ on (\d+) threads?/.exec(stderr)?.[1] ?? Number.NaN) };
}

export async function cliSweepRows(files: readonly string[]): Promise<Row[]> {
  const built = builtModule(new URL('../src/cli/main.ts', import.meta.url)) !== undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-bench-cli-sweep-'));
  const one: number[] = [];
  const auto: CliSweep[] = [];
  try {
    process.stdout.write(
      `backtest sweep in a fresh process: 16 runs of ma-crossover, \`v20sim backtest --param\` (${built ? 'dist/' : 'the sources through tsx: run npm run build'}), default threads and --workers 1 alternated\n`,
    );
    for (let pass = 0; pass < PASSES; pass += 1) {
      one.push((await timeCliSweep(files, path.join(dir, 'one'), ['--workers', '1'])).seconds);
      auto.push(await timeCliSweep(files, path.join(dir, 'auto'), []));
      process.stdout.write(
        `  pass ${pass + 1}: --workers 1 ${one.at(-1)?.toFixed(2)} s, default (${auto.at(-1)?.threads} threads) ${auto.at(-1)?.seconds.toFixed(2)} s\n`,
      );
    }
    const same = readFileSync(path.join(dir, 'one', 'sweep.csv'), 'utf8') === readFileSync(path.join(dir, 'auto', 'sweep.csv'), 'utf8');
    const best = Math.min(...one);
    const bestAuto = Math.min(...auto.map((a) => a.seconds));
    const threads = [...new Set(auto.map((a) => a.threads))].join('/');
    const from = built ? 'dist/' : 'sources through tsx';
    return [
      {
        suite: SUITE,
        id: 'backtest.cliSweep.serial',
        name: 'v20sim backtest, 16-run sweep, --workers 1',
        value: best * 1000,
        unit: 'ms',
        note: `best of ${PASSES}, process start to exit (${from})`,
      },
      {
        suite: SUITE,
        id: 'backtest.cliSweep.auto',
        name: 'v20sim backtest, 16-run sweep, default threads',
        value: bestAuto * 1000,
        unit: 'ms',
        note: `best of ${PASSES}, process start to exit, on ${threads} threads; sweep.csv ${same ? 'the same' : 'DIFFERENT'} as with one`,
      },
      {
        suite: SUITE,
        id: 'backtest.cliSweep.speedup',
        name: 'v20sim backtest sweep speed-up, default threads vs --workers 1',
        value: best / bestAuto,
        unit: 'x',
        note: '>= 1.00: the default is never slower',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
