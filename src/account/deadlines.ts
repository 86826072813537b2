import { MinHeap } from '../domain/min-heap.js';
import type { Micros } from '../domain/time.js';

interface Deadline {
  readonly time: Micros;
  readonly orderId: number;
}

/**
 * Expiry times of GTD/GFD orders, earliest first, ties by order ID. Entries of orders that ended
 * early stay until they surface and are skipped then; the account checks the order is still pending.
 * Deadlines pass whatever the market hours: v20 cancels expired orders while the market is halted
 * (ORDER_CANCEL TIME_IN_FORCE_EXPIRED needs no price); only fills wait for a tradeable quote.
 */
export class DeadlineQueue {
  private readonly heap = new MinHeap<Deadline>((a, b) => a.time < b.time || (a.time === b.time && a.orderId < b.orderId));

  /**
   * Earliest deadline, or +Infinity: one compare per quote decides whether anything expires. Kept
   * in a field at each push and pop, so the quote path reads a number instead of peeking the heap.
   */
  private next: Micros = Number.POSITIVE_INFINITY;

  get size(): number {
    return this.heap.size;
  }

  get nextTime(): Micros {
    return this.next;
  }

  push(time: Micros, orderId: number): void {
    this.heap.push({ time, orderId });
    this.next = this.earliest();
  }

  pop(): Deadline | undefined {
    const deadline = this.heap.pop();
    this.next = this.earliest();
    return deadline;
  }

  private earliest(): Micros {
    return this.heap.peek()?.time ?? Number.POSITIVE_INFINITY;
  }
}
