import { api } from './api.bench.js';
import { backtest } from './backtest.bench.js';
import { busyReader } from './busy-reader.bench.js';
import { endToEnd } from './end-to-end.bench.js';
import { fills } from './fills.bench.js';
import { history } from './history.bench.js';
import type { SuiteFn } from './lib.js';
import { memory } from './memory.bench.js';
import { quietTicks } from './quiet-ticks.bench.js';
import { streams } from './streams.bench.js';

/** The suites of `npm run bench`, in the order they run (each in a process of its own, bench/run.ts). */
export const SUITES: ReadonlyArray<readonly [string, SuiteFn]> = [
  ['quiet-ticks', quietTicks],
  ['end-to-end', endToEnd],
  ['fills', fills],
  ['memory', memory],
  ['backtest', backtest],
  ['busy-reader', busyReader],
  ['api', api],
  ['streams', streams],
  ['history', history],
];
