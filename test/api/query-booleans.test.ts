import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, HARNESS_TOKEN as TOKEN, harness, type Harness, type JsonBody } from '../support/api/harness.js';

/**
 * Boolean query parameters in any capitalisation, as OANDA's Python bindings send them (Python's
 * `True`/`False`): each spelling means the same as the lowercase one; anything else is v20's 400.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

async function get(url: string): Promise<{ status: number; body: JsonBody }> {
  const res = await (h as Harness).request('GET', url);
  return { status: res.statusCode, body: res.json() };
}

const CANDLES = '/v3/instruments/EUR_USD/candles?granularity=S5&count=3';
const PRICING = `/v3/accounts/${ACCOUNT}/pricing?instruments=EUR_USD`;

describe('boolean query parameters', () => {
  it('candles: smooth and includeFirst read True/FALSE/tRuE as true/false', async () => {
    h = await harness();
    const t0 = h.engine.now;
    for (let i = 1; i <= 6; i += 1)
      h.engine.pushTick({ instrument: 'EUR_USD', time: t0 + i * 4_000_000, bid: 1.1 + i / 10_000, ask: 1.1002 + i / 10_000 });
    const from = `&from=${encodeURIComponent(new Date((t0 + 4_000_000) / 1000).toISOString())}`;
    for (const [spelling, lower] of [
      ['True', 'true'],
      ['FALSE', 'false'],
      ['tRuE', 'true'],
    ] as const) {
      expect(await get(`${CANDLES}&smooth=${spelling}`)).toEqual(await get(`${CANDLES}&smooth=${lower}`));
      const a = await get(`/v3/instruments/EUR_USD/candles?granularity=S5${from}&includeFirst=${spelling}`);
      expect(a.status).toBe(200);
      expect(a).toEqual(await get(`/v3/instruments/EUR_USD/candles?granularity=S5${from}&includeFirst=${lower}`));
    }
    // The two spellings of false and true differ where they should.
    const withFirst = await get(`/v3/instruments/EUR_USD/candles?granularity=S5${from}&includeFirst=True`);
    const withoutFirst = await get(`/v3/instruments/EUR_USD/candles?granularity=S5${from}&includeFirst=False`);
    expect((withFirst.body['candles'] as JsonBody[]).length).toBe((withoutFirst.body['candles'] as JsonBody[]).length + 1);
  });

  it('pricing: includeHomeConversions=True adds them, False and FALSE leave them out', async () => {
    h = await harness();
    const on = await get(`${PRICING}&includeHomeConversions=True`);
    expect(on.status).toBe(200);
    expect(on.body).toEqual(await get(`${PRICING}&includeHomeConversions=true`).then((r) => r.body));
    expect(on.body['homeConversions']).toBeDefined();
    for (const off of ['False', 'FALSE', 'false']) {
      const res = await get(`${PRICING}&includeHomeConversions=${off}`);
      expect(res.body['homeConversions']).toBeUndefined();
    }
    expect((await get(`${PRICING}&includeUnitsAvailable=False`)).status).toBe(200);
  });

  it('refuses anything but true or false, in any case, with v20 400 and the parameter named', async () => {
    h = await harness();
    for (const bad of ['yes', '1', 'truee', '']) {
      const res = await get(`${CANDLES}&smooth=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body['errorMessage']).toContain('smooth');
    }
    expect((await get(`${PRICING}&includeHomeConversions=on`)).status).toBe(400);
  });

  it('pricing stream: snapshot=False sends no snapshot, snapshot=True does', async () => {
    h = await harness({ heartbeatMs: 20 });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (h.app.server.address() as AddressInfo).port;
    const firstLine = (snapshot: string): Promise<JsonBody> =>
      new Promise((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD&snapshot=${snapshot}`,
            headers: { Authorization: `Bearer ${TOKEN}` },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
              const newline = text.indexOf('\n');
              if (newline >= 0) {
                resolve(JSON.parse(text.slice(0, newline)) as JsonBody);
                req.destroy();
              }
            });
          },
        );
        req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
      });
    expect((await firstLine('False'))['type']).toBe('HEARTBEAT');
    expect(await firstLine('TRUE')).toMatchObject({ type: 'PRICE', instrument: 'EUR_USD' });
  });
});
