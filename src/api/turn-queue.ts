import type { FastifyReply } from 'fastify';
import type { V20Response } from '../v3/response.js';

/** A request's v3 operation, run when the queue is drained. */
export type Operation = () => V20Response;

/**
 * The operations of the requests that carried a body (an order, a close, a configuration, a /sim
 * change), run together at the end of the event loop's turn in the order their handlers were
 * called, then answered together (answerV20 says why the writes are). Run in the handler, each
 * order's code ran cold between the parsing, validation and hooks of the next requests; run back
 * to back, a MARKET request costs about a tenth less (bench/RESULTS.md).
 *
 * Order is kept: a request whose handler starts while operations are queued drains the queue
 * first (`drain`, from callOf and the control API), so every request still sees what the
 * requests before it did. Nothing else runs between a handler and the end of its turn but other
 * requests' handlers: the replay pump and clock driver run on timers, which come after it.
 */
export class TurnQueue {
  private replies: FastifyReply[] = [];
  private operations: Operation[] = [];
  private scheduled = false;

  constructor(
    /** Sets a reply's status and headers for an answer and returns its body's text (http-call.ts). */
    private readonly prepare: (reply: FastifyReply, response: V20Response) => string,
  ) {}

  get size(): number {
    return this.operations.length;
  }

  add(reply: FastifyReply, operation: Operation): void {
    this.replies.push(reply);
    this.operations.push(operation);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.atTurnEnd);
    }
  }

  private readonly atTurnEnd = (): void => {
    this.scheduled = false;
    this.drain();
  };

  /**
   * Runs the queued operations, oldest first, each answer printed as soon as its operation has
   * run (a later one cannot change it), then sends them all. An operation that throws is answered
   * as a throwing handler is, through the error handler. The queue is swapped out first, so an
   * operation that drains (its callOf) finds it empty.
   */
  drain(): void {
    const operations = this.operations;
    const count = operations.length;
    if (count === 0) return;
    const replies = this.replies;
    this.operations = [];
    this.replies = [];
    const answers: (string | Error)[] = new Array<string | Error>(count);
    for (let i = 0; i < count; i += 1) {
      const reply = replies[i] as FastifyReply;
      try {
        answers[i] = this.prepare(reply, (operations[i] as Operation)());
      } catch (error) {
        answers[i] = error instanceof Error ? error : new Error(String(error));
      }
    }
    for (let i = 0; i < count; i += 1) void (replies[i] as FastifyReply).send(answers[i]);
  }
}
