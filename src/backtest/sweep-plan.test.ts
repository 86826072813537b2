import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SOURCE_TICK_RUNS_PER_THREAD,
  TICK_RUNS_PER_THREAD,
  estimateTicks,
  largestFirst,
  sweepThreads,
  workersToAdd,
} from './sweep-plan.js';
import { WORKER_START_MS } from '../workers/start-cost.js';

describe('sweep sizing', () => {
  it('keeps a small sweep on one thread and gives each thread a good share of a large one', () => {
    expect(sweepThreads({ runs: 4, ticks: 60_000, cores: 8 })).toBe(1);
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 2 })).toBe(2);
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 16 })).toBe(Math.floor((16 * 530_000) / TICK_RUNS_PER_THREAD));
    expect(sweepThreads({ runs: 3, ticks: 10_000_000, cores: 16 })).toBe(3);
    expect(sweepThreads({ runs: 0, ticks: 0, cores: 4 })).toBe(1);
  });

  it('asks more of each thread when workers would start from the TypeScript sources', () => {
    // The 16-run sweep of the 13 LEAN files: two threads from dist/, one from the sources.
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 2 })).toBe(2);
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 2, workersFromSources: true })).toBe(1);
    expect(sweepThreads({ runs: 16, ticks: 10_000_000, cores: 4, workersFromSources: true })).toBe(4);
    expect(SOURCE_TICK_RUNS_PER_THREAD).toBeGreaterThan(TICK_RUNS_PER_THREAD);
    expect(sweepThreads({ runs: 4, ticks: 10, requested: 2, cores: 2, workersFromSources: true })).toBe(2);
  });

  it('adds workers to a one-thread sweep only when the runs left give each thread two start-ups of work', () => {
    const built = WORKER_START_MS.built;
    const sources = WORKER_START_MS.sources;
    // 15 runs of 120 ms left: 1.8 s, worth one more thread from dist/ (2 x 0.4 s each), none from the sources.
    expect(workersToAdd({ runsLeft: 15, msPerRun: 120, workersFromSources: false, cores: 2 })).toBe(1);
    expect(workersToAdd({ runsLeft: 15, msPerRun: 120, workersFromSources: true, cores: 2 })).toBe(0);
    // Long runs: as many as the cores allow, one thread per run left at most.
    expect(workersToAdd({ runsLeft: 15, msPerRun: 500, workersFromSources: true, cores: 2 })).toBe(1);
    expect(workersToAdd({ runsLeft: 15, msPerRun: 10_000, workersFromSources: true, cores: 8 })).toBe(7);
    expect(workersToAdd({ runsLeft: 3, msPerRun: 10_000, workersFromSources: false, cores: 8 })).toBe(2);
    expect(workersToAdd({ runsLeft: 1, msPerRun: 10_000, workersFromSources: false, cores: 8 })).toBe(0);
    expect(workersToAdd({ runsLeft: 0, msPerRun: 10_000, workersFromSources: false, cores: 8 })).toBe(0);
    expect(workersToAdd({ runsLeft: 15, msPerRun: 10_000, workersFromSources: false, cores: 1 })).toBe(0);
    // The boundary: each of two threads gets exactly two start-ups.
    expect(workersToAdd({ runsLeft: 8, msPerRun: built / 2, workersFromSources: false, cores: 2 })).toBe(1);
    expect(workersToAdd({ runsLeft: 8, msPerRun: built / 2 - 1, workersFromSources: false, cores: 2 })).toBe(0);
    expect(workersToAdd({ runsLeft: 8, msPerRun: sources / 2, workersFromSources: true, cores: 2 })).toBe(1);
  });

  it('takes the threads asked for, at most one per run', () => {
    expect(sweepThreads({ runs: 4, ticks: 10, requested: 2, cores: 1 })).toBe(2);
    expect(sweepThreads({ runs: 4, ticks: 10, requested: 9 })).toBe(4);
    expect(sweepThreads({ runs: 4, ticks: 10, requested: 1, cores: 8 })).toBe(1);
  });

  it('estimates ticks from file sizes, compressed files denser than text', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-sweep-plan-'));
    try {
      writeFileSync(path.join(dir, 'a.csv'), Buffer.alloc(4000));
      writeFileSync(path.join(dir, 'a.zip'), Buffer.alloc(4000));
      const text = estimateTicks([path.join(dir, 'a.csv')]);
      const zip = estimateTicks([path.join(dir, 'a.zip')]);
      expect(text).toBeGreaterThan(0);
      expect(zip).toBeGreaterThan(text);
      expect(estimateTicks([path.join(dir, 'a.csv'), path.join(dir, 'missing.csv')])).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hands the files out largest first, ties and unreadable files in file order', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-sweep-plan-'));
    try {
      const file = (name: string, bytes: number): string => {
        const at = path.join(dir, name);
        writeFileSync(at, Buffer.alloc(bytes));
        return at;
      };
      const files = [
        file('small.csv', 400),
        file('big.csv', 4000),
        path.join(dir, 'missing.csv'),
        file('same.csv', 400),
        // 2000 compressed bytes hold more ticks than 4000 bytes of text.
        file('dense.zip', 2000),
      ];
      expect(largestFirst(files)).toEqual([4, 1, 0, 3, 2]);
      expect(largestFirst([])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
