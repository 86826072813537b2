/**
 * `v20sim worker --queue redis://HOST:PORT/DB`: checks the options, then runs cells of sweeps from
 * the queue (src/queue/worker.ts) until stopped. The first SIGTERM or SIGINT stops taking cells
 * and lets the running ones finish (exit 0); a second one exits at once, and the cells it held
 * run again on another worker once their locks expire.
 */
import { EXIT, UsageError, type Parsed } from './program.js';

export interface WorkerIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Aborted by the first stop signal. */
  readonly stop: AbortSignal;
}

function wholeNumber(options: Readonly<Record<string, unknown>>, key: string, flag: string, min: number, max: number): number | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export async function runParsedWorker(parsed: Extract<Parsed, { kind: 'run' }>, io: WorkerIo): Promise<number> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  const { checkQueueUrl } = await import('../queue/connection.js');
  let url: string, concurrency: number, lockDurationMs: number | undefined, stalledIntervalMs: number | undefined;
  try {
    const queue = parsed.options['queue'];
    if (typeof queue !== 'string') throw new UsageError('--queue redis://HOST:PORT/DB is required (see v20sim worker --help)');
    try {
      url = checkQueueUrl(queue);
    } catch (error) {
      throw new UsageError(`--queue: ${(error as Error).message}`);
    }
    concurrency = wholeNumber(parsed.options, 'concurrency', '--concurrency', 1, 256) ?? 1;
    lockDurationMs = wholeNumber(parsed.options, 'lockDuration', '--lock-duration', 100, 86_400_000);
    stalledIntervalMs = wholeNumber(parsed.options, 'stalledInterval', '--stalled-interval', 100, 86_400_000);
  } catch (error) {
    warn(`v20sim worker: ${(error as Error).message}`);
    return EXIT.usage;
  }
  try {
    const { startQueueWorker } = await import('../queue/worker.js');
    const worker = await startQueueWorker({
      url,
      concurrency,
      ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
      ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
      log: (line) => void io.stdout.write(`${line}\n`),
      stop: io.stop,
    });
    if (worker === undefined) {
      warn('v20sim worker: stopped before Redis answered');
      return EXIT.ok;
    }
    if (!io.stop.aborted) await new Promise((resolve) => io.stop.addEventListener('abort', resolve, { once: true }));
    warn('v20sim worker: stopping: finishing the running cells');
    await worker.close();
    return EXIT.ok;
  } catch (error) {
    warn(`v20sim worker: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}
