import { readTicks } from '../engine/feeds/index.js';
import { DONE, type TickCountInput } from './tick-count.js';

/** Worker side of startTickCount: parses every file and stores the count in shared memory. */
export function countTicks(task: { input: TickCountInput; shared: SharedArrayBuffer }): void {
  const { input, shared } = task;
  const cells = new BigInt64Array(shared);
  const opts = { ...(input.format === undefined ? {} : { format: input.format }), ...(input.instrument === undefined ? {} : { instrument: input.instrument }) };
  let count = 0;
  for (const file of input.files) {
    for (const _tick of readTicks(file, opts)) count += 1;
  }
  Atomics.store(cells, 1, BigInt(count));
  Atomics.store(cells, 0, DONE);
}
