import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Metrics } from '../backtest/index.js';
import { cellJobId, decodeMetrics, encodeMetrics, paramText } from './cell.js';
import { checkQueueUrl, displayUrl } from './connection.js';

describe('queue cells', () => {
  it('brings every metric back as the same number, -0, Infinity and NaN included (JSON alone would not)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.double(), fc.constant(null), fc.string(), fc.integer())), (metrics) => {
        const back = decodeMetrics(encodeMetrics(metrics as unknown as Metrics)) as unknown as Record<string, unknown>;
        expect(Object.keys(back)).toEqual(Object.keys(metrics));
        for (const [key, value] of Object.entries(metrics)) expect(Object.is(back[key], value), key).toBe(true);
      }),
    );
  });

  it('names a cell by sweep and position, without the colon BullMQ refuses in job IDs', () => {
    expect(cellJobId('3a16-dc0d', 12)).toBe('3a16-dc0d-12');
    expect(paramText({ fast: 5, slow: 50 })).toBe('fast=5 slow=50');
    expect(paramText({})).toBe('no parameters');
  });

  it('takes redis:// URLs with a database number, and hides a password in messages', () => {
    expect(checkQueueUrl('redis://10.0.0.5:6379/0')).toBe('redis://10.0.0.5:6379/0');
    expect(checkQueueUrl('rediss://cache.example:6380')).toBe('rediss://cache.example:6380');
    expect(() => checkQueueUrl('http://10.0.0.5:6379/0')).toThrow(/expected a redis:\/\/ URL/);
    expect(() => checkQueueUrl('redis://10.0.0.5:6379/jobs')).toThrow(/must be a database number/);
    expect(() => checkQueueUrl('10.0.0.5:6379')).toThrow();
    expect(displayUrl('redis://user:secret@10.0.0.5:6379/2')).toBe('redis://user:***@10.0.0.5:6379/2');
  });
});
