import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs, type RetryPolicy } from './v20-http.js';

const POLICY: RetryPolicy = { retries: 6, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe('the retry rule', () => {
  it('doubles the wait from the base up to the cap, with no jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(POLICY, n))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('reads Retry-After as seconds or an HTTP-date, capped; anything else falls back to the backoff', () => {
    const now = Date.UTC(2024, 0, 2, 12, 0, 0);
    expect(retryAfterMs('3', POLICY, now)).toBe(3000);
    expect(retryAfterMs('0', POLICY, now)).toBe(0);
    expect(retryAfterMs('3600', POLICY, now)).toBe(30_000);
    expect(retryAfterMs('Tue, 02 Jan 2024 12:00:05 GMT', POLICY, now)).toBe(5000);
    expect(retryAfterMs('Tue, 02 Jan 2024 11:00:00 GMT', POLICY, now)).toBe(0);
    expect(retryAfterMs(null, POLICY, now)).toBeUndefined();
    expect(retryAfterMs('soon', POLICY, now)).toBeUndefined();
  });
});
