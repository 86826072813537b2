import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { FeedParseError } from './errors.js';
import { readTicks } from './read-ticks.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-levels-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(name: string, text: string): Tick[] {
  const file = join(dir, name);
  writeFileSync(file, text);
  return [...readTicks(file, {})];
}

const T = Date.parse('2024-01-02T12:00:01Z') * 1000;

describe('liquidity levels in tick files', () => {
  it('csv: bidLiquidity/askLiquidity size the top level, bid2/bidLiquidity2 ... add levels', () => {
    const ticks = read(
      'levels.csv',
      'time,instrument,bid,bidLiquidity,bid2,bidLiquidity2,ask,askLiquidity\n2024-01-02T12:00:01Z,EUR_USD,1.10000,1000,1.09998,2000,1.10020,1500\n',
    );
    expect(ticks).toEqual([
      {
        instrument: 'EUR_USD',
        time: T,
        bid: 1.1,
        ask: 1.1002,
        bids: [
          { price: 1.1, liquidity: 1000 },
          { price: 1.09998, liquidity: 2000 },
        ],
        asks: [{ price: 1.1002, liquidity: 1500 }],
      },
    ]);
  });

  it('csv without liquidity columns gives ticks without levels', () => {
    expect(read('plain.csv', 'time,instrument,bid,ask\n2024-01-02T12:00:01Z,EUR_USD,1.1,1.1002\n')[0]).not.toHaveProperty('bids');
  });

  it('csv: a level price without its liquidity column is refused', () => {
    expect(() => read('half.csv', 'time,instrument,bid,ask,bid2\n2024-01-02T12:00:01Z,EUR_USD,1.1,1.1002,1.0999\n')).toThrow(
      FeedParseError,
    );
  });

  it('ndjson: bids/asks with liquidity (numbers or strings) are the levels, best first', () => {
    const line = JSON.stringify({
      instrument: 'EUR_USD',
      time: '2024-01-02T12:00:01Z',
      bids: [
        { price: '1.10000', liquidity: '1000' },
        { price: '1.09990', liquidity: 4000 },
      ],
      asks: [{ price: '1.10020', liquidity: 2000 }],
    });
    expect(read('levels.ndjson', `${line}\n`)[0]).toMatchObject({
      bid: 1.1,
      ask: 1.1002,
      bids: [
        { price: 1.1, liquidity: 1000 },
        { price: 1.0999, liquidity: 4000 },
      ],
      asks: [{ price: 1.1002, liquidity: 2000 }],
    });
  });

  it('ndjson: levels out of order or a top level away from bid are refused', () => {
    const unordered = JSON.stringify({
      instrument: 'EUR_USD',
      time: '2024-01-02T12:00:01Z',
      bids: [
        { price: '1.09990', liquidity: 1 },
        { price: '1.10000', liquidity: 1 },
      ],
      ask: '1.10020',
    });
    expect(() => read('bad.ndjson', `${unordered}\n`)).toThrow(/best first/);
    const away = JSON.stringify({
      instrument: 'EUR_USD',
      time: '2024-01-02T12:00:01Z',
      bid: '1.1',
      bids: [{ price: '1.09', liquidity: 1 }],
      ask: '1.2',
    });
    expect(() => read('away.ndjson', `${away}\n`)).toThrow(/must equal bid/);
  });

  it('LEAN: ms,bid,bidSize,ask,askSize gives one level a side; a size of 0 leaves that side unlimited', () => {
    const ticks = read('20240102_eurusd_tick_quote.csv', '1000,1.10000,250000,1.10020,0\n2000,1.10001,0,1.10021,0\n');
    expect(ticks[0]).toMatchObject({ bid: 1.1, ask: 1.1002, bids: [{ price: 1.1, liquidity: 250000 }] });
    expect(ticks[0]).not.toHaveProperty('asks');
    expect(ticks[1]).not.toHaveProperty('bids');
  });
});
