import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Direction, PriceSource, crosses, watchedValue2 } from './fill-rules.js';
import type { TriggerEntry } from './trigger-heap.js';
import { InstrumentTriggers, type TrailingEntry } from './trigger-index.js';

/**
 * Model-based test of one instrument's trigger index: random adds, cancels and quotes against a
 * naive list of every entry ever added, scanned in full on every quote.
 */

interface NaiveFixed {
  readonly kind: 'fixed';
  readonly source: PriceSource;
  readonly direction: Direction;
  readonly threshold2: number;
  readonly orderId: number;
  live: boolean;
  readonly handle: TriggerEntry;
}

interface NaiveTrailing {
  readonly kind: 'trailing';
  readonly source: PriceSource;
  readonly direction: Direction;
  readonly distance2: number;
  readonly orderId: number;
  value2: number;
  live: boolean;
  readonly handle: TrailingEntry;
}

type Naive = NaiveFixed | NaiveTrailing;

type Op =
  | { op: 'add'; source: PriceSource; direction: Direction; threshold2: number }
  | { op: 'addTrailing'; source: PriceSource; direction: Direction; distance2: number; seeded: boolean }
  | { op: 'cancel'; pick: number }
  | { op: 'quote'; bid: number; ask: number }
  /** Adds `count` entries to one heap (or the trailing list) and cancels all but every `keep`-th. */
  | { op: 'churn'; heap: number; trailing: boolean; count: number; keep: number; base: number };

/** Prices live in a narrow band so thresholds tie often and quotes cross often. */
const LOW = 100;
const HIGH = 130;
const source = fc.constantFrom(PriceSource.BID, PriceSource.ASK, PriceSource.MID);
const direction = fc.constantFrom(Direction.LE, Direction.GE);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      source,
      direction,
      threshold2: fc.integer({ min: 2 * LOW - 4, max: 2 * HIGH + 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('addTrailing' as const),
      source,
      direction,
      distance2: fc.integer({ min: 1, max: 12 }),
      seeded: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 5,
    arbitrary: fc
      // Now and then a crossed quote (bid above ask), as recorded feeds sometimes carry.
      .record({
        bid: fc.integer({ min: LOW, max: HIGH }),
        spread: fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 0, max: 4 }) },
          { weight: 1, arbitrary: fc.integer({ min: -4, max: -1 }) },
        ),
      })
      .map(({ bid, spread }) => ({ op: 'quote' as const, bid, ask: bid + spread })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('churn' as const),
      heap: fc.integer({ min: 0, max: 5 }),
      trailing: fc.boolean(),
      count: fc.integer({ min: 1560, max: 2200 }),
      keep: fc.integer({ min: 3, max: 400 }),
      base: fc.integer({ min: 2 * LOW - 20, max: 2 * HIGH + 20 }),
    }),
  },
);

function sortKeyOf(e: NaiveFixed): number {
  return e.direction === Direction.LE ? -e.threshold2 : e.threshold2;
}

class Harness {
  readonly book = new InstrumentTriggers();
  readonly all: Naive[] = [];
  private seq = 0;
  private lastQuote: { bid: number; ask: number } | undefined;

  add(src: PriceSource, dir: Direction, threshold2: number): void {
    this.seq += 1;
    const handle = this.book.add(src, dir, threshold2, this.seq, this.seq);
    this.all.push({ kind: 'fixed', source: src, direction: dir, threshold2, orderId: this.seq, live: true, handle });
  }

  addTrailing(src: PriceSource, dir: Direction, distance2: number, seeded: boolean): void {
    this.seq += 1;
    let value2 = Number.NaN;
    const q = this.lastQuote;
    if (seeded && q !== undefined) {
      const w = watchedValue2(src, q.bid, q.ask);
      value2 = dir === Direction.LE ? w - distance2 : w + distance2;
    }
    const handle: TrailingEntry = { orderId: this.seq, seq: this.seq, source: src, direction: dir, distance2, value2, live: true };
    this.book.addTrailing(handle);
    this.all.push({ kind: 'trailing', source: src, direction: dir, distance2, orderId: this.seq, value2, live: true, handle });
  }

  /** Cancels any entry ever added (dead ones included: a cancel of a filled order is a no-op). */
  cancel(e: Naive): void {
    const wasLive = e.live;
    if (e.kind === 'fixed') this.book.remove(e.source, e.direction, e.handle);
    else this.book.removeTrailing(e.handle);
    e.live = false;
    if (wasLive && e.kind === 'fixed') {
      // Right after a cancel the heap's garbage is bounded: at most 1024 dead or at most as many as live.
      const heap = this.book.heaps[e.source * 2 + e.direction];
      if (heap === undefined) throw new Error('no heap');
      const dead = heap.capacityUsed - heap.size;
      if (dead > Math.max(1024, heap.size))
        expect.fail(`heap ${e.source * 2 + e.direction} keeps ${dead} dead entries beside ${heap.size} live`);
    }
    if (wasLive && e.kind === 'trailing') {
      const live = this.book.trailing.filter((t) => t.live).length;
      const dead = this.book.trailing.length - live;
      if (dead > Math.max(64, live)) expect.fail(`trailing list keeps ${dead} dead entries beside ${live} live`);
    }
  }

  quote(bid: number, ask: number): void {
    this.lastQuote = { bid, ask };
    const expected: number[] = [];
    const expectedMoves: number[] = [];
    for (const e of this.all) {
      if (!e.live) continue;
      const w = watchedValue2(e.source, bid, ask);
      if (e.kind === 'fixed') {
        if (crosses(e.direction, w, e.threshold2)) {
          expected.push(e.orderId);
          e.live = false;
        }
        continue;
      }
      // Trailing: ratchet in the winning direction only (NaN = not yet seeded), then test.
      if (e.direction === Direction.LE) {
        const candidate = w - e.distance2;
        if (Number.isNaN(e.value2) || e.value2 < candidate) {
          e.value2 = candidate;
          expectedMoves.push(e.orderId, candidate);
        }
        if (w <= e.value2) {
          expected.push(e.orderId);
          e.live = false;
        }
      } else {
        const candidate = w + e.distance2;
        if (Number.isNaN(e.value2) || e.value2 > candidate) {
          e.value2 = candidate;
          expectedMoves.push(e.orderId, candidate);
        }
        if (w >= e.value2) {
          expected.push(e.orderId);
          e.live = false;
        }
      }
    }
    const out: number[] = [];
    const moved: number[] = [];
    this.book.collectCrossed(bid, ask, out, moved);
    expect([...out].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(new Set(out).size).toBe(out.length);
    // The index reports the new levels and leaves writing them to its owner (the account's evolve).
    expect(moved).toEqual(expectedMoves);
    for (let i = 0; i < moved.length; i += 2) {
      const entry = this.book.trailing.find((t) => t.orderId === moved[i]);
      if (entry !== undefined) entry.value2 = moved[i + 1] as number;
    }
  }

  /** The index's live entries equal the model's, heap by heap, and every heap's top is its best. */
  check(): void {
    let liveTotal = 0;
    for (let h = 0; h < 6; h += 1) {
      const heap = this.book.heaps[h];
      if (heap === undefined) throw new Error('missing heap');
      const model = this.all.filter((e): e is NaiveFixed => e.kind === 'fixed' && e.live && e.source * 2 + e.direction === h);
      liveTotal += model.length;
      expect(
        heap
          .liveEntries()
          .map((e) => e.orderId)
          .sort((a, b) => a - b),
      ).toEqual(model.map((e) => e.orderId));
      expect(heap.size).toBe(model.length);
      const badKey = model.find((e) => e.handle.sortKey !== sortKeyOf(e));
      expect(badKey).toBeUndefined();
      let best: NaiveFixed | undefined;
      for (const e of model) {
        if (best === undefined || sortKeyOf(e) < sortKeyOf(best) || (sortKeyOf(e) === sortKeyOf(best) && e.orderId < best.orderId))
          best = e;
      }
      expect(heap.peek()?.orderId).toBe(best?.orderId);
    }
    const trailingModel = this.all.filter((e): e is NaiveTrailing => e.kind === 'trailing' && e.live);
    liveTotal += trailingModel.length;
    const trailingLive = this.book.trailing.filter((t) => t.live);
    expect(trailingLive.map((t) => t.orderId)).toEqual(trailingModel.map((e) => e.orderId));
    expect(trailingLive.map((t) => t.value2)).toEqual(trailingModel.map((e) => e.value2));
    expect(this.book.liveCount()).toBe(liveTotal);
  }

  run(op: Op): void {
    switch (op.op) {
      case 'add':
        this.add(op.source, op.direction, op.threshold2);
        break;
      case 'addTrailing':
        this.addTrailing(op.source, op.direction, op.distance2, op.seeded);
        break;
      case 'cancel': {
        const e = this.all[op.pick % Math.max(1, this.all.length)];
        if (e !== undefined) this.cancel(e);
        break;
      }
      case 'quote':
        this.quote(op.bid, op.ask);
        break;
      case 'churn': {
        const first = this.all.length;
        const src = (op.heap >> 1) as PriceSource;
        const dir = (op.heap & 1) as Direction;
        const count = op.trailing ? Math.ceil(op.count / 8) : op.count;
        for (let i = 0; i < count; i += 1) {
          // Deterministic spread of thresholds with many ties.
          if (op.trailing) this.addTrailing(src, dir, 1 + (i % 9), i % 2 === 0);
          else this.add(src, dir, op.base + ((i * 7) % 23) - 11);
        }
        const before = op.trailing ? this.book.trailing.length : (this.book.heaps[op.heap]?.capacityUsed ?? 0);
        let cancelled = 0;
        for (let i = first; i < this.all.length; i += 1) {
          if ((i - first) % op.keep === 0) continue;
          this.cancel(this.all[i] as Naive);
          cancelled += 1;
        }
        // Had compaction never run, the last cancel would have left more dead entries than the
        // threshold (1024 in a heap, 64 in the trailing list) and than live ones: it must have run.
        const threshold = op.trailing ? 64 : 1024;
        if (cancelled > threshold && cancelled * 2 > before) {
          const after = op.trailing ? this.book.trailing.length : (this.book.heaps[op.heap]?.capacityUsed ?? 0);
          expect(after).toBeLessThan(before);
        }
        break;
      }
    }
  }
}

describe('InstrumentTriggers against a naive scan (model-based)', () => {
  it('crossed IDs and remaining live entries equal the naive model after every operation', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 120 }), (ops) => {
        const h = new Harness();
        for (const op of ops) {
          h.run(op);
          h.check();
        }
        // Drain: a quote at each extreme crosses every fixed entry on one side.
        h.quote(0, 0);
        h.check();
        h.quote(10 * HIGH, 10 * HIGH);
        h.check();
      }),
      { numRuns: 150 },
    );
  });

  it('ties: equal thresholds cross together and the top is the lowest sequence', () => {
    fc.assert(
      fc.property(
        source,
        direction,
        fc.integer({ min: 2 * LOW, max: 2 * HIGH }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 60 }),
        (src, dir, threshold2, cancels) => {
          const h = new Harness();
          const n = 40;
          for (let i = 0; i < n; i += 1) h.add(src, dir, threshold2);
          for (const c of cancels) h.cancel(h.all[c % n] as Naive);
          h.check();
          const v = threshold2 / 2;
          h.quote(Math.floor(v), Math.ceil(v)); // watched value at the threshold, or a half tick off for MID
          h.check();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('compaction with more than 1024 dead entries keeps the heap order and the live set', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1025, max: 3000 }),
        fc.integer({ min: 2, max: 50 }),
        fc.array(fc.record({ bid: fc.integer({ min: LOW, max: HIGH }), spread: fc.integer({ min: 0, max: 3 }) }), { maxLength: 10 }),
        (heapIndex, count, keep, quotes) => {
          const h = new Harness();
          h.run({ op: 'churn', heap: heapIndex, trailing: false, count, keep, base: LOW + HIGH });
          h.check();
          for (const q of quotes) {
            h.quote(q.bid, q.bid + q.spread);
            h.check();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
