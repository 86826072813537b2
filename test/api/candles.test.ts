import { afterEach, describe, expect, it } from 'vitest';
import { alignedBucket, DEFAULT_ALIGNMENT } from '../../src/v3/candles/granularity.js';
import { CandleSeries } from '../../src/v3/candles/series.js';
import { ACCOUNT, harness, type Harness, type JsonBody } from '../support/api/harness.js';

const CANDLES = '/v3/instruments/EUR_USD/candles';
const S = 1_000_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

function utc(text: string): number {
  return Date.parse(text) * 1000;
}

function rfc(text: string): string {
  return text.replace(/(\.\d+)?Z$/, '.000000000Z');
}

function tick(time: number, bid: number, ask: number, instrument = 'EUR_USD'): void {
  (h as Harness).engine.pushTick({ instrument, time, bid, ask });
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: JsonBody }> {
  const res = await (h as Harness).request('GET', url, undefined, headers);
  return { status: res.statusCode, body: res.json() };
}

async function candles(query: string, path = CANDLES): Promise<JsonBody[]> {
  const res = await get(`${path}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body['candles'] as JsonBody[];
}

function times(list: JsonBody[]): string[] {
  return list.map((c) => c['time'] as string);
}

/** Five quotes from 13:00:00.5 to 13:00:05 on 2024-01-02 (the harness quoted at 12:00:01 and :02). */
const T = utc('2024-01-02T13:00:00Z');
function fiveQuotes(): void {
  tick(T + S / 2, 1.1, 1.1002);
  tick(T + S, 1.1001, 1.1003);
  tick(T + 3 * S, 1.0999, 1.1001);
  tick(T + 4.9 * S, 1.10005, 1.10025);
  tick(T + 5 * S, 1.1002, 1.1004);
}

describe('candles from ticks', () => {
  it('aggregates S5 candles exactly: open, high, low, close, volume, complete', async () => {
    h = await harness();
    fiveQuotes();
    const res = await get(`${CANDLES}?granularity=S5&price=MBA&count=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      instrument: 'EUR_USD',
      granularity: 'S5',
      candles: [
        {
          complete: true,
          volume: 4,
          time: '2024-01-02T13:00:00.000000000Z',
          bid: { o: '1.10000', h: '1.10010', l: '1.09990', c: '1.10005' },
          mid: { o: '1.10010', h: '1.10020', l: '1.10000', c: '1.10015' },
          ask: { o: '1.10020', h: '1.10030', l: '1.10010', c: '1.10025' },
        },
        {
          complete: false,
          volume: 1,
          time: '2024-01-02T13:00:05.000000000Z',
          bid: { o: '1.10020', h: '1.10020', l: '1.10020', c: '1.10020' },
          mid: { o: '1.10030', h: '1.10030', l: '1.10030', c: '1.10030' },
          ask: { o: '1.10040', h: '1.10040', l: '1.10040', c: '1.10040' },
        },
      ],
    });
    // Default: mid only, S5, the last 500; the harness's own quotes are S5 candles too.
    const defaults = await get(CANDLES);
    expect(defaults.body['granularity']).toBe('S5');
    expect(defaults.body['candles']).toHaveLength(3);
    expect(Object.keys(defaults.body['candles'][0]).sort()).toEqual(['complete', 'mid', 'time', 'volume']);
    // The M1 candle holds all five quotes; the account path answers the same.
    const m1 = await candles('granularity=M1&price=B', `/v3/accounts/${ACCOUNT}/instruments/EUR_USD/candles`);
    expect(m1.at(-1)).toEqual({
      complete: false,
      volume: 5,
      time: '2024-01-02T13:00:00.000000000Z',
      bid: { o: '1.10000', h: '1.10020', l: '1.09990', c: '1.10020' },
    });
  });

  it('rounds a half-pip mid half up and smooths opens to the previous close', async () => {
    h = await harness();
    tick(T, 1.1, 1.10003); // mid 1.100015
    tick(T + 5 * S, 1.1001, 1.1003);
    const [first, second] = await candles(`granularity=S5&from=${T / S}`);
    expect(first?.['mid']).toEqual({ o: '1.10002', h: '1.10002', l: '1.10002', c: '1.10002' });
    expect(second?.['mid']).toEqual({ o: '1.10020', h: '1.10020', l: '1.10020', c: '1.10020' });
    const smoothed = await candles(`granularity=S5&from=${T / S}&smooth=true&price=B`);
    expect(smoothed[1]?.['bid']).toEqual({ o: '1.10000', h: '1.10010', l: '1.10000', c: '1.10010' });
  });

  it('picks candles by from, to, count and includeFirst', async () => {
    h = await harness();
    fiveQuotes();
    tick(T + 12 * S, 1.1, 1.1002); // S5 candle at :10
    const all = ['2024-01-02T13:00:00.000000000Z', '2024-01-02T13:00:05.000000000Z', '2024-01-02T13:00:10.000000000Z'];
    const from = '2024-01-02T13:00:02Z';
    expect(times(await candles(`from=${from}`))).toEqual(all);
    expect(times(await candles(`from=${from}&count=2`))).toEqual(all.slice(0, 2));
    expect(times(await candles(`from=2024-01-02T13:00:00Z&includeFirst=false`))).toEqual(all.slice(1));
    expect(times(await candles(`from=${from}&includeFirst=false`))).toEqual(all.slice(1));
    expect(times(await candles('to=2024-01-02T13:00:10Z'))).toEqual(['2024-01-02T12:00:00.000000000Z', ...all.slice(0, 2)]);
    expect(times(await candles('to=2024-01-02T13:00:10Z&count=1'))).toEqual([all[1]]);
    expect(times(await candles(`from=${from}&to=2024-01-02T13:00:06Z`))).toEqual(all.slice(0, 2));
    expect(times(await candles('count=1'))).toEqual([all[2]]);
    expect(await candles('from=2030-01-01T00:00:00Z')).toEqual([]);
    expect(await candles('granularity=S5', '/v3/instruments/USD_CAD/candles')).toEqual([]);
  });

  it('refuses v20 violations with v20 wording', async () => {
    h = await harness();
    const invalid = (field: string): { status: number; body: JsonBody } => ({
      status: 400,
      body: { errorMessage: `Invalid value specified for '${field}'` },
    });
    const exceeded = { status: 400, body: { errorMessage: "Maximum value for 'count' exceeded" } };
    expect(await get(`${CANDLES}?count=5001`)).toEqual(exceeded);
    expect((await get(`${CANDLES}?count=5000`)).status).toBe(200);
    // 5000 S5 candles is 25000 s; one more second is too many.
    expect((await get(`${CANDLES}?from=2024-01-01T00:00:00Z&to=2024-01-01T06:56:40Z`)).status).toBe(200);
    expect(await get(`${CANDLES}?from=2024-01-01T00:00:00Z&to=2024-01-01T06:56:41Z`)).toEqual(exceeded);
    expect(await get(`${CANDLES}?granularity=D&from=2000-01-01T00:00:00Z&to=2024-01-01T00:00:00Z`)).toEqual(exceeded);
    expect(await get(`${CANDLES}?from=2024-01-01T00:00:00Z&to=2024-01-01T00:01:00Z&count=3`)).toEqual(invalid('count'));
    expect(await get(`${CANDLES}?count=0`)).toEqual(invalid('count'));
    expect(await get(`${CANDLES}?granularity=M3`)).toEqual(invalid('granularity'));
    expect(await get(`${CANDLES}?price=MM`)).toEqual(invalid('price'));
    expect(await get(`${CANDLES}?price=X`)).toEqual(invalid('price'));
    expect(await get(`${CANDLES}?from=later`)).toEqual(invalid('from'));
    expect(await get(`${CANDLES}?from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z`)).toEqual(invalid('to'));
    expect(await get(`${CANDLES}?dailyAlignment=24`)).toEqual(invalid('dailyAlignment'));
    expect(await get(`${CANDLES}?alignmentTimezone=Mars/Olympus_Mons`)).toEqual(invalid('alignmentTimezone'));
    expect(await get(`${CANDLES}?weeklyAlignment=Funday`)).toEqual(invalid('weeklyAlignment'));
    expect(await get('/v3/instruments/EUR_XXX/candles')).toEqual(invalid('instrument'));
    expect(await get('/v3/instruments/eurusd/candles')).toEqual(invalid('instrument'));
    // Outside /accounts the token is still required.
    const res = await (h as Harness).app.inject({ method: 'GET', url: CANDLES });
    expect(res.statusCode).toBe(401);
  });
});

describe('aligned candles (H2 to M)', () => {
  it('starts daily candles at 17:00 New York: 22:00 UTC in winter (EST), 21:00 UTC in summer (EDT)', async () => {
    h = await harness();
    tick(utc('2024-01-03T21:59:59Z'), 1.1, 1.1002);
    tick(utc('2024-01-03T22:00:00Z'), 1.101, 1.1012);
    tick(utc('2024-01-04T21:30:00Z'), 1.099, 1.0992);
    tick(utc('2024-07-10T20:59:59Z'), 1.2, 1.2002);
    tick(utc('2024-07-10T21:00:00Z'), 1.21, 1.2102);
    const days = await candles('granularity=D&price=B');
    expect(days).toEqual([
      // The harness's quote (12:00:01 on 2 January: 07:00 New York, a trading day from 17:00 on the 1st).
      { complete: true, volume: 1, time: rfc('2024-01-01T22:00:00Z'), bid: { o: '1.10000', h: '1.10000', l: '1.10000', c: '1.10000' } },
      { complete: true, volume: 1, time: rfc('2024-01-02T22:00:00Z'), bid: { o: '1.10000', h: '1.10000', l: '1.10000', c: '1.10000' } },
      { complete: true, volume: 2, time: rfc('2024-01-03T22:00:00Z'), bid: { o: '1.10100', h: '1.10100', l: '1.09900', c: '1.09900' } },
      { complete: true, volume: 1, time: rfc('2024-07-09T21:00:00Z'), bid: { o: '1.20000', h: '1.20000', l: '1.20000', c: '1.20000' } },
      { complete: false, volume: 1, time: rfc('2024-07-10T21:00:00Z'), bid: { o: '1.21000', h: '1.21000', l: '1.21000', c: '1.21000' } },
    ]);
    // Midnight UTC days instead.
    expect(times(await candles('granularity=D&dailyAlignment=0&alignmentTimezone=UTC'))).toEqual(
      ['2024-01-02', '2024-01-03', '2024-01-04', '2024-07-10'].map((d) => rfc(`${d}T00:00:00Z`)),
    );
    // Midnight New York.
    expect(times(await candles('granularity=D&dailyAlignment=0'))).toEqual([
      rfc('2024-01-02T05:00:00Z'),
      rfc('2024-01-03T05:00:00Z'),
      rfc('2024-01-04T05:00:00Z'),
      rfc('2024-07-10T04:00:00Z'),
    ]);
  });

  it('spans 23 hours on the day summer time starts, and aligns H4, W and M', async () => {
    h = await harness();
    tick(utc('2024-01-03T13:30:00Z'), 1.1, 1.1002);
    tick(utc('2024-03-10T20:30:00Z'), 1.09, 1.0902);
    tick(utc('2024-03-10T21:00:00Z'), 1.08, 1.0802);
    const days = await candles('granularity=D&from=2024-03-01T00:00:00Z');
    expect(days.map((c) => [c['time'], c['volume'], c['complete']])).toEqual([
      [rfc('2024-03-09T22:00:00Z'), 1, true],
      [rfc('2024-03-10T21:00:00Z'), 1, false],
    ]);
    // H4 in winter: 17:00, 21:00, 01:00 ... New York = 22, 02, 06, 10, 14, 18 UTC.
    expect(times(await candles('granularity=H4&to=2024-01-04T00:00:00Z'))).toEqual([
      rfc('2024-01-02T10:00:00Z'),
      rfc('2024-01-03T10:00:00Z'),
    ]);
    // Weeks start Friday 17:00 New York; months with the trading day of the 1st (17:00 on the 31st).
    expect(times(await candles('granularity=W'))).toEqual([rfc('2023-12-29T22:00:00Z'), rfc('2024-03-08T22:00:00Z')]);
    expect(times(await candles('granularity=W&weeklyAlignment=Monday&dailyAlignment=0&alignmentTimezone=UTC'))).toEqual([
      rfc('2024-01-01T00:00:00Z'),
      rfc('2024-03-04T00:00:00Z'),
    ]);
    const months = await candles('granularity=M&price=A');
    expect(months).toEqual([
      { complete: true, volume: 2, time: rfc('2023-12-31T22:00:00Z'), ask: { o: '1.10020', h: '1.10020', l: '1.10020', c: '1.10020' } },
      { complete: false, volume: 2, time: rfc('2024-02-29T22:00:00Z'), ask: { o: '1.09020', h: '1.09020', l: '1.08020', c: '1.08020' } },
    ]);
  });

  it('lays out buckets in local time across both summer-time changes', () => {
    const at = (g: 'D' | 'H2' | 'M', t: string): [string, string] => {
      const b = alignedBucket(g, utc(t), DEFAULT_ALIGNMENT);
      return [new Date(b.start / 1000).toISOString(), new Date(b.end / 1000).toISOString()];
    };
    expect(at('D', '2024-11-03T12:00:00Z')).toEqual(['2024-11-02T21:00:00.000Z', '2024-11-03T22:00:00.000Z']); // 25 h
    // Buckets of H2 from 17:00: 23:00-01:00, 01:00-03:00 local; the repeated 01:00 hour is in one.
    expect(at('H2', '2024-11-03T05:30:00Z')).toEqual(['2024-11-03T05:00:00.000Z', '2024-11-03T08:00:00.000Z']);
    expect(at('H2', '2024-11-03T06:30:00Z')).toEqual(['2024-11-03T05:00:00.000Z', '2024-11-03T08:00:00.000Z']);
    expect(at('M', '2024-12-31T21:59:59Z')).toEqual(['2024-11-30T22:00:00.000Z', '2024-12-31T22:00:00.000Z']);
    expect(at('M', '2024-12-31T22:00:00Z')).toEqual(['2024-12-31T22:00:00.000Z', '2025-01-31T22:00:00.000Z']);
  });
});

describe('candles/latest', () => {
  it('returns the forming candle and the last complete one per specification', async () => {
    h = await harness();
    fiveQuotes();
    const res = await get(`/v3/accounts/${ACCOUNT}/candles/latest?candleSpecifications=EUR_USD:S5:B,EUR_USD:M1:M`);
    expect(res.status).toBe(200);
    const [s5, m1] = res.body['latestCandles'] as JsonBody[];
    expect(s5).toMatchObject({ instrument: 'EUR_USD', granularity: 'S5' });
    expect(times(s5?.['candles'])).toEqual(['2024-01-02T13:00:00.000000000Z', '2024-01-02T13:00:05.000000000Z']);
    expect(m1?.['candles'].map((c: JsonBody) => c['complete'])).toEqual([true, false]);
    expect((await get(`/v3/accounts/${ACCOUNT}/candles/latest?candleSpecifications=EUR_USD:S7:B`)).status).toBe(400);
  });
});

describe('CandleSeries', () => {
  it('grows as needed and keeps at most its limit, dropping the oldest', () => {
    const series = new CandleSeries(5 * S, 150);
    for (let i = 0; i < 200; i += 1) {
      series.add(i * 5 * S, 100 + i, 102 + i);
      series.add(i * 5 * S + 1, 99 + i, 101 + i);
    }
    expect(series.length).toBe(150);
    expect(series.start(0)).toBe(50 * 5 * S);
    expect(series.read(149)).toMatchObject({ start: 199 * 5 * S, volume: 2, bo: 299, bh: 299, bl: 298, bc: 298, mo: 600, mc: 598 });
    expect(() => series.add(0, 1, 1)).toThrow(/older/);
  });
});
