import fc from 'fast-check';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { V20Response } from '../v3/response.js';
import { TurnQueue } from './turn-queue.js';

/**
 * Whatever mix of queued operations, early drains (a later request's callOf), operations that
 * drain from inside and operations that throw: each operation runs exactly once, all in the order
 * they were queued, and each reply is sent exactly once, with its own operation's answer or error.
 */
type Step = { kind: 'add'; throws: boolean; drainsInside: boolean } | { kind: 'drain' } | { kind: 'turnEnd' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), throws: fc.boolean(), drainsInside: fc.boolean() }),
  fc.constant({ kind: 'drain' as const }),
  fc.constant({ kind: 'turnEnd' as const }),
);

const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnQueue', () => {
  it('runs every queued operation once, in order, and answers each reply once with its own answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const queue = new TurnQueue((_reply, response) => String((response.body as { n: number }).n));
        const ran: number[] = [];
        const sent = new Map<number, unknown[]>();
        let queued = 0;
        for (const s of steps) {
          if (s.kind === 'drain') queue.drain();
          else if (s.kind === 'turnEnd') await turnEnd();
          else {
            const n = queued;
            queued += 1;
            sent.set(n, []);
            const reply = { send: (payload: unknown) => void sent.get(n)?.push(payload) } as unknown as FastifyReply;
            queue.add(reply, (): V20Response => {
              ran.push(n);
              if (s.drainsInside) queue.drain();
              if (s.throws) throw new Error(`operation ${n}`);
              return { status: 201, body: { n } };
            });
          }
        }
        await turnEnd();
        expect(queue.size).toBe(0);
        expect(ran).toEqual(Array.from({ length: queued }, (_, i) => i));
        for (const [n, payloads] of sent) {
          const s = steps.filter((x) => x.kind === 'add')[n] as Extract<Step, { kind: 'add' }>;
          expect(payloads).toHaveLength(1);
          if (s.throws) expect((payloads[0] as Error).message).toBe(`operation ${n}`);
          else expect(payloads[0]).toBe(String(n));
        }
      }),
      { numRuns: 200 },
    );
  });
});
