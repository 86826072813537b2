import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { activeStreamClients } from '../../src/api/stream/registry.js';
import { formatRfc3339, formatUnix } from '../../src/domain/time.js';
import { serializeTransaction } from '../../src/journal/journal.js';
import { ACCOUNT, SECOND_ACCOUNT as OTHER, HARNESS_TOKEN as TOKEN, harness, type Harness, type JsonBody } from '../support/api/harness.js';

const WAIT_MS = 5000;

let h: Harness | undefined;
const opened: Stream[] = [];

afterEach(async () => {
  for (const s of opened.splice(0)) s.close();
  await h?.app.close();
  h = undefined;
});

interface Stream {
  readonly res: http.IncomingMessage;
  /** Raw lines received so far. */
  readonly lines: string[];
  /** Resolves once `count` lines have arrived. */
  waitForLines(count: number): Promise<string[]>;
  /** Resolves with the first parsed line (from `from` on) that passes the test. */
  waitFor(test: (line: JsonBody) => boolean, from?: number): Promise<JsonBody>;
  /** Resolves when the response ends or its connection closes. */
  readonly ended: Promise<void>;
  close(): void;
}

async function listen(options: Parameters<typeof harness>[0] = {}): Promise<number> {
  h = await harness({ heartbeatMs: 50, ...options });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  return (h.app.server.address() as AddressInfo).port;
}

/** Polls `check` until it returns a value (or WAIT_MS passes); leaves no timer behind. */
function until<T>(what: string, check: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      let value: T | undefined;
      try {
        value = check();
      } catch (err) {
        clearInterval(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (value !== undefined) {
        clearInterval(timer);
        resolve(value);
      } else if (Date.now() - started > WAIT_MS) {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 2);
  });
}

function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
      const lines: string[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i = buffer.indexOf('\n');
        while (i >= 0) {
          lines.push(buffer.slice(0, i));
          buffer = buffer.slice(i + 1);
          i = buffer.indexOf('\n');
        }
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
        res.on('error', () => done());
      });
      const stream: Stream = {
        res,
        lines,
        ended,
        waitForLines: (count) => until(`${count} lines`, () => (lines.length >= count ? lines.slice(0, count) : undefined)),
        waitFor: (test, from = 0) =>
          until('a matching line', () => {
            for (let i = from; i < lines.length; i += 1) {
              const parsed = JSON.parse(lines[i] as string) as JsonBody;
              if (test(parsed)) return parsed;
            }
            return undefined;
          }),
        close: () => req.destroy(),
      };
      opened.push(stream);
      resolve(stream);
    });
    req.on('error', (err) => reject(err));
  });
}

function waitForClients(n: number): Promise<number> {
  const engine = (h as Harness).engine;
  return until(`${n} stream clients`, () => (activeStreamClients(engine) === n ? n : undefined));
}

const TX_STREAM = `/v3/accounts/${ACCOUNT}/transactions/stream`;
const LIMIT = { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' } };

describe('transaction stream', () => {
  it('streams every new transaction of the account in order, as the journal writes it, with heartbeats', async () => {
    const port = await listen();
    // From a page (Origin sent): the stream carries CORS headers as every /v3 response does.
    const stream = await openStream(port, TX_STREAM, { origin: 'http://page.example' });
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toBe('application/octet-stream');
    expect(stream.res.headers['requestid']).toMatch(/^\d+$/);
    expect(stream.res.headers['access-control-allow-origin']).toBe('*');
    const engine = (h as Harness).engine;
    await (h as Harness).request('POST', `/v3/accounts/${ACCOUNT}/orders`, LIMIT); // 3
    engine.execute(OTHER, { type: 'CONFIGURE', alias: 'not on this stream' });
    await (h as Harness).request('PUT', `/v3/accounts/${ACCOUNT}/orders/3/cancel`); // 4
    engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } }); // 5, 6
    const log = engine.account(ACCOUNT)?.log ?? [];
    const expected = log.slice(2).map(serializeTransaction);
    const txLines = await until('four transactions', () => {
      const seen = stream.lines.filter((l) => !l.includes('"HEARTBEAT"'));
      return seen.length >= 4 ? seen : undefined;
    });
    expect(txLines).toEqual(expected);
    expect(expected.map((l) => (JSON.parse(l) as JsonBody)['type'])).toEqual(['LIMIT_ORDER', 'ORDER_CANCEL', 'MARKET_ORDER', 'ORDER_FILL']);
    const heartbeat = await stream.waitFor((l) => l['type'] === 'HEARTBEAT' && l['lastTransactionID'] === '6');
    expect(heartbeat).toEqual({ type: 'HEARTBEAT', lastTransactionID: '6', time: formatRfc3339(engine.now) });
    expect(activeStreamClients(engine)).toBe(1);
    stream.close();
    await waitForClients(0);
  });

  it('writes UNIX DateTimes on every line when the client asks for them', async () => {
    const port = await listen();
    const stream = await openStream(port, TX_STREAM, { 'Accept-Datetime-Format': 'UNIX' });
    const engine = (h as Harness).engine;
    const rfc = await openStream(port, TX_STREAM);
    engine.execute(ACCOUNT, { type: 'TRANSFER_FUNDS', amount: '5' });
    const tx = await stream.waitFor((l) => l['type'] === 'TRANSFER_FUNDS');
    expect(tx['time']).toBe(formatUnix(engine.now));
    expect(tx).toMatchObject({ id: '3', amount: '5.0000' });
    expect((await rfc.waitFor((l) => l['type'] === 'TRANSFER_FUNDS'))['time']).toBe(formatRfc3339(engine.now));
    const heartbeat = await stream.waitFor((l) => l['type'] === 'HEARTBEAT');
    expect(heartbeat['time']).toBe(formatUnix(engine.now));
  });

  it('answers errors before streaming as ordinary JSON responses', async () => {
    const port = await listen();
    const noToken = await (h as Harness).app.inject({ method: 'GET', url: TX_STREAM });
    expect(noToken.statusCode).toBe(401);
    expect((await (h as Harness).request('GET', '/v3/accounts/101-004-9999999-001/transactions/stream')).statusCode).toBe(404);
    const bad = await (h as Harness).request('GET', `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD,NOPE_NOPE`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errorMessage: "Invalid value specified for 'instruments'" });
    expect((await (h as Harness).request('GET', `/v3/accounts/${ACCOUNT}/pricing/stream`)).statusCode).toBe(400);
    expect(activeStreamClients((h as Harness).engine)).toBe(0);
    expect(port).toBeGreaterThan(0);
  });
});

describe('pricing stream', () => {
  it('with the throttle off sends the snapshot, then every quote of the instruments asked for, and heartbeats', async () => {
    const port = await listen({ priceStreamThrottleMs: 0 });
    const engine = (h as Harness).engine;
    const stream = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=USD_JPY,EUR_USD`);
    expect(stream.res.headers['content-type']).toBe('application/octet-stream');
    const snapshot = (await stream.waitForLines(2)).map((l) => JSON.parse(l) as JsonBody);
    expect(snapshot.map((p) => [p['instrument'], p['bids'][0]['price']])).toEqual([
      ['USD_JPY', '150.000'],
      ['EUR_USD', '1.10000'],
    ]);
    const t = engine.now;
    engine.pushTick({ instrument: 'GBP_USD', time: t + 1, bid: 1.27, ask: 1.2702 });
    engine.pushTick({ instrument: 'EUR_USD', time: t + 2, bid: 1.10011, ask: 1.10031 });
    engine.pushTick({ instrument: 'EUR_USD', time: t + 3, bid: 1.10012, ask: 1.10032 });
    engine.pushTick({ instrument: 'USD_JPY', time: t + 4, bid: 151, ask: 151.02 });
    const prices = await until('four prices', () => {
      const seen = stream.lines.map((l) => JSON.parse(l) as JsonBody).filter((l) => l['type'] === 'PRICE');
      return seen.length >= 5 ? seen.slice(2) : undefined;
    });
    expect(prices[0]).toEqual({
      type: 'PRICE',
      instrument: 'EUR_USD',
      time: formatRfc3339(t + 2),
      status: 'tradeable',
      tradeable: true,
      bids: [{ price: '1.10011', liquidity: 10000000 }],
      asks: [{ price: '1.10031', liquidity: 10000000 }],
      closeoutBid: '1.10011',
      closeoutAsk: '1.10031',
    });
    expect(prices.map((p) => [p['instrument'], p['asks'][0]['price']])).toEqual([
      ['EUR_USD', '1.10031'],
      ['EUR_USD', '1.10032'],
      ['USD_JPY', '151.020'],
    ]);
    const heartbeat = await stream.waitFor((l) => l['type'] === 'HEARTBEAT');
    expect(heartbeat).toEqual({ type: 'HEARTBEAT', time: formatRfc3339(engine.now) });
  });

  it('skips the snapshot on request and prints UNIX times when asked', async () => {
    const port = await listen();
    const engine = (h as Harness).engine;
    const stream = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD&snapshot=false`, {
      'Accept-Datetime-Format': 'UNIX',
    });
    await stream.waitFor((l) => l['type'] === 'HEARTBEAT');
    engine.pushTick({ instrument: 'EUR_USD', time: engine.now + 7, bid: 1.2, ask: 1.2002 });
    const price = await stream.waitFor((l) => l['type'] === 'PRICE');
    expect(price).toMatchObject({ instrument: 'EUR_USD', time: formatUnix(engine.now), closeoutAsk: '1.20020' });
    const first = stream.lines.map((l) => JSON.parse(l) as JsonBody).find((l) => l['type'] === 'PRICE');
    expect(first).toEqual(price);
  });
});

describe('pricing stream snapshot', () => {
  it('first sends the latest price of each instrument asked for that has one, in the order asked', async () => {
    const port = await listen();
    const engine = (h as Harness).engine;
    // AUD_USD has no price yet: nothing to send for it.
    const stream = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=AUD_USD,EUR_USD,USD_JPY&snapshot=True`);
    const lines = (await stream.waitForLines(2)).map((l) => JSON.parse(l) as JsonBody);
    expect(lines.map((p) => [p['instrument'], p['time']])).toEqual([
      ['EUR_USD', formatRfc3339(engine.now - 1_000_000)],
      ['USD_JPY', formatRfc3339(engine.now)],
    ]);
    // The snapshot opens no throttle window: the next quote goes out at once.
    engine.pushTick({ instrument: 'EUR_USD', time: engine.now + 1, bid: 1.2, ask: 1.2002 });
    const next = await stream.waitFor((l) => l['type'] === 'PRICE' && l['bids'][0]['price'] === '1.20000');
    expect(next['time']).toBe(formatRfc3339(engine.now));
  });
});

describe('pricing stream throttle', () => {
  const prices = (stream: Stream): JsonBody[] => stream.lines.map((l) => JSON.parse(l) as JsonBody).filter((l) => l['type'] === 'PRICE');
  const bidsOf = (lines: JsonBody[]): string[] => lines.map((p) => `${p['instrument']} ${p['bids'][0]['price']}`);

  it('sends at most one price per instrument per 250 ms of simulated time, the latest, by default', async () => {
    const port = await listen();
    const engine = (h as Harness).engine;
    const stream = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD,USD_JPY&snapshot=false`);
    await waitForClients(1);
    const t = engine.now;
    const ms = 1000;
    engine.pushTick({ instrument: 'EUR_USD', time: t + 1 * ms, bid: 1.101, ask: 1.1012 }); // sent, window to 251 ms
    engine.pushTick({ instrument: 'EUR_USD', time: t + 100 * ms, bid: 1.102, ask: 1.1022 }); // held
    engine.pushTick({ instrument: 'USD_JPY', time: t + 120 * ms, bid: 151, ask: 151.02 }); // its own window: sent
    engine.pushTick({ instrument: 'EUR_USD', time: t + 200 * ms, bid: 1.103, ask: 1.1032 }); // replaces the held one
    engine.pushTick({ instrument: 'USD_JPY', time: t + 240 * ms, bid: 152, ask: 152.02 }); // held
    const two = await until('two prices', () => (prices(stream).length >= 2 ? prices(stream) : undefined));
    expect(bidsOf(two)).toEqual(['EUR_USD 1.10100', 'USD_JPY 151.000']);
    // The clock passing EUR_USD's window end releases its latest price; USD_JPY's window (to 370 ms) is still open.
    engine.advanceTo(t + 300 * ms);
    const third = await until('the held EUR_USD price', () => (prices(stream).length >= 3 ? prices(stream) : undefined));
    expect(bidsOf(third)).toEqual(['EUR_USD 1.10100', 'USD_JPY 151.000', 'EUR_USD 1.10300']);
    expect(third[2]?.['time']).toBe(formatRfc3339(t + 200 * ms));
    // A quote of an instrument not streamed moves time too.
    engine.pushTick({ instrument: 'GBP_USD', time: t + 400 * ms, bid: 1.27, ask: 1.2702 });
    const fourth = await until('the held USD_JPY price', () => (prices(stream).length >= 4 ? prices(stream) : undefined));
    expect(bidsOf(fourth).at(-1)).toBe('USD_JPY 152.000');
    expect(fourth).toHaveLength(4);
  });

  it('follows the configured window', async () => {
    const port = await listen({ priceStreamThrottleMs: 1000 });
    const engine = (h as Harness).engine;
    const stream = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD&snapshot=false`);
    await waitForClients(1);
    const t = engine.now;
    for (let i = 1; i <= 5; i += 1)
      engine.pushTick({ instrument: 'EUR_USD', time: t + i * 300_000, bid: 1.1 + i / 1000, ask: 1.1002 + i / 1000 });
    // 300 ms sent (window to 1300 ms); 600, 900, 1200 held in turn; 1500 releases 1200 and is held itself.
    const seen = await until('two prices', () => (prices(stream).length >= 2 ? prices(stream) : undefined));
    expect(bidsOf(seen)).toEqual(['EUR_USD 1.10100', 'EUR_USD 1.10400']);
    engine.advanceTo(t + 2_300_000);
    const all = await until('three prices', () => (prices(stream).length >= 3 ? prices(stream) : undefined));
    expect(bidsOf(all).at(-1)).toBe('EUR_USD 1.10500');
  });
});

describe('stream limits and shutdown', () => {
  it('drops a client that stops reading once its unsent bytes pass the limit, and keeps the others', async () => {
    const port = await listen({ streamBufferMax: 64 * 1024, heartbeatMs: 60_000, priceStreamThrottleMs: 0 });
    const engine = (h as Harness).engine;
    const path = `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD&snapshot=false`;
    const slow = await openStream(port, path);
    slow.res.pause();
    slow.res.socket.pause();
    const fast = await openStream(port, path);
    await waitForClients(2);
    let pushed = 0;
    // Batches of ~25 KB (under the limit, so a reader keeps up), up to ~75 MB in all: the kernel's
    // socket buffers take a few MB from the paused client before its unsent bytes pile up.
    for (let batch = 0; batch < 3000 && activeStreamClients(engine) === 2; batch += 1) {
      for (let i = 0; i < 100; i += 1) {
        pushed += 1;
        engine.pushTick({
          instrument: 'EUR_USD',
          time: engine.now + 1,
          bid: 1.1 + (pushed % 100) / 100_000,
          ask: 1.1002 + (pushed % 100) / 100_000,
        });
      }
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(activeStreamClients(engine)).toBe(1);
    // The reader keeps getting every price, in order.
    await until('every price on the fast stream', () => (fast.lines.length >= pushed ? true : undefined));
    expect(fast.lines).toHaveLength(pushed);
    const times = fast.lines.map((l) => (JSON.parse(l) as JsonBody)['time'] as string);
    expect(times.every((t, i) => i === 0 || t > (times[i - 1] as string))).toBe(true);
    expect(times.at(-1)).toBe(formatRfc3339(engine.now));
    // The dropped connection ends once its client reads what the kernel still held.
    slow.res.socket.resume();
    slow.res.resume();
    await slow.ended;
    expect(slow.lines.length).toBeLessThan(pushed);
  });

  it('ends open streams when the server closes', async () => {
    const port = await listen();
    const stream = await openStream(port, TX_STREAM);
    const prices = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD`);
    await waitForClients(2);
    await (h as Harness).app.close();
    await stream.ended;
    await prices.ended;
    expect(activeStreamClients((h as Harness).engine)).toBe(0);
    h = undefined;
  });
});
