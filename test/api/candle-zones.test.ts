import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, type JsonBody } from '../support/api/harness.js';

/**
 * alignmentTimezone takes any IANA zone (v20 takes a tz database name): daily candles start at the
 * dailyAlignment hour local to the zone and follow its summer time; a zone whose offset is not a
 * whole number of hours folds its candles from 15-minute ones.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

const START = Date.parse('2024-03-28T00:00:00Z') * 1000;
const QUARTER = 15 * 60 * 1_000_000;

/** A quote every 15 minutes for five days from START (across London's change on 31 March). */
async function fiveDays(): Promise<Harness> {
  const api = await harness();
  for (let i = 0; i < 5 * 96; i += 1) {
    const mid = 1.08 + (i % 40) / 10_000;
    api.engine.pushTick({ instrument: 'EUR_USD', time: START + i * QUARTER + 1, bid: mid, ask: mid + 0.0002 });
  }
  return api;
}

async function dailyStarts(zone: string, hour: number): Promise<string[]> {
  const url = `/v3/instruments/EUR_USD/candles?granularity=D&dailyAlignment=${hour}&alignmentTimezone=${encodeURIComponent(zone)}&from=2024-03-28T00:00:00Z&to=2024-04-02T00:00:00Z`;
  const res = await (h as Harness).request('GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json()['candles'] as JsonBody[]).map((c) => c['time'] as string);
}

describe('candles aligned in any IANA zone', () => {
  it('Europe/London: midnight is 00:00 UTC in winter and 23:00 UTC once summer time starts', async () => {
    h = await fiveDays();
    expect(await dailyStarts('Europe/London', 0)).toEqual([
      '2024-03-28T00:00:00.000000000Z',
      '2024-03-29T00:00:00.000000000Z',
      '2024-03-30T00:00:00.000000000Z',
      '2024-03-31T00:00:00.000000000Z', // a 23-hour day: clocks go forward at 01:00 UTC
      '2024-03-31T23:00:00.000000000Z',
      '2024-04-01T23:00:00.000000000Z',
    ]);
  });

  it('Asia/Tokyo (no summer time) and Asia/Kolkata (+05:30, folded from M15 candles)', async () => {
    h = await fiveDays();
    expect((await dailyStarts('Asia/Tokyo', 9)).slice(0, 2)).toEqual(['2024-03-28T00:00:00.000000000Z', '2024-03-29T00:00:00.000000000Z']);
    const kolkata = await dailyStarts('Asia/Kolkata', 0);
    expect(kolkata.slice(0, 3)).toEqual([
      '2024-03-27T18:30:00.000000000Z',
      '2024-03-28T18:30:00.000000000Z',
      '2024-03-29T18:30:00.000000000Z',
    ]);
    // The half-hour boundary splits the quotes exactly: the first day holds the 74 quotes before 18:30 UTC
    // (folded from H1 it would take the 18:00-19:00 hour whole: 76).
    const res = await (h as Harness).request(
      'GET',
      '/v3/instruments/EUR_USD/candles?granularity=D&dailyAlignment=0&alignmentTimezone=Asia/Kolkata&from=2024-03-28T00:00:00Z&count=1',
    );
    expect(res.json()['candles'][0]).toMatchObject({ time: '2024-03-27T18:30:00.000000000Z', volume: 74 });
  });

  it('the default New York alignment is unchanged, and an unknown zone is v20 400', async () => {
    h = await fiveDays();
    expect((await dailyStarts('America/New_York', 17)).slice(0, 2)).toEqual([
      '2024-03-27T21:00:00.000000000Z',
      '2024-03-28T21:00:00.000000000Z',
    ]);
    const bad = await h.request('GET', '/v3/instruments/EUR_USD/candles?granularity=D&alignmentTimezone=Mars/Olympus_Mons');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errorMessage: "Invalid value specified for 'alignmentTimezone'" });
  });
});
