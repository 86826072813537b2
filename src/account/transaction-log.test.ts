import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../domain/transactions.js';
import { TransactionLog } from './transaction-log.js';

/** A transaction with ID `id`, one second apart (times never decrease). */
function tx(id: number): Transaction {
  return {
    type: 'TRANSFER_FUNDS',
    id: String(id),
    time: `2024-01-02T00:00:${String(id % 60).padStart(2, '0')}Z`,
  } as unknown as Transaction;
}

/** A log over a journal that holds every transaction, counting how often older IDs are read. */
function logOf(window: number, count: number): { log: TransactionLog; journal: Transaction[]; reads: { n: number } } {
  const journal: Transaction[] = [];
  const reads = { n: 0 };
  const log = new TransactionLog({
    window,
    older: function* (fromId) {
      reads.n += 1;
      yield* journal.slice(fromId - 1);
    },
  });
  for (let id = 1; id <= count; id += 1) {
    const t = tx(id);
    journal.push(t);
    log.push(t);
  }
  return { log, journal, reads };
}

const ids = (txs: Iterable<Transaction>): number[] => [...txs].map((t) => Number(t.id));
const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('TransactionLog', () => {
  it('keeps the newest `window` transactions in memory and reads none back while IDs stay in it', () => {
    const { log, reads } = logOf(5, 12);
    expect(log.length).toBe(12);
    expect(log.firstKept).toBe(8);
    expect(ids(log.range(8, 12))).toEqual([8, 9, 10, 11, 12]);
    expect(log.get(12)?.id).toBe('12');
    expect(reads.n).toBe(0);
  });

  it('answers an evicted ID from the journal, and nothing for IDs outside 1..length', () => {
    const { log, reads } = logOf(5, 12);
    expect(log.get(1)?.id).toBe('1');
    expect(log.get(7)?.id).toBe('7');
    expect(reads.n).toBe(2);
    for (const id of [0, -1, 13, 1.5, Number.NaN]) expect(log.get(id)).toBeUndefined();
  });

  it('reads across the window edge in one pass: journal first, then memory, IDs continuous', () => {
    const { log, reads } = logOf(5, 12);
    expect(ids(log.range(3, 10))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(reads.n).toBe(1);
    expect(ids(log)).toEqual(oneTo(12));
    expect(ids(log.from(6))).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });

  it('takes Array semantics for at() and slice() over positions (index = ID - 1)', () => {
    const { log } = logOf(3, 10);
    const all = oneTo(10);
    for (const [s, e] of [
      [0, 10],
      [2, 5],
      [-3, undefined],
      [8, 100],
      [5, 2],
      [-100, 2],
    ] as const) {
      expect(ids(log.slice(s, e))).toEqual(all.slice(s, e));
    }
    expect(log.at(0)?.id).toBe('1');
    expect(log.at(-1)?.id).toBe('10');
    expect(log.at(10)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(log))).toHaveLength(10);
  });

  it('finds the first ID a monotone test holds for, below or inside the window', () => {
    const { log } = logOf(4, 20);
    for (let k = 1; k <= 21; k += 1) expect(log.firstWhere((t) => Number(t.id) >= k)).toBe(k);
  });

  it('keeps reading correctly while transactions arrive during an iteration and evict the next ones', () => {
    const { log, journal } = logOf(3, 6);
    const seen: number[] = [];
    for (const t of log.from(1, 6)) {
      seen.push(Number(t.id));
      const next = tx(journal.length + 1);
      journal.push(next);
      log.push(next);
    }
    expect(seen).toEqual(oneTo(6));
  });

  it('keeps everything without a window, and refuses a bounded window without a reader or below 1', () => {
    const log = new TransactionLog();
    for (let id = 1; id <= 50; id += 1) log.push(tx(id));
    expect(log.firstKept).toBe(1);
    expect(() => new TransactionLog({ window: 5 })).toThrow(/reader/);
    expect(() => new TransactionLog({ window: 0, older: () => [] })).toThrow(/at least 1/);
    expect(() => new TransactionLog({ window: 2.5, older: () => [] })).toThrow(/whole number/);
  });

  it('says so when the journal does not hold an evicted ID', () => {
    const log = new TransactionLog({ window: 2, older: () => [] });
    for (let id = 1; id <= 5; id += 1) log.push(tx(id));
    expect(() => log.get(1)).toThrow(/does not hold transaction 1/);
  });

  it('answers every read as an unbounded log does, for any window and log length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.tuple(fc.integer({ min: -130, max: 130 }), fc.integer({ min: -130, max: 130 })), { maxLength: 8 }),
        (window, count, reads) => {
          const { log } = logOf(window, count);
          const whole = logOf(count + 1, count).log;
          expect(log.firstKept).toBe(Math.max(1, count - window + 1));
          expect(ids(log)).toEqual(oneTo(count));
          for (const [a, b] of reads) {
            expect(ids(log.slice(a, b))).toEqual(ids(whole.slice(a, b)));
            expect(ids(log.range(a, b))).toEqual(ids(whole.range(a, b)));
            expect(log.get(a)).toEqual(whole.get(a));
            expect(log.at(b)).toEqual(whole.at(b));
          }
        },
      ),
    );
  });
});
