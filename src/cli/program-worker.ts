/**
 * `v20sim worker`: options and help text. Parsing only, like program.ts; worker-command.ts checks
 * the values and loads the queue (BullMQ) only when the command runs.
 */
import { Command } from 'commander';

const WORKER_DESCRIPTION = `Runs the cells of backtest sweeps started with \`v20sim backtest --queue URL\` on any
machine: takes cells from the queue in Redis, fetches the strategy source from Redis by its
SHA-256, reads the tick files at the sweep's paths (shared storage every machine mounts at the
same path) and checks their SHA-256 before running. A worker of another v20sim version refuses
a cell. A worker that dies mid-cell loses the cell's lock; another worker runs it again.
SIGTERM or Ctrl-C: stop taking cells, finish the running ones, exit 0 (twice: exit now).`;

const WORKER_AFTER = `
Example:
  v20sim worker --queue redis://10.0.0.5:6379/0 --concurrency 4

Exit codes: 0 stopped by a signal, 1 runtime failure, 2 invalid options.`;

export function workerCommand(): Command {
  return new Command('worker')
    .summary('run sweep cells from a Redis queue')
    .usage('--queue redis://HOST:PORT/DB [--concurrency N]')
    .description(WORKER_DESCRIPTION)
    .option('--queue <url>', 'the Redis the sweeps queue on: redis://HOST:PORT/DB')
    .option('--concurrency <n>', 'cells run at once, each on a thread (default 1)')
    .option(
      '--lock-duration <ms>',
      "how long a cell's lock lasts unrenewed: a dead worker's cell runs again after about this (default 30000)",
    )
    .option('--stalled-interval <ms>', 'how often to look for cells of dead workers (default 30000)')
    .addHelpText('after', WORKER_AFTER);
}
