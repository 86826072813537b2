import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TICK_RUNS_PER_THREAD, estimateTicks, largestFirst, sweepThreads } from './sweep-plan.js';

describe('sweep sizing', () => {
  it('keeps a small sweep on one thread and gives each thread a good share of a large one', () => {
    expect(sweepThreads({ runs: 4, ticks: 60_000, cores: 8 })).toBe(1);
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 2 })).toBe(2);
    expect(sweepThreads({ runs: 16, ticks: 530_000, cores: 16 })).toBe(Math.floor((16 * 530_000) / TICK_RUNS_PER_THREAD));
    expect(sweepThreads({ runs: 3, ticks: 10_000_000, cores: 16 })).toBe(3);
    expect(sweepThreads({ runs: 0, ticks: 0, cores: 4 })).toBe(1);
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
