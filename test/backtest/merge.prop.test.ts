import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeTickSources } from '../../src/backtest/merge.js';
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

describe('mergeTickSources', () => {
  it('gives exactly the order of mergeByTime', () => {
    fc.assert(
      fc.property(sources, (lists) => {
        expect([...mergeTickSources(lists)]).toEqual([...mergeByTime(lists)]);
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
    for (const tick of mergeTickSources([source(0), source(1), source(2)])) if (tick.time === 2) break;
    expect(closed.sort()).toEqual([0, 1, 2]);
  });
});
