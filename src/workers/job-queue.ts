/**
 * Jobs handed out through one counter in shared memory that every thread advances (Atomics), so a
 * worker takes its next job without a round trip through the thread that posted the work, which
 * may be busy with a job of its own. Posting a queue to a worker shares the counter.
 */
export interface JobQueue<Job> {
  readonly jobs: readonly Job[];
  readonly next: Int32Array;
}

export function jobQueue<Job>(jobs: readonly Job[]): JobQueue<Job> {
  return { jobs, next: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) };
}

/** The next job nobody took yet, or undefined when all are taken (or the queue was closed). */
export function claimJob<Job>(queue: JobQueue<Job>): Job | undefined {
  const at = Atomics.add(queue.next, 0, 1);
  return at < queue.jobs.length ? queue.jobs[at] : undefined;
}

/** How many jobs nobody took yet. */
export function jobsLeft<Job>(queue: JobQueue<Job>): number {
  return Math.max(0, queue.jobs.length - Atomics.load(queue.next, 0));
}

/** True when every job is taken. */
export function queueEmpty<Job>(queue: JobQueue<Job>): boolean {
  return jobsLeft(queue) === 0;
}

/** No job is handed out any more (after a failure). */
export function closeQueue<Job>(queue: JobQueue<Job>): void {
  Atomics.store(queue.next, 0, queue.jobs.length);
}

/**
 * Runs jobs claimed from the queue one at a time until it is empty, each claimed as the one before
 * finishes (a job may finish asynchronously), calling `onDone` as each finishes, and returns their
 * results; a job that throws closes the queue and the error propagates.
 */
export async function drainQueue<Job, Result>(
  queue: JobQueue<Job>,
  run: (job: Job) => Result | Promise<Result>,
  onDone: (result: Result, job: Job) => void,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let job = claimJob(queue); job !== undefined; job = claimJob(queue)) {
    let result: Result;
    try {
      result = await run(job);
    } catch (error) {
      closeQueue(queue);
      throw error;
    }
    results.push(result);
    onDone(result, job);
  }
  return results;
}
