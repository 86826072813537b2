import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOK_INTERVAL, bucketOf, type BookBucket } from '../domain/books.js';
import { BOOK_SNAPSHOTS_MAX } from '../domain/limits.js';
import type { Tick } from '../domain/tick.js';
import { MemoryJournal } from '../journal/journal.js';
import { BookHistory, type BookSnapshot } from './books.js';
import { createEngine, type Engine } from './engine.js';

const A = '101-004-1234567-001';
const B = '101-004-1234567-002';
/** 2024-01-02T12:00:00Z, a boundary. */
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const MINUTE = 60_000_000;

function tick(time: number, bid: number, ask: number, instrument = 'EUR_USD'): Tick {
  return { instrument, time, bid, ask };
}

function twoAccounts(): Engine {
  return createEngine({
    accounts: [
      { id: A, currency: 'USD' },
      { id: B, currency: 'USD', hedgingEnabled: true },
    ],
    start: T0,
  });
}

function limit(engine: Engine, account: string, units: string, price: string, extra: Record<string, string> = {}): void {
  const out = engine.execute(account, { type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units, price, ...extra } });
  expect(out.reject).toBeUndefined();
}

const snapshot = (time: number): BookSnapshot => ({ time, instruments: new Map() });

describe('BookHistory: the snapshot at or before a time', () => {
  it('picks the newest snapshot not after the time, none before the first', () => {
    const h = new BookHistory(3);
    for (const t of [T0, T0 + BOOK_INTERVAL, T0 + 2 * BOOK_INTERVAL]) h.record(snapshot(t));
    expect(h.at(T0 - 1)).toBeUndefined();
    expect(h.at(T0)?.time).toBe(T0);
    expect(h.at(T0 + BOOK_INTERVAL - 1)?.time).toBe(T0);
    expect(h.at(T0 + BOOK_INTERVAL)?.time).toBe(T0 + BOOK_INTERVAL);
    expect(h.at(T0 + 100 * BOOK_INTERVAL)?.time).toBe(T0 + 2 * BOOK_INTERVAL);
  });

  it('keeps the newest `max` and refuses one that is not newer', () => {
    const h = new BookHistory(2);
    for (const t of [T0, T0 + BOOK_INTERVAL, T0 + 2 * BOOK_INTERVAL]) h.record(snapshot(t));
    expect(h.size).toBe(2);
    expect(h.at(T0 + BOOK_INTERVAL - 1)).toBeUndefined();
    expect(() => h.record(snapshot(T0 + 2 * BOOK_INTERVAL))).toThrow(/not after/);
  });
});

describe('the engine takes books as the clock crosses each boundary', () => {
  it('keeps none until asked', () => {
    const engine = twoAccounts();
    engine.pushTick(tick(T0 + 1, 1.1, 1.1002));
    engine.advanceTo(T0 + 3 * BOOK_INTERVAL);
    expect(engine.bookAt(T0 + 3 * BOOK_INTERVAL)).toBeUndefined();
  });

  it('counts the pending orders and open trades of every account at the boundary, with the mid before it', () => {
    const engine = twoAccounts();
    engine.keepBooks();
    engine.pushTick(tick(T0 + 1, 1.1, 1.1002));
    limit(engine, A, '100', '1.09000');
    limit(engine, B, '-100', '1.11000');
    engine.execute(B, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '7' } });
    // A quote exactly at the boundary comes after the snapshot.
    engine.pushTick(tick(T0 + BOOK_INTERVAL, 1.2, 1.2002));
    const book = engine.bookAt(T0 + BOOK_INTERVAL)?.instruments.get('EUR_USD');
    expect(book).toEqual({
      mid: 110_010,
      bucketWidth: 50,
      orders: [
        { price: 109_000, long: 1, short: 0 },
        { price: 111_000, long: 0, short: 1 },
      ],
      positions: [{ price: 110_000, long: 1, short: 0 }],
    });
    expect(engine.bookAt(T0 + BOOK_INTERVAL - 1)).toBeUndefined();
  });

  it('a long jump shows a GTD order until its deadline and takes at most the kept number of books', () => {
    const engine = twoAccounts();
    engine.keepBooks();
    engine.pushTick(tick(T0 + 1, 1.1, 1.1002));
    limit(engine, A, '100', '1.09000', { timeInForce: 'GTD', gtdTime: '2024-01-02T12:50:00Z' });
    engine.advanceTo(T0 + 2 * 60 * MINUTE);
    const orders = (t: number): readonly BookBucket[] | undefined => engine.bookAt(t)?.instruments.get('EUR_USD')?.orders;
    expect(orders(T0 + 40 * MINUTE)).toHaveLength(1);
    expect(orders(T0 + 60 * MINUTE)).toEqual([]);
    expect(engine.account(A)?.log.at(-1)).toMatchObject({ type: 'ORDER_CANCEL', time: '2024-01-02T12:50:00.000000000Z' });
    engine.advanceTo(T0 + 30 * 24 * 60 * MINUTE + 5);
    expect(engine.bookAt(T0 + 30 * 24 * 60 * MINUTE)?.time).toBe(T0 + 30 * 24 * 60 * MINUTE);
    const oldest = T0 + 30 * 24 * 60 * MINUTE - (BOOK_SNAPSHOTS_MAX - 1) * BOOK_INTERVAL;
    expect(engine.bookAt(oldest)?.time).toBe(oldest);
    expect(engine.bookAt(oldest - 1)).toBeUndefined();
  });

  it('keeping books changes no journal: the same ticks and orders give the same transactions', () => {
    const run = (books: boolean): string => {
      const journal = new MemoryJournal();
      const engine = createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0, journal });
      if (books) engine.keepBooks();
      engine.pushTick(tick(T0 + 1, 1.1, 1.1002));
      limit(engine, A, '100', '1.09000', { timeInForce: 'GTD', gtdTime: '2024-01-02T12:30:00Z' });
      engine.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } });
      // Over 17:00 New York (a rollover, itself a boundary) and the GTD deadline, tick by tick and in a jump.
      for (let t = T0 + 7 * MINUTE; t < T0 + 12 * 60 * MINUTE; t += 13 * MINUTE) engine.pushTick(tick(t, 1.1, 1.1002));
      engine.advanceTo(T0 + 3 * 24 * 60 * MINUTE);
      return journal.text(A);
    };
    expect(run(true)).toBe(run(false));
  });
});

describe('property: a captured book is a recount of the orders and trades', () => {
  it('every bucket counts the pending orders of both accounts whose price falls in it', () => {
    const order = fc.record({
      account: fc.constantFrom(A, B),
      // Below the ask for buys and above the bid for sells, so every order rests.
      offset: fc.integer({ min: 1, max: 2000 }),
      long: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 40 }), (orders) => {
        const engine = twoAccounts();
        engine.keepBooks();
        engine.pushTick(tick(T0 + 1, 1.1, 1.1002));
        const prices: { price: number; long: boolean }[] = [];
        for (const o of orders) {
          const price = o.long ? 110_000 - o.offset : 110_020 + o.offset;
          limit(engine, o.account, o.long ? '10' : '-10', (price / 100_000).toFixed(5));
          prices.push({ price, long: o.long });
        }
        engine.advanceTo(T0 + BOOK_INTERVAL);
        const book = engine.bookAt(T0 + BOOK_INTERVAL)?.instruments.get('EUR_USD');
        const naive = new Map<number, { long: number; short: number }>();
        for (const p of prices) {
          const key = bucketOf(p.price, 50);
          const c = naive.get(key) ?? { long: 0, short: 0 };
          if (p.long) c.long += 1;
          else c.short += 1;
          naive.set(key, c);
        }
        expect(book?.orders.length).toBe(naive.size);
        for (const b of book?.orders ?? []) expect({ long: b.long, short: b.short }).toEqual(naive.get(b.price));
      }),
      { numRuns: 40 },
    );
  });
});
