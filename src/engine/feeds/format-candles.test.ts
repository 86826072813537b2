import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat } from './detect.js';
import { candleQuotes, readCandleTicks } from './format-candles.js';
import { readTicks } from './read-ticks.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-candles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T = Date.UTC(2024, 0, 2, 10) * 1000;
const M1 = 60_000_000;

function line(instrument: string, minute: number, bid: [string, string, string, string], spread = '0.00010', extra: object = {}): string {
  const plus = (p: string): string => (Number(p) + Number(spread)).toFixed(5);
  const [o, h, l, c] = bid;
  return JSON.stringify({
    instrument,
    granularity: 'M1',
    time: new Date((T + minute * M1) / 1000).toISOString(),
    bid: { o, h, l, c },
    ask: { o: plus(o), h: plus(h), l: plus(l), c: plus(c) },
    volume: 10,
    ...extra,
  });
}

function file(name: string, lines: string[]): string {
  const f = path.join(dir, name);
  writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

describe('candle quotes', () => {
  const side = (o: number, h: number, l: number, c: number) => ({ o, h, l, c });
  it('open, the extreme nearer the open, the other, close; spread over the interval', () => {
    const nearHigh = candleQuotes({
      instrument: 'EUR_USD',
      time: T,
      interval: M1,
      bid: side(1.1, 1.102, 1.095, 1.1),
      ask: side(1.1001, 1.1021, 1.0951, 1.1001),
    });
    expect(nearHigh.map((q) => [q.time - T, q.bid])).toEqual([
      [0, 1.1],
      [20_000_000, 1.102],
      [40_000_000, 1.095],
      [M1 - 1, 1.1],
    ]);
    const nearLow = candleQuotes({
      instrument: 'EUR_USD',
      time: T,
      interval: M1,
      bid: side(1.1, 1.105, 1.099, 1.1),
      ask: side(1.1001, 1.1051, 1.0991, 1.1001),
    });
    expect(nearLow.map((q) => q.bid)).toEqual([1.1, 1.099, 1.105, 1.1]);
    const tie = candleQuotes({
      instrument: 'EUR_USD',
      time: T,
      interval: M1,
      bid: side(1.1, 1.101, 1.099, 1.1),
      ask: side(1.1001, 1.1011, 1.0991, 1.1001),
    });
    expect(tie.map((q) => q.bid)).toEqual([1.1, 1.101, 1.099, 1.1]);
  });
});

describe('candle files', () => {
  it('are detected by their first line, also behind an .ndjson name, and read as four quotes each', () => {
    const f = file('eurusd-m1.ndjson', [
      line('EUR_USD', 0, ['1.10000', '1.10050', '1.09990', '1.10020']),
      line('EUR_USD', 1, ['1.10020', '1.10030', '1.09900', '1.09950']),
    ]);
    expect(detectFormat(f)).toBe('candles');
    const ticks = [...readTicks(f)];
    expect(ticks).toHaveLength(8);
    expect(ticks.map((t) => t.bid)).toEqual([1.1, 1.0999, 1.1005, 1.1002, 1.1002, 1.1003, 1.099, 1.0995]);
    expect(ticks.every((t, i) => i === 0 || t.time > (ticks[i - 1]?.time ?? 0))).toBe(true);
  });

  it('interleave the quotes of candles that start together, and skip incomplete candles', () => {
    const f = file('two.ndjson', [
      line('EUR_USD', 0, ['1.10000', '1.10050', '1.09990', '1.10020']),
      line('USD_JPY', 0, ['150.000', '150.100', '149.900', '150.050'], '0.020'),
      line('EUR_USD', 1, ['1.10020', '1.10030', '1.09900', '1.09950'], '0.00010', { complete: false }),
    ]);
    const ticks = [...readCandleTicks(f)];
    expect(ticks.map((t) => t.instrument)).toEqual([
      'EUR_USD',
      'USD_JPY',
      'EUR_USD',
      'USD_JPY',
      'EUR_USD',
      'USD_JPY',
      'EUR_USD',
      'USD_JPY',
    ]);
    expect(ticks.every((t, i) => i === 0 || t.time >= (ticks[i - 1]?.time ?? 0))).toBe(true);
  });

  it('name the line of a bad candle', () => {
    const noGranularity = file('bad1.ndjson', [line('EUR_USD', 0, ['1.1', '1.2', '1.0', '1.1']).replace('"granularity":"M1",', '')]);
    expect(() => [...readTicks(noGranularity, { format: 'candles' })]).toThrow(/bad1\.ndjson:1: granularity must be given/);
    const inverted = file('bad2.ndjson', [
      line('EUR_USD', 0, ['1.1', '1.2', '1.0', '1.1']),
      line('EUR_USD', 1, ['1.1', '1.0', '1.2', '1.1']),
    ]);
    expect(() => [...readTicks(inverted)]).toThrow(/bad2\.ndjson:2: bid: low and high must bound/);
    const backwards = file('bad3.ndjson', [
      line('EUR_USD', 1, ['1.1', '1.2', '1.0', '1.1']),
      line('EUR_USD', 0, ['1.1', '1.2', '1.0', '1.1']),
    ]);
    expect(() => [...readTicks(backwards)]).toThrow(/bad3\.ndjson:2: candles must be in time order/);
    const midOnly = file('bad4.ndjson', [
      JSON.stringify({ instrument: 'EUR_USD', granularity: 'M1', time: '2024-01-02T10:00:00Z', mid: { o: '1', h: '1', l: '1', c: '1' } }),
    ]);
    expect(() => [...readTicks(midOnly, { format: 'candles' })]).toThrow(/bid must be an object/);
  });

  it('a CSV forced to a JSON format says what the format reads; broken JSON says where it breaks', () => {
    const csv = file('candles.csv', ['time,open,high,low,close', '2024-01-02T10:00:00Z,1.1,1.2,1.0,1.15']);
    expect(() => [...readTicks(csv, { format: 'candles' })]).toThrow(
      'candles.csv:1: not a JSON line: the candles format reads v20 bid/ask candles as `v20sim download candles` writes them (not CSV), one JSON object per line',
    );
    expect(() => [...readTicks(csv, { format: 'ndjson' })]).toThrow(
      'candles.csv:1: not a JSON line: the ndjson format reads v20 prices as the pricing stream sends them, one JSON object per line',
    );
    const cut = file('cut.ndjson', [line('EUR_USD', 0, ['1.1', '1.2', '1.0', '1.1']).slice(0, 40)]);
    expect(() => [...readTicks(cut, { format: 'candles' })]).toThrow(/cut\.ndjson:1: not valid JSON: /);
  });
});
