import { describe, expect, it } from 'vitest';
import type { Tick } from '../domain/tick.js';
import { generateTicks } from '../engine/feeds/generator.js';
import { runBacktest } from './runner.js';
import { columnTicks, readTickColumns } from './tick-columns.js';
import { tickCursor, type TickCursor } from './tick-cursor.js';

function drain(cursor: TickCursor): Tick[] {
  const out: Tick[] = [];
  for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) out.push(tick);
  return out;
}

describe('tickCursor', () => {
  const ticks = [...generateTicks({ seed: 3, instruments: ['EUR_USD', 'USD_JPY'], count: 500 })];

  it('reads arrays, iterables and columns as iterating them does, each from its first tick', () => {
    expect(drain(tickCursor(ticks))).toEqual(ticks);
    expect(drain(tickCursor(generateTicks({ seed: 3, instruments: ['EUR_USD', 'USD_JPY'], count: 500 })))).toEqual(ticks);
    const columns = columnTicks(readTickColumns(ticks, 1_000) ?? expect.fail('no columns'));
    expect(drain(tickCursor(columns))).toEqual(ticks);
    expect(drain(tickCursor(columns))).toEqual([...columns]);
  });

  it('closes a generator it did not finish, and a backtest closes its source when the strategy throws', () => {
    let closed = 0;
    function* source(): Generator<Tick> {
      try {
        yield* ticks;
      } finally {
        closed += 1;
      }
    }
    const cursor = tickCursor(source());
    cursor.next();
    cursor.close();
    expect(closed).toBe(1);
    const failing = {
      name: 'fails',
      params: {},
      create: () => ({
        onTick: (): void => {
          throw new Error('boom');
        },
      }),
    };
    expect(() => runBacktest({ strategy: failing, ticks: source() })).toThrow('boom');
    expect(closed).toBe(2);
  });

  it('a backtest over an empty source says so', () => {
    expect(() => runBacktest({ strategy: { name: 'idle', params: {}, create: () => ({}) }, ticks: [] })).toThrow('holds no ticks');
  });
});
