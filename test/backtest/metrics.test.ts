import { describe, expect, it } from 'vitest';
import {
  dailyReturns,
  drawdownSeries,
  drawdownStats,
  exposure,
  monthlyReturns,
  sharpeRatio,
  sortinoRatio,
  tradeStats,
  tradingDayEnd,
} from '../../src/backtest/index.js';
import { decimateIndices } from '../../src/backtest/decimate.js';
import { coerceParam, parseParamValues } from '../../src/backtest/params.js';
import fc from 'fast-check';
import { fmtDuration, fmtNumber, parseDuration, utcMonth } from '../../src/backtest/format.js';
import { formatRfc3339 } from '../../src/domain/time.js';

const DAY = 86_400_000_000;
/** Noon UTC of 2 January 2024 and the days after: one point per New York trading day. */
const NOON = Date.UTC(2024, 0, 2, 12) * 1000;
const days = (n: number): number[] => Array.from({ length: n }, (_, i) => NOON + i * DAY);

describe('metrics, against values worked out by hand', () => {
  it('max drawdown, its duration (never recovered) and the longest drawdown', () => {
    // Peak 110 on day 1, trough 99 on day 2: 11 / 110 = 10 %; 108.9 never gets back to 110.
    const dd = drawdownStats(days(5), [100, 110, 99, 108.9, 108.9]);
    expect(dd.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(dd.maxDrawdownAmount).toBeCloseTo(11, 12);
    expect(dd.peakTime).toBe(NOON + DAY);
    expect(dd.troughTime).toBe(NOON + 2 * DAY);
    expect(dd.recoveryTime).toBeNull();
    expect(dd.durationMicros).toBe(3 * DAY); // day 1 to the last point, day 4
    expect(dd.longestMicros).toBe(3 * DAY);
  });

  it('max drawdown with a recovery, and a longer but shallower drawdown later', () => {
    // Episode 1: peak 110 (day 1), trough 99 (day 2, 10 %), back at 111 on day 4: 3 days.
    // Episode 2: peak 111 (day 4), trough 100 (day 5, 9.91 %), not recovered by day 8: 4 days.
    const dd = drawdownStats(days(9), [100, 110, 99, 105, 111, 100, 100, 101, 102]);
    expect(dd.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(dd.recoveryTime).toBe(NOON + 4 * DAY);
    expect(dd.durationMicros).toBe(3 * DAY);
    expect(dd.longestMicros).toBe(4 * DAY);
    expect(drawdownSeries([100, 110, 99, 111])).toEqual([0, 0, -0.1, 0]);
  });

  it('no drawdown on a curve that only rises', () => {
    const dd = drawdownStats(days(3), [100, 100, 101]);
    expect(dd).toMatchObject({ maxDrawdown: 0, maxDrawdownAmount: 0, peakTime: null, durationMicros: 0, longestMicros: 0 });
  });

  it('daily returns, Sharpe and Sortino', () => {
    // Returns: 0 (the first day closes at the starting equity), +10 %, -10 %, +10 %, 0.
    const r = dailyReturns(days(5), [100, 110, 99, 108.9, 108.9], 100).map((d) => d.return);
    expect(r).toHaveLength(5);
    [0, 0.1, -0.1, 0.1, 0].forEach((v, i) => expect(r[i]).toBeCloseTo(v, 12));
    // mean 0.02; sample variance (0.0004 + 0.0064 + 0.0144 + 0.0064 + 0.0004) / 4 = 0.007;
    // Sharpe = 0.02 / √0.007 × √252 = 3.794733...
    expect(sharpeRatio(r)).toBeCloseTo(3.794733, 5);
    // downside deviation √(0.01 / 5) = 0.044721...; Sortino = 0.02 / 0.044721 × √252 = 7.099296...
    expect(sortinoRatio(r)).toBeCloseTo(7.099296, 5);
    expect(sharpeRatio([0.01])).toBeNull();
    expect(sharpeRatio([0.01, 0.01])).toBeNull(); // no deviation
    expect(sortinoRatio([0.01, 0.02])).toBeNull(); // no losing day
  });

  it('groups points into trading days that end at 17:00 New York', () => {
    const fivePm = Date.UTC(2024, 0, 2, 22) * 1000; // 17:00 EST
    expect(tradingDayEnd(fivePm)).toBe(fivePm);
    expect(tradingDayEnd(fivePm + 1)).toBe(fivePm + DAY);
    expect(tradingDayEnd(fivePm - 5 * 3_600_000_000)).toBe(fivePm);
    // Three points on one day and one on the next: two returns, each from the day's last point.
    const r = dailyReturns([fivePm - 2_000_000, fivePm - 1_000_000, fivePm, fivePm + 1], [100, 90, 105, 110.25], 100);
    expect(r.map((d) => d.dayEnd)).toEqual([fivePm, fivePm + DAY]);
    expect(r[0]?.return).toBeCloseTo(0.05, 12);
    expect(r[1]?.return).toBeCloseTo(0.05, 12);
  });

  it('win rate, profit factor, average win and loss', () => {
    const s = tradeStats([10, -5, 20, 0, -15]);
    expect(s).toMatchObject({ closedTrades: 5, winners: 2, losers: 2, grossProfit: 30, grossLoss: -20, largestWin: 20, largestLoss: -15 });
    expect(s.winRate).toBeCloseTo(0.4, 12); // the break-even trade counts as a trade, not a win
    expect(s.profitFactor).toBeCloseTo(1.5, 12);
    expect(s.averageWin).toBeCloseTo(15, 12);
    expect(s.averageLoss).toBeCloseTo(-10, 12);
    expect(s.expectancy).toBeCloseTo(2, 12);
    expect(tradeStats([5, 7]).profitFactor).toBeNull();
    expect(tradeStats([]).winRate).toBeNull();
  });

  it('exposure is the share of time with a trade open (overlaps counted once)', () => {
    expect(
      exposure(
        [
          [0, 10],
          [5, 15],
          [20, 30],
        ],
        0,
        40,
      ),
    ).toBeCloseTo(25 / 40, 12);
    expect(
      exposure(
        [
          [-10, 5],
          [38, 50],
        ],
        0,
        40,
      ),
    ).toBeCloseTo(7 / 40, 12);
    expect(exposure([], 0, 40)).toBe(0);
  });

  it('monthly returns (UTC months)', () => {
    const t = [Date.UTC(2024, 0, 15), Date.UTC(2024, 0, 31), Date.UTC(2024, 1, 10), Date.UTC(2024, 2, 1)].map((ms) => ms * 1000);
    const m = monthlyReturns(t, [100, 110, 99, 108.9], 100);
    expect(m.map((x) => x.month)).toEqual(['2024-01', '2024-02', '2024-03']);
    [0.1, -0.1, 0.1].forEach((v, i) => expect(m[i]?.return).toBeCloseTo(v, 12));
  });
});

describe('helpers', () => {
  it('decimation keeps the extremes and both ends', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => Math.sin(i / 50) * (i === 7_777 ? 10 : 1));
    const idx = decimateIndices(values.length, [values], 400);
    expect(idx.length).toBeLessThanOrEqual(400);
    expect(idx[0]).toBe(0);
    expect(idx.at(-1)).toBe(9_999);
    expect(idx).toContain(7_777);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    expect(decimateIndices(5, [[1, 2, 3, 4, 5]], 400)).toEqual([0, 1, 2, 3, 4]);
  });

  it('formats numbers and durations without the host locale', () => {
    expect(fmtNumber(1234567.891)).toBe('1,234,567.89');
    expect(fmtNumber(-0.001)).toBe('0.00');
    expect(fmtNumber(-1234.5, 0)).toBe('-1,235');
    expect(fmtDuration(93_784)).toBe('1d 2h 3m');
    expect(fmtDuration(42)).toBe('42s');
    expect(parseDuration('5m')).toBe(300_000_000);
    expect(parseDuration('1h')).toBe(3_600_000_000);
    expect(parseDuration('90')).toBe(90_000_000);
    expect(() => parseDuration('5 weeks')).toThrow(/duration/);
  });

  it('finds the UTC month of a time as formatRfc3339 prints it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_258_118_400_000_000 }), (t) => {
        const { month, start, end } = utcMonth(t);
        expect(month).toBe(formatRfc3339(t).slice(0, 7));
        expect(start <= t && t < end).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    expect(utcMonth(Date.UTC(2024, 1, 29, 23, 59) * 1000)).toEqual({
      month: '2024-02',
      start: Date.UTC(2024, 1, 1) * 1000,
      end: Date.UTC(2024, 2, 1) * 1000,
    });
  });

  it('reads parameter values as the default’s type, with lists and ranges', () => {
    expect(coerceParam('n', '12.5', 1)).toBe(12.5);
    expect(coerceParam('b', 'false', true)).toBe(false);
    expect(coerceParam('s', ' EUR_USD', 'x')).toBe(' EUR_USD');
    expect(() => coerceParam('n', '12abc', 1)).toThrow(/expected a number/);
    expect(() => coerceParam('n', '1e400', 1)).toThrow('parameter n: expected a finite number, got "1e400"');
    expect(() => parseParamValues('fast', '1:1e400', 1)).toThrow('parameter fast: expected a finite number, got "1e400"');
    expect(parseParamValues('fast', '5,10,20', 1)).toEqual([5, 10, 20]);
    expect(parseParamValues('fast', '5:20:5', 1)).toEqual([5, 10, 15, 20]);
    expect(parseParamValues('x', '0.1:0.3:0.1', 1)).toEqual([0.1, 0.2, 0.3]);
    expect(parseParamValues('pair', 'EUR_USD,USD_JPY', 'x')).toEqual(['EUR_USD', 'USD_JPY']);
    expect(() => parseParamValues('fast', '5:1', 1)).toThrow(/ends before it starts/);
  });
});
