import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStrategy, runSweep, type SweepSpec } from '../../src/backtest/index.js';
import { startsFromSources } from '../../src/workers/pool.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../support/lean-eurusd.js';

const STRATEGY = path.resolve('examples/strategies/ma-crossover.ts');
const twoCores = os.availableParallelism() >= 2;
/** Workers from the TypeScript sources (no current `npm run build`) need more work per thread. */
const fromSources = startsFromSources(new URL('../../src/backtest/sweep-worker.ts', import.meta.url));

if (!hasLeanData()) process.stderr.write(`sweep sizing on real files skipped: the OANDA EUR/USD ticks are not at ${LEAN_DIR}\n`);
else if (!twoCores) process.stderr.write('sweep sizing on real files skipped: one core only\n');

/**
 * The 13 LEAN files hold 532,903 ticks in 3.0 MB: their sizes say about 603,000 (sweep-plan.ts
 * estimates high), so 14 runs are 8.4 M tick-runs by the sizes, 7.5 M by the count; the threshold
 * for a second thread is 8 M (two of TICK_RUNS_PER_THREAD) when the workers start from dist/, 24 M
 * from the sources (SOURCE_TICK_RUNS_PER_THREAD): there the same 14 runs stay on one thread.
 */
describe.skipIf(!hasLeanData() || !twoCores)('sweep threads chosen from the work, on the 13 real EUR/USD files', () => {
  const spec = (): SweepSpec => ({ strategyFile: STRATEGY, tickFiles: leanFiles(), account: {}, equityIntervalMicros: 60_000_000 });
  const jobs = async (runs: number): Promise<{ index: number; params: Record<string, string | number | boolean> }[]> => {
    const definition = await loadStrategy(STRATEGY);
    return Array.from({ length: runs }, (_, index) => ({ index, params: { ...definition.params, fast: 5 + index, slow: 100 } }));
  };

  /** Runs timed as quick whatever this machine's speed: only the tick count sizes these sweeps. */
  const quick = (): (() => number) => {
    let now = 0;
    return () => (now += 1);
  };

  it('uses a worker the file sizes started even when the tick count alone would not have asked for it', async () => {
    const grid = await jobs(14);
    const seen: number[] = [];
    let ready = 0;
    const auto = await runSweep(spec(), grid, { clock: quick(), onThreads: (n) => seen.push(n), onWorkerReady: () => (ready += 1) });
    const serial = await runSweep(spec(), grid, { workers: 1 });
    expect(seen).toEqual([fromSources ? 1 : 2]);
    if (!fromSources) expect(ready).toBe(1);
    expect(JSON.stringify(auto)).toBe(JSON.stringify(serial));
  });

  it('stays on one thread when neither the sizes nor the count ask for more', async () => {
    const seen: number[] = [];
    let ready = 0;
    await runSweep(spec(), await jobs(12), { clock: quick(), onThreads: (n) => seen.push(n), onWorkerReady: () => (ready += 1) });
    expect(seen).toEqual([1]);
    expect(ready).toBe(0);
  });
});
