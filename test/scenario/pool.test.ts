import { describe, expect, it } from 'vitest';
import { runScenarioFiles, tapReport, type ScenarioResult } from '../../src/scenario/index.js';
import { workerShare } from '../../src/scenario/pool.js';
import type { ScenarioTask } from '../../src/scenario/worker.js';
import { claimJob, jobQueue } from '../../src/workers/job-queue.js';
import type { ModulePool } from '../../src/workers/pool.js';

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

describe("a worker's share of a scenario run", () => {
  it('takes in every result the worker posted, and leaves the file it died on unanswered', async () => {
    const queue = jobQueue(['a.yaml', 'b.yaml', 'c.yaml'].map((file, index) => ({ index, file })));
    const result = (file: string): ScenarioResult => ({
      file,
      name: file,
      status: 'passed',
      steps: [],
      problems: [],
      goldens: [],
      failures: [],
      durationMs: 0,
    });
    // A worker that answers its first file through the port, claims a second and dies running it.
    const dying: ModulePool<ScenarioTask, number> = {
      run: async (task) => {
        const first = claimJob(task.queue);
        if (first !== undefined) task.results.postMessage({ index: first.index, result: result(first.file) });
        claimJob(task.queue);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('worker thread exited');
      },
      destroy: () => Promise.resolve(),
    };
    const settled = new Map<number, string>();
    await workerShare(dying, { queue, cwd: process.cwd(), update: false }, (index, r) => settled.set(index, r.status));
    expect([...settled]).toEqual([[0, 'passed']]);
    // The file it died on is taken: nobody else runs it, and runScenarioFiles reports it as crashed.
    expect(claimJob(queue)).toEqual({ index: 2, file: 'c.yaml' });
  });

  it('waits for the results still in the port when the worker has answered', async () => {
    const queue = jobQueue([{ index: 0, file: 'a.yaml' }]);
    // The task's answer (a count) comes back before the message posted just before it is read.
    const quick: ModulePool<ScenarioTask, number> = {
      run: (task) => {
        const job = claimJob(task.queue);
        if (job === undefined) return Promise.resolve(0);
        task.results.postMessage({
          index: job.index,
          result: { file: job.file, name: job.file, status: 'failed', steps: [], problems: [], goldens: [], failures: [], durationMs: 0 },
        });
        return Promise.resolve(1);
      },
      destroy: () => Promise.resolve(),
    };
    const settled: number[] = [];
    await workerShare(quick, { queue, cwd: process.cwd(), update: false }, (index) => settled.push(index));
    expect(settled).toEqual([0]);
  });
});
