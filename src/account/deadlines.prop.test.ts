import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeadlineQueue } from './deadlines.js';

/**
 * The deadline queue keeps its earliest time in a field for the quote path; over random pushes and
 * pops it always equals the earliest deadline still queued (+Infinity when none), and pops come
 * out earliest first, ties by order ID.
 */
describe('DeadlineQueue', () => {
  it('nextTime is the earliest queued deadline after every push and pop', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ time: fc.integer({ min: 0, max: 50 }), id: fc.integer({ min: 1, max: 1_000 }) }), fc.constant(null)),
          {
            maxLength: 120,
          },
        ),
        (steps) => {
          const queue = new DeadlineQueue();
          const model: { time: number; id: number }[] = [];
          for (const step of steps) {
            if (step === null) {
              const popped = queue.pop();
              model.sort((a, b) => a.time - b.time || a.id - b.id);
              const first = model.shift();
              expect(popped === undefined ? undefined : { time: popped.time, id: popped.orderId }).toEqual(first);
            } else {
              queue.push(step.time, step.id);
              model.push(step);
            }
            expect(queue.nextTime).toBe(model.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...model.map((d) => d.time)));
            expect(queue.size).toBe(model.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
