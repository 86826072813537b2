import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIO_MS_PER_THREAD, SOURCE_SCENARIO_MS_PER_THREAD, scenarioCostMs, scenarioThreads } from './pool-plan.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-pool-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('scenario run sizing', () => {
  it('runs a handful of small files on this thread alone', () => {
    const files = ['a', 'b', 'c', 'd'].map((n) => scenario(`${n}.yaml`, 'name: x\nsteps: []\n'));
    expect(scenarioThreads({ files, cwd: dir, cores: 8 })).toBe(1);
  });

  it('counts the price files a scenario names by their size', () => {
    const small = scenario('small.yaml', 'steps: []\n');
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    // A sparse file: its size counts, not its bytes.
    writeFileSync(path.join(dir, 'data', 'big.csv'), '');
    truncateSync(path.join(dir, 'data', 'big.csv'), 300_000_000);
    const big = scenario('sub/big.yaml', "prices:\n  - file: '../data/big.csv' # a comment\n");
    expect(scenarioCostMs(big, dir)).toBeGreaterThan(scenarioCostMs(small, dir) + SCENARIO_MS_PER_THREAD);
    expect(scenarioThreads({ files: [big, small], cwd: dir, cores: 8 })).toBe(2);
    expect(scenarioThreads({ files: [big, small], cwd: dir, cores: 1 })).toBe(1);
  });

  it('keeps several hundred small files on this thread alone, where a worker gained nothing', () => {
    const files = Array.from({ length: 784 }, (_, i) => scenario(`some/${i}.yaml`, 'steps: []\n'));
    expect(scenarioThreads({ files, cwd: dir, cores: 2 })).toBe(1);
  });

  it('gives many files one thread per core, this one included, and takes the threads asked for', () => {
    const files = Array.from({ length: 2000 }, (_, i) => scenario(`many/${i}.yaml`, 'steps: []\n'));
    expect(scenarioThreads({ files: files.slice(0, 1000), cwd: dir, cores: 2 })).toBe(2);
    expect(scenarioThreads({ files, cwd: dir, cores: 4 })).toBe(4);
    expect(scenarioThreads({ files: files.slice(0, 3), cwd: dir, requested: 8 })).toBe(3);
    expect(scenarioThreads({ files, cwd: dir, requested: 1, cores: 8 })).toBe(1);
  });

  it('asks more of each thread when workers would start from the TypeScript sources', () => {
    // 1,000 small files: two threads from dist/, one from the sources.
    const files = Array.from({ length: 1000 }, (_, i) => scenario(`copies/${i}.yaml`, 'steps: []\n'));
    expect(scenarioThreads({ files, cwd: dir, cores: 2 })).toBe(2);
    expect(scenarioThreads({ files, cwd: dir, cores: 2, workersFromSources: true })).toBe(1);
    expect(SOURCE_SCENARIO_MS_PER_THREAD).toBeGreaterThan(SCENARIO_MS_PER_THREAD);
    // Enough work still gets the cores, and threads asked for are kept.
    const many = Array.from({ length: 3000 }, (_, i) => scenario(`more/${i}.yaml`, 'steps: []\n'));
    expect(scenarioThreads({ files: many, cwd: dir, cores: 2, workersFromSources: true })).toBe(2);
    expect(scenarioThreads({ files, cwd: dir, requested: 2, cores: 2, workersFromSources: true })).toBe(2);
  });
});
