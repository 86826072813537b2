import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvHeader, formatCandleLine, prepareResume, type CandleLine } from './candle-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-candle-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function candle(instrument: string, minute: number, complete = true): CandleLine {
  const time = `2024-01-02T00:${String(minute).padStart(2, '0')}:00.000000000Z`;
  return {
    instrument,
    granularity: 'M1',
    time,
    at: Date.UTC(2024, 0, 2, 0, minute) * 1000,
    bid: { o: '1.10000', h: '1.10010', l: '1.09990', c: '1.10005' },
    ask: { o: '1.10020', h: '1.10030', l: '1.10010', c: '1.10025' },
    volume: 12,
    complete,
  };
}

describe('candle file lines', () => {
  it('writes NDJSON and CSV with the prices as v20 printed them', () => {
    expect(formatCandleLine(candle('EUR_USD', 1), 'ndjson', false)).toBe(
      '{"instrument":"EUR_USD","granularity":"M1","time":"2024-01-02T00:01:00.000000000Z","bid":{"o":"1.10000","h":"1.10010","l":"1.09990","c":"1.10005"},"ask":{"o":"1.10020","h":"1.10030","l":"1.10010","c":"1.10025"},"volume":12,"complete":true}',
    );
    expect(csvHeader(false)).toBe('instrument,granularity,time,bid_o,bid_h,bid_l,bid_c,ask_o,ask_h,ask_l,ask_c,volume,complete');
    expect(formatCandleLine(candle('EUR_USD', 1), 'csv', false)).toBe(
      'EUR_USD,M1,2024-01-02T00:01:00.000000000Z,1.10000,1.10010,1.09990,1.10005,1.10020,1.10030,1.10010,1.10025,12,true',
    );
  });

  it('resumes after the last complete candle: a cut line and trailing incomplete candles go', () => {
    const file = path.join(dir, 'a.ndjson.partial');
    const whole = [candle('EUR_USD', 1), candle('USD_JPY', 1), candle('EUR_USD', 2)]
      .map((c) => `${formatCandleLine(c, 'ndjson', false)}\n`)
      .join('');
    writeFileSync(file, `${whole}${formatCandleLine(candle('USD_JPY', 2, false), 'ndjson', false)}\n{"instrument":"EU`);
    const point = prepareResume(file, 'ndjson', csvHeader(false), 'M1', ['EUR_USD', 'USD_JPY']);
    expect(point).toEqual({
      instrument: 'EUR_USD',
      at: Date.UTC(2024, 0, 2, 0, 2) * 1000,
      time: '2024-01-02T00:02:00.000000000Z',
      lines: 3,
    });
    expect(readFileSync(file, 'utf8')).toBe(whole);
  });

  it('refuses a file of another download', () => {
    const file = path.join(dir, 'b.csv.partial');
    writeFileSync(file, `${csvHeader(true)}\n`);
    expect(() => prepareResume(file, 'csv', csvHeader(false), 'M1', ['EUR_USD'])).toThrow(/its header is not/);
    const other = path.join(dir, 'c.ndjson.partial');
    writeFileSync(other, `${formatCandleLine(candle('EUR_USD', 1), 'ndjson', false)}\n`);
    expect(() => prepareResume(other, 'ndjson', '', 'S5', ['EUR_USD'])).toThrow(/holds M1 candles, not S5/);
    expect(() => prepareResume(other, 'ndjson', '', 'M1', ['USD_JPY'])).toThrow(/holds EUR_USD, which is not among --instrument/);
  });
});
