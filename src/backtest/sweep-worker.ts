import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategy } from './load.js';
import { runSweepJob, type FromWorker, type SweepSpec, type ToWorker } from './sweep.js';

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A sweep worker: loads the strategy once, then runs each job it is sent and answers with its row. */
export function sweepWorkerMain(): void {
  const port = parentPort;
  if (port === null) throw new Error('sweepWorkerMain runs in a worker thread');
  const { spec } = workerData as { spec: SweepSpec };
  const send = (message: FromWorker): void => port.postMessage(message);
  loadStrategy(spec.strategyFile).then((definition) => {
    port.on('message', (message: ToWorker) => {
      if (message.type !== 'job') return;
      try {
        send({ type: 'result', row: runSweepJob(spec, definition, message.job) });
      } catch (error) {
        send({ type: 'error', index: message.job.index, message: describe(error) });
      }
    });
    send({ type: 'ready' });
  }, (error: unknown) => send({ type: 'error', index: null, message: describe(error) }));
}
