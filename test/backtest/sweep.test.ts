import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_TICKS_FILE,
  buildParamGrid,
  expandGrid,
  loadStrategy,
  openTicks,
  rankRows,
  runBacktest,
  runSweep,
  sweepCsv,
  sweepReport,
  type SweepRow,
  type SweepSpec,
} from '../../src/backtest/index.js';
import { writeTicksCsv } from '../../src/engine/feeds/index.js';

const STRATEGY = path.resolve('examples/strategies/ma-crossover.ts');

describe('parameter sweeps', () => {
  it('runs the grid on worker threads with the same results as a serial run', async () => {
    const definition = await loadStrategy(STRATEGY);
    const grid = buildParamGrid(definition, { slow: [30, 50] }, ['fast=5,10']);
    const combos = expandGrid(definition, grid);
    // The first parameter of the definition varies slowest.
    expect(combos.map((p) => [p['fast'], p['slow']])).toEqual([
      [5, 30],
      [5, 50],
      [10, 30],
      [10, 50],
    ]);
    const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [SAMPLE_TICKS_FILE], account: {}, equityIntervalMicros: 60_000_000 };
    const jobs = combos.map((params, index) => ({ index, params }));
    const order: number[] = [];
    // Every run on a worker (runHere: false), so the worker path is the one compared.
    const parallel = await runSweep(spec, jobs, { workers: 2, runHere: false, onResult: (_row, done) => order.push(done) });
    const serial = await runSweep(spec, jobs, { workers: 1 });
    const both = await runSweep(spec, jobs, { workers: 2 });
    expect(order).toEqual([1, 2, 3, 4]);
    expect(parallel.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(parallel).toEqual(serial);
    // The files a sweep writes, byte for byte.
    const files = (rows: SweepRow[]): string => {
      const report = sweepReport(definition, spec, ['fast', 'slow'], rankRows(rows, 'sharpe'), 'sharpe');
      return `${sweepCsv(report, Object.keys(definition.params))}${JSON.stringify(report)}`;
    };
    expect(files(parallel)).toBe(files(serial));
    expect(files(both)).toBe(files(serial));
    // ... and the same as a plain run of that combination.
    const direct = runBacktest({ strategy: definition, params: combos[3] ?? {}, ticks: openTicks([SAMPLE_TICKS_FILE]) });
    expect(parallel[3]?.metrics).toEqual(direct.metrics);
    expect(new Set(parallel.map((r) => r.metrics.netPL)).size).toBeGreaterThan(1);
  });

  it('reads several tick files once, merged by time as a plain run merges them', async () => {
    // The sample split by instrument into two files whose times interleave.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-sweep-'));
    try {
      const [first, second] = [path.join(dir, 'a.csv'), path.join(dir, 'b.csv')];
      const ticks = [...openTicks([SAMPLE_TICKS_FILE])];
      writeTicksCsv(
        first,
        ticks.filter((t) => t.instrument === 'USD_JPY'),
      );
      writeTicksCsv(
        second,
        ticks.filter((t) => t.instrument === 'EUR_USD'),
      );
      const definition = await loadStrategy(STRATEGY);
      const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [first, second], account: {}, equityIntervalMicros: 60_000_000 };
      const jobs = [5, 10].map((fast, index) => ({ index, params: { fast, slow: 30 } }));
      const workers = await runSweep(spec, jobs, { workers: 2, runHere: false });
      const here = await runSweep(spec, jobs, { workers: 1 });
      for (const [i, job] of jobs.entries()) {
        const direct = runBacktest({ strategy: definition, params: job.params, ticks: openTicks([first, second]) });
        expect(JSON.stringify(workers[i]?.metrics)).toBe(JSON.stringify(direct.metrics));
        expect(JSON.stringify(here[i]?.metrics)).toBe(JSON.stringify(direct.metrics));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads files split between this thread and a worker, and names a file neither could read', async () => {
    // The sample cut into eight files of consecutive periods, one of them broken in the failing case.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-sweep-'));
    try {
      const ticks = [...openTicks([SAMPLE_TICKS_FILE])];
      const size = Math.ceil(ticks.length / 8);
      const files = Array.from({ length: 8 }, (_, i) => path.join(dir, `part-${i}.csv`));
      for (const [i, file] of files.entries()) writeTicksCsv(file, ticks.slice(i * size, (i + 1) * size));
      const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: files, account: {}, equityIntervalMicros: 60_000_000 };
      const jobs = [5, 10, 20].map((fast, index) => ({ index, params: { fast, slow: 30 } }));
      const definition = await loadStrategy(STRATEGY);
      for (const options of [{ workers: 2 }, { workers: 2, runHere: false }, { workers: 1 }]) {
        const rows = await runSweep(spec, jobs, options);
        for (const [i, job] of jobs.entries()) {
          const direct = runBacktest({ strategy: definition, params: job.params, ticks: openTicks(files) });
          expect(JSON.stringify(rows[i]?.metrics)).toBe(JSON.stringify(direct.metrics));
        }
      }
      writeFileSync(files[5] as string, 'time,instrument,bid,ask\nnot a time,EUR_USD,1.1,1.2\n');
      for (const options of [{ workers: 2 }, { workers: 2, runHere: false }])
        await expect(runSweep(spec, jobs, options)).rejects.toThrow(/part-5\.csv/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs a small sweep without workers unless asked, and says on how many threads', async () => {
    const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [SAMPLE_TICKS_FILE], account: {}, equityIntervalMicros: 60_000_000 };
    const jobs = [5, 10].map((fast, index) => ({ index, params: { fast, slow: 30 } }));
    const seen: number[] = [];
    let ready = 0;
    const auto = await runSweep(spec, jobs, { onThreads: (n) => seen.push(n), onWorkerReady: () => (ready += 1) });
    const asked = await runSweep(spec, jobs, { workers: 2, onThreads: (n) => seen.push(n) });
    expect(seen).toEqual([1, 2]);
    expect(ready).toBe(0);
    expect(JSON.stringify(asked)).toBe(JSON.stringify(auto));
  });

  it('starts workers in the middle of a sweep whose timed runs are long enough to share, with the same results', async () => {
    const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [SAMPLE_TICKS_FILE], account: {}, equityIntervalMicros: 60_000_000 };
    const jobs = [5, 6, 7, 8, 9, 10, 11, 12].map((fast, index) => ({ index, params: { fast, slow: 30 } }));
    // Each run reads as ten seconds long: from its second run on, the runs left are worth a worker on
    // any machine with two cores.
    let now = 0;
    const clock = (): number => (now += 10_000);
    const seen: number[] = [];
    const shared = await runSweep(spec, jobs, { clock, onThreads: (n) => seen.push(n) });
    const serial = await runSweep(spec, jobs, { workers: 1 });
    expect(JSON.stringify(shared)).toBe(JSON.stringify(serial));
    if (os.availableParallelism() >= 2) {
      expect(seen[0]).toBe(1);
      expect(seen.length).toBe(2);
      expect(seen[1]).toBeGreaterThanOrEqual(2);
    } else expect(seen).toEqual([1]);
    // Threads asked for are kept, however long the runs.
    const asked: number[] = [];
    let ready = 0;
    await runSweep(spec, jobs, { workers: 1, clock, onThreads: (n) => asked.push(n), onWorkerReady: () => (ready += 1) });
    expect(asked).toEqual([1]);
    expect(ready).toBe(0);
  });

  it('reports a failing run of a sweep that started workers in its middle', async () => {
    const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [SAMPLE_TICKS_FILE], account: {}, equityIntervalMicros: 60_000_000 };
    const jobs = [5, 6, 7, 8, 9, 1.5, 11, 12].map((fast, index) => ({ index, params: { fast, slow: 30 } }));
    let now = 0;
    const seen: number[] = [];
    await expect(runSweep(spec, jobs, { clock: () => (now += 10_000), onThreads: (n) => seen.push(n) })).rejects.toThrow(
      /run 5.*fast and slow must be whole numbers/s,
    );
    if (os.availableParallelism() >= 2) expect(seen.length).toBe(2);
  });

  it('reports a failing run', async () => {
    const spec: SweepSpec = { strategyFile: STRATEGY, tickFiles: [SAMPLE_TICKS_FILE], account: {}, equityIntervalMicros: 60_000_000 };
    const jobs = [
      { index: 0, params: { fast: 5 } },
      { index: 1, params: { fast: 1.5 } },
    ];
    await expect(runSweep(spec, jobs, { workers: 2 })).rejects.toThrow(/run 1.*fast and slow must be whole numbers/s);
    await expect(runSweep(spec, jobs, { workers: 2, runHere: false })).rejects.toThrow(/run 1.*fast and slow must be whole numbers/s);
  });

  it('ranks best first, smaller first for drawdown, missing values last, ties by grid position', () => {
    const row = (index: number, sharpe: number | null, maxDrawdown: number): SweepRow => ({
      index,
      params: {},
      metrics: { sharpe, maxDrawdown } as SweepRow['metrics'],
    });
    const rows = [row(0, 1, 0.2), row(1, null, 0.1), row(2, 3, 0.3), row(3, 1, 0.05)];
    expect(rankRows(rows, 'sharpe').map((r) => r.index)).toEqual([2, 0, 3, 1]);
    expect(rankRows(rows, 'maxDrawdown').map((r) => r.index)).toEqual([3, 1, 0, 2]);
  });
});
