import type { Micros } from '../domain/time.js';

interface Deadline {
  readonly time: Micros;
  readonly orderId: number;
}

/**
 * Expiry times of GTD/GFD orders, earliest first, ties by order ID. Entries of orders that ended
 * early stay until they surface and are skipped then; the account checks the order is still pending.
 */
export class DeadlineQueue {
  private readonly items: Deadline[] = [];

  get size(): number {
    return this.items.length;
  }

  /** Earliest deadline, or +Infinity: one compare per quote decides whether anything expires. */
  get nextTime(): Micros {
    return this.items.length === 0 ? Number.POSITIVE_INFINITY : (this.items[0] as Deadline).time;
  }

  push(time: Micros, orderId: number): void {
    const items = this.items;
    items.push({ time, orderId });
    let i = items.length - 1;
    const entry = items[i] as Deadline;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = items[p] as Deadline;
      if (!before(entry, parent)) break;
      items[i] = parent;
      i = p;
    }
    items[i] = entry;
  }

  pop(): Deadline | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && before(items[r] as Deadline, items[l] as Deadline)) c = r;
      if (!before(items[c] as Deadline, last)) break;
      items[i] = items[c] as Deadline;
      i = c;
    }
    items[i] = last;
    return top;
  }
}

function before(a: Deadline, b: Deadline): boolean {
  return a.time < b.time || (a.time === b.time && a.orderId < b.orderId);
}
