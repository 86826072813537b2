import { describe, expect, it } from 'vitest';
import { runScenarioFiles, tapReport, type ScenarioResult } from '../../src/scenario/index.js';

const FIXTURES = 'test/scenario/fixtures';

/** A result without its timings, the one part that depends on where and when a file ran. */
function timeless(results: readonly ScenarioResult[]): string {
  return JSON.stringify(results, (key, value: unknown) => (key === 'durationMs' ? 0 : value));
}

describe('scenario files on worker threads', () => {
  it('give the same results as on this thread, in the order of the files', async () => {
    const files = ['pass', 'fail', 'malformed', 'missing-data']
      .map((f) => `${FIXTURES}/${f}.yaml`)
      .concat(['scenarios/transactions/stream.yaml', 'scenarios/orders/market-order.yaml']);
    const order: number[] = [];
    const serial = await runScenarioFiles(files, { cwd: process.cwd(), jobs: 1 });
    const workers = await runScenarioFiles(files, { cwd: process.cwd(), jobs: 3, runHere: false, onResult: (_r, i) => order.push(i) });
    const mixed = await runScenarioFiles(files, { cwd: process.cwd(), jobs: 2 });
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(timeless(workers)).toBe(timeless(serial));
    expect(timeless(mixed)).toBe(timeless(serial));
    expect(tapReport(workers)).toBe(tapReport(serial));
    expect(serial.map((r) => r.status)).toEqual(['passed', 'failed', 'invalid', 'invalid', 'passed', 'passed']);
  });
});
