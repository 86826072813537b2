import { describe, expect, it } from 'vitest';
import { claimJob, drainQueue, jobQueue, queueEmpty } from './job-queue.js';

describe('job queue', () => {
  it('hands each job out once, in order, to whoever claims it', () => {
    const queue = jobQueue(['a', 'b', 'c']);
    expect(claimJob(queue)).toBe('a');
    const done: string[] = [];
    expect(
      drainQueue(
        queue,
        (job) => job.toUpperCase(),
        (r) => done.push(r),
      ),
    ).toEqual(['B', 'C']);
    expect(done).toEqual(['B', 'C']);
    expect(queueEmpty(queue)).toBe(true);
    expect(claimJob(queue)).toBeUndefined();
  });

  it('closes on a failing job, so no other thread takes more', () => {
    const queue = jobQueue([1, 2, 3, 4]);
    expect(() =>
      drainQueue(
        queue,
        (job) => {
          if (job === 2) throw new Error('job 2 failed');
          return job;
        },
        () => undefined,
      ),
    ).toThrow('job 2 failed');
    expect(claimJob(queue)).toBeUndefined();
  });
});
