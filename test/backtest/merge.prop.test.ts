import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../src/domain/tick.js';
import { mergeByTime } from '../../src/engine/feeds/index.js';

/** Sources in time order; each tick carries its source and position in `bid`/`ask` so the order is visible. */
const sources = fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), { maxLength: 6 }).map((lists) =>
  lists.map((gaps, s) => {
    let time = 0;
    return gaps.map((gap, k): Tick => {
      time += gap % 4 === 0 ? 0 : gap; // plenty of equal times within and across sources
      return { instrument: 'EUR_USD', time, bid: s, ask: k };
    });
  }),
);

/** Long runs from one source, then a switch: the shape of one tick file per day. */
const days = fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 8 }).map((lengths) => {
  let time = 0;
  const files = lengths.map((n, s) =>
    Array.from({ length: n }, (_, k): Tick => {
      time += k % 3 === 0 ? 0 : 1;
      return { instrument: 'EUR_USD', time, bid: s, ask: k };
    }),
  );
  return files.reverse(); // later days first: the merge, not the file order, puts them in time order
});

/** The specification: a stable sort by time of the concatenation (source index, then position). */
const stableSort = (lists: readonly Tick[][]): Tick[] => lists.flat().sort((a, b) => a.time - b.time);

describe('mergeByTime of tick files (backtest)', () => {
  it('gives a stable sort by time of the sources, interleaved or in runs', () => {
    fc.assert(
      fc.property(fc.oneof(sources, days), (lists) => {
        expect([...mergeByTime(lists)]).toEqual(stableSort(lists));
      }),
      { numRuns: 500 },
    );
  });

  it('closes every source when stopped early', () => {
    const closed: number[] = [];
    const source = (id: number): Iterable<Tick> => ({
      *[Symbol.iterator]() {
        try {
          for (let k = 0; k < 5; k += 1) yield { instrument: 'EUR_USD', time: k, bid: id, ask: k };
        } finally {
          closed.push(id);
        }
      },
    });
    for (const tick of mergeByTime([source(0), source(1), source(2)])) if (tick.time === 2) break;
    expect(closed.sort()).toEqual([0, 1, 2]);
  });
});
