import type { SuiteFn } from './lib.js';

/**
 * The suites of `npm run bench`, in the order they run, each in a process of its own (bench/run.ts
 * names them, bench/suite-child.ts runs one). Each is imported only by the process that runs it: no
 * suite's process loads another's modules (Fastify and autocannon for the API, say).
 */
export const SUITES: ReadonlyArray<readonly [string, () => Promise<SuiteFn>]> = [
  ['quiet-ticks', async () => (await import('./quiet-ticks.bench.js')).quietTicks],
  ['end-to-end', async () => (await import('./end-to-end.bench.js')).endToEnd],
  ['fills', async () => (await import('./fills.bench.js')).fills],
  ['memory', async () => (await import('./memory.bench.js')).memory],
  ['backtest', async () => (await import('./backtest.bench.js')).backtest],
  ['busy-reader', async () => (await import('./busy-reader.bench.js')).busyReader],
  ['api', async () => (await import('./api.bench.js')).api],
  ['streams', async () => (await import('./streams.bench.js')).streams],
  ['history', async () => (await import('./history.bench.js')).history],
];
