import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../domain/instruments.js';
import type { Tick } from '../../domain/tick.js';
import { writeSampleCsv } from './csv-writer.js';
import { DEFAULT_GENERATOR_START, type GeneratorOptions, generateHistory, generatedTicks$, generateTicks } from './generator.js';
import { MarketCalendar } from '../../domain/market-hours.js';
import { pairProfile } from './pair-profiles.js';
import { readTicks } from './read-ticks.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-generator-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const catalogue = buildCatalogue();
const ALL = [...catalogue.keys()];
const base: GeneratorOptions = { seed: 7, instruments: ['EUR_USD', 'USD_JPY', 'GBP_NZD'], count: 5000 };

function decimals(x: number): number {
  const text = String(x);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

describe('generateTicks', () => {
  it('gives identical ticks for the same seed and different ones for another', () => {
    const a = [...generateTicks(base)];
    expect([...generateTicks(base)]).toEqual(a);
    expect([...generateTicks({ ...base, seed: 8 })]).not.toEqual(a);
    expect([...generateTicks({ ...base, seed: 'seven' })]).not.toEqual(a);
  });

  it('is re-iterable and matches its observable twin', () => {
    const ticks = generateTicks(base);
    const first = [...ticks];
    expect([...ticks]).toEqual(first);
    let emitted: Tick[] = [];
    generatedTicks$(base)
      .pipe(toArray())
      .subscribe((v) => (emitted = v));
    expect(emitted).toEqual(first);
  });

  it('keeps integer, non-decreasing times after the start, with bid below ask on the price grid', () => {
    const ticks = [...generateTicks({ seed: 1, instruments: ALL, count: 20_000 })];
    expect(ticks).toHaveLength(20_000);
    let previous = DEFAULT_GENERATOR_START;
    for (const t of ticks) {
      const precision = catalogue.get(t.instrument)?.displayPrecision ?? 5;
      if (!(Number.isSafeInteger(t.time) && t.time >= previous && t.bid < t.ask && t.bid > 0))
        throw new Error(`bad tick ${JSON.stringify(t)}`);
      if (decimals(t.bid) > precision || decimals(t.ask) > precision) throw new Error(`off-grid price ${JSON.stringify(t)}`);
      previous = t.time;
    }
    expect(new Set(ticks.map((t) => t.instrument)).size).toBe(28);
  });

  it('looks like FX: plausible levels, EUR_USD spreads around a pip, mean interval as asked', () => {
    const ticks = [...generateTicks({ seed: 3, instruments: ['EUR_USD'], count: 20_000, meanIntervalMicros: 500_000 })];
    const spreads = ticks.map((t) => Math.round((t.ask - t.bid) * 1e5)).sort((a, b) => a - b);
    const median = spreads[spreads.length >> 1] ?? 0;
    expect(median).toBeGreaterThanOrEqual(8);
    expect(median).toBeLessThanOrEqual(15);
    expect(spreads[spreads.length - 1]).toBeGreaterThan(20); // the odd widening burst
    for (const t of ticks) expect(t.bid > 1.0 && t.bid < 1.2).toBe(true);
    const span = (ticks[ticks.length - 1]?.time ?? 0) - DEFAULT_GENERATOR_START;
    expect(span / ticks.length).toBeGreaterThan(450_000);
    expect(span / ticks.length).toBeLessThan(550_000);
    const jpy = [...generateTicks({ seed: 3, instruments: ['USD_JPY'], count: 10 })];
    for (const t of jpy) expect(t.bid > 140 && t.bid < 160 && decimals(t.bid) <= 3).toBe(true);
  });

  it('stops at end, starts at 1.0 for unknown instruments and checks its options', () => {
    const start = 1_700_000_000_000_000;
    const ticks = [...generateTicks({ seed: 1, start, end: start + 60_000_000 })];
    expect(ticks.length).toBeGreaterThan(150);
    expect(ticks.every((t) => t.time <= start + 60_000_000 && t.time >= start)).toBe(true);
    expect([...generateTicks({ seed: 1, start, end: start + 60_000_000, count: 3 })]).toHaveLength(3);
    const odd = [...generateTicks({ seed: 1, instruments: ['ABC_XYZ'], count: 5 })];
    expect(odd.every((t) => t.bid > 0.99 && t.bid < 1.01)).toBe(true);
    expect(() => generateTicks({ seed: 1 })).toThrow(/give count or end/);
    expect(() => generateTicks({ seed: 1, count: 1, instruments: [] })).toThrow(/must not be empty/);
    expect(() => generateTicks({ seed: 1, count: 1, instruments: ['eurusd'] })).toThrow(/BASE_QUOTE/);
    expect(() => generateTicks({ seed: 1, count: -1 })).toThrow(/count/);
    expect(() => generateTicks({ seed: 1, count: 1, meanIntervalMicros: 0 })).toThrow(/meanIntervalMicros/);
    expect(() => generateTicks({ seed: 0.5, count: 1 })).toThrow(/seed/);
  });
});

describe('generateHistory', () => {
  const DAY = 86_400_000_000;
  const start = DEFAULT_GENERATOR_START;

  it('gives the days before the start in time order, in trading hours, ending near where generateTicks begins', () => {
    for (const instrument of ['EUR_USD', 'USD_JPY', 'GBP_NZD']) {
      const past = generateHistory({ seed: 7, instrument, start, days: 7, catalogue });
      const calendar = new MarketCalendar(catalogue.get(instrument)?.marketHours);
      // About one quote every 20 s of the five trading days in a week.
      expect(past.length).toBeGreaterThan(18_000);
      expect(past.length).toBeLessThan(26_000);
      let last = start - 7 * DAY - 1;
      for (const t of past) {
        expect(t.instrument).toBe(instrument);
        expect(t.time).toBeGreaterThan(last);
        // At most 30 s apart within a session, so no minute of it lacks its M1 candle.
        if (t !== past[0] && t.time - last > 30_000_000) expect(calendar.changeAfter(last)).toBeLessThan(t.time);
        expect(calendar.openAt(t.time)).toBe(true);
        expect(t.bid).toBeLessThan(t.ask);
        last = t.time;
      }
      expect(last).toBeLessThan(start);
      const mid = pairProfile(instrument).mid;
      const end = past.at(-1) as Tick;
      expect(Math.abs((end.bid + end.ask) / 2 / mid - 1)).toBeLessThan(0.002);
    }
  });

  it('is the same for the same seed, another for another, and leaves generateTicks as it was', () => {
    const opts = { seed: 7, instrument: 'EUR_USD', start, days: 2, catalogue };
    expect(generateHistory(opts)).toEqual(generateHistory(opts));
    expect(generateHistory({ ...opts, seed: 8 })).not.toEqual(generateHistory(opts));
    const before = [...generateTicks(base)];
    generateHistory(opts);
    expect([...generateTicks(base)]).toEqual(before);
    expect(generateHistory({ ...opts, days: 0 })).toEqual([]);
    expect(() => generateHistory({ ...opts, days: -1 })).toThrow(/days must be a non-negative number/);
  });
});

describe('writeSampleCsv', () => {
  it('writes csv that reads back to the very same ticks, plain or gzipped, byte for byte repeatable', () => {
    const opts: GeneratorOptions = { seed: 'sample', instruments: ['EUR_USD', 'USD_JPY'], count: 3000 };
    const expected = [...generateTicks(opts)];
    for (const name of ['sample.csv', 'sample.csv.gz']) {
      const file = join(dir, name);
      expect(writeSampleCsv(file, opts)).toBe(3000);
      const bytes = readFileSync(file);
      expect([...readTicks(file)]).toEqual(expected);
      writeSampleCsv(file, opts);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    }
    const text = readFileSync(join(dir, 'sample.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('time,instrument,bid,ask');
    expect(text.split('\n')[1]).toMatch(/^2024-01-02T00:00:\d\d\.\d{9}Z,(EUR_USD,1\.\d{5},1\.\d{5}|USD_JPY,1\d\d\.\d{3},1\d\d\.\d{3})$/);
  });
});
