import { parentPort } from 'node:worker_threads';
import { runScenarioFile } from './run-file.js';
import type { WorkerReply, WorkerTask } from './pool.js';

/**
 * A worker of the scenario pool: runs the files it is sent, one at a time, and posts each result
 * back. Results are plain data, so a file gives the same result here as in the main thread.
 */
const port = parentPort;
if (port === null) throw new Error('scenario worker: not started as a worker thread');
port.on('message', (task: WorkerTask) => {
  runScenarioFile(task.file, task.cwd, { update: task.update }).then(
    (result) => port.postMessage({ id: task.id, result } satisfies WorkerReply),
    (err: unknown) => port.postMessage({ id: task.id, error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err) } satisfies WorkerReply),
  );
});
