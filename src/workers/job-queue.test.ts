import { describe, expect, it } from 'vitest';
import { claimJob, drainQueue, jobQueue, queueEmpty } from './job-queue.js';

describe('job queue', () => {
  it('hands each job out once, in order, to whoever claims it', async () => {
    const queue = jobQueue(['a', 'b', 'c']);
    expect(claimJob(queue)).toBe('a');
    const done: string[] = [];
    expect(
      await drainQueue(
        queue,
        (job) => job.toUpperCase(),
        (r) => done.push(r),
      ),
    ).toEqual(['B', 'C']);
    expect(done).toEqual(['B', 'C']);
    expect(queueEmpty(queue)).toBe(true);
    expect(claimJob(queue)).toBeUndefined();
  });

  it('closes on a failing job, so no other thread takes more', async () => {
    const queue = jobQueue([1, 2, 3, 4]);
    await expect(
      drainQueue(
        queue,
        (job) => {
          if (job === 2) throw new Error('job 2 failed');
          return job;
        },
        () => undefined,
      ),
    ).rejects.toThrow('job 2 failed');
    expect(claimJob(queue)).toBeUndefined();
  });

  it('drains jobs that finish asynchronously one at a time, sharing the counter with other claimers', async () => {
    const queue = jobQueue([1, 2, 3, 4, 5]);
    const done: string[] = [];
    const drained = drainQueue(
      queue,
      async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        return job * 10;
      },
      (result, job) => done.push(`${job}:${result}`),
    );
    // Another thread claims while the first job runs: it gets the next one, which the drain never sees.
    expect(claimJob(queue)).toBe(2);
    expect(await drained).toEqual([10, 30, 40, 50]);
    expect(done).toEqual(['1:10', '3:30', '4:40', '5:50']);
    expect(queueEmpty(queue)).toBe(true);
  });

  it('closes on an asynchronous job that throws, so no other thread takes more', async () => {
    const queue = jobQueue([1, 2, 3, 4]);
    await expect(
      drainQueue(
        queue,
        async (job) => {
          if (job === 2) throw new Error('job 2 failed');
          return job;
        },
        () => undefined,
      ),
    ).rejects.toThrow('job 2 failed');
    expect(claimJob(queue)).toBeUndefined();
  });
});
