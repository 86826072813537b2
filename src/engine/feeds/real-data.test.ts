import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { detectFormat } from './detect.js';
import { mergeByTime } from './merge.js';
import { readTicks } from './read-ticks.js';

/** The repository root: the nearest folder up from here whose package.json is v20sim's. */
function repoRoot(): string {
  for (let at = dirname(fileURLToPath(import.meta.url)); ; at = dirname(at)) {
    const manifest = join(at, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'v20sim') return at;
    if (dirname(at) === at) throw new Error('v20sim package.json not found above the test file');
  }
}

const DATA = resolve(repoRoot(), '../shared/data/ticks');
const available = existsSync(DATA);
if (!available) console.warn(`real tick data not found at ${DATA}: skipping the real-data feed tests`);

const us = (iso: string): number => Date.parse(iso) * 1000;

const LEAN_ROWS: Readonly<Record<string, number>> = {
  '20140501': 24_179,
  '20140502': 49_341,
  '20140504': 1_164,
  '20140505': 25_177,
  '20140506': 44_864,
  '20140507': 41_367,
  '20140508': 87_833,
  '20140509': 47_634,
  '20140511': 2_643,
  '20140512': 30_642,
  '20140513': 61_784,
  '20140514': 46_110,
  '20140515': 70_165,
};

describe.skipIf(!available)(`real data in ${DATA}`, () => {
  const leanDir = join(DATA, 'lean-oanda-eurusd');
  const leanFiles = available
    ? readdirSync(leanDir)
        .filter((f) => f.endsWith('_quote.zip'))
        .sort()
        .map((f) => join(leanDir, f))
    : [];

  it('reads all 13 LEAN OANDA EUR/USD zips: 532,903 ticks, per-file counts, times monotone within the day', () => {
    expect(leanFiles).toHaveLength(13);
    let total = 0;
    for (const file of leanFiles) {
      expect(detectFormat(file)).toBe('lean');
      const day = us(`${file.slice(-18, -14)}-${file.slice(-14, -12)}-${file.slice(-12, -10)}T00:00:00Z`);
      let count = 0;
      let previous = day;
      let ordered = true;
      for (const tick of readTicks(file)) {
        if (tick.time < previous || tick.time >= day + 86_400_000_000 || tick.instrument !== 'EUR_USD' || !(tick.bid < tick.ask))
          ordered = false;
        previous = tick.time;
        count += 1;
      }
      expect(ordered, file).toBe(true);
      expect(count, file).toBe(LEAN_ROWS[file.slice(-18, -10)]);
      total += count;
    }
    expect(total).toBe(532_903);
  });

  it('reads the first LEAN tick of 2014-05-01 exactly, and merges the days in order', () => {
    const [first] = readTicks(join(leanDir, '20140501_quote.zip'));
    expect(first).toEqual({ instrument: 'EUR_USD', time: us('2014-05-01T00:00:00.292Z'), bid: 1.38676, ask: 1.38686 });
    // Friday close and Sunday open, across the weekend gap.
    const friday = [...readTicks(join(leanDir, '20140502_quote.zip'))].at(-1) as Tick;
    const [sunday] = readTicks(join(leanDir, '20140504_quote.zip'));
    expect([friday.bid, friday.ask, sunday?.bid, sunday?.ask]).toEqual([1.38685, 1.38782, 1.38817, 1.38884]);
    let count = 0;
    let previous = 0;
    for (const tick of mergeByTime(leanFiles.map((f) => readTicks(f)))) {
      if (tick.time < previous) throw new Error(`merge went back in time at ${tick.time}`);
      previous = tick.time;
      count += 1;
    }
    expect(count).toBe(532_903);
  });

  it('reads the TrueFX USD/JPY file: 1000 rows, the locked quote on row 943 kept', () => {
    const file = join(DATA, 'nautilus', 'usdjpy-ticks.csv');
    expect(detectFormat(file)).toBe('truefx');
    const ticks = [...readTicks(file)];
    expect(ticks).toHaveLength(1000);
    expect(ticks[0]).toEqual({ instrument: 'USD_JPY', time: us('2013-01-01T22:00:00.295Z'), bid: 86.655, ask: 86.728 });
    expect(ticks[941]).toEqual({ instrument: 'USD_JPY', time: us('2013-01-01T22:34:34.652Z'), bid: 86.836, ask: 86.836 });
    expect(ticks.at(-1)?.time).toBe(us('2013-01-01T22:35:13.494Z'));
  });

  it('reads the HistData EUR/USD file: 9500 rows from 2020-01-01T22:00:00.065Z (EST + 5 h)', () => {
    const file = join(DATA, 'nautilus', 'quote_tick_data.csv');
    expect(detectFormat(file)).toBe('histdata');
    const ticks = [...readTicks(file, { instrument: 'EUR_USD' })];
    expect(ticks).toHaveLength(9500);
    expect(ticks[0]).toEqual({ instrument: 'EUR_USD', time: us('2020-01-01T22:00:00.065Z'), bid: 1.1212, ask: 1.12172 });
    expect(ticks.at(-1)?.time).toBe(us('2020-01-02T04:00:52.125Z'));
    expect(ticks.every((t, i) => i === 0 || t.time >= (ticks[i - 1] as Tick).time)).toBe(true);
  });
});
